#!/usr/bin/env bash
# On the GPU machine, from the repository root: the gpu-marked tests, the calibrate check, the
# soak of the CuPy backend and the PyTorch profiler traces for the importers' tests.
# Results land in $OUT (at most 8 files come back): pytest.txt, app-window.png,
# app-timeline.png, calibrate_h200.json, calibrated_h200.toml, h200_soak.json, torch.tar, log.txt.
# Usage: tools/h200_checks.sh [STEP ...]   (steps: tests calibrate soak torch; default all)
set -u
source .devicepkgs/activate  # from the root of the tree to test: it puts $PWD on the path
out=${OUT:?OUT must name the folder for the results}
steps=${*:-tests calibrate soak torch}
log=$out/log.txt
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; free -g | head -2; date -u; } >>"$log" 2>&1
for step in $steps; do
  echo "== $step $(date -u +%T)" >>"$log"
  case $step in
    tests)
      OVERLAPVIZ_GPU_PNG="$out/app-window.png" OVERLAPVIZ_GPU_TIMELINE_PNG="$out/app-timeline.png" \
        timeout 300 python3 -m pytest -p no:cacheprovider -m gpu tests/backends/cupy -q -rs >"$out/pytest.txt" 2>&1
      echo "pytest rc=$?" >>"$out/pytest.txt"; tail -n 15 "$out/pytest.txt" >>"$log" ;;
    calibrate)
      mkdir -p /tmp/cal && timeout 150 python3 benchmarks/calibrate_check.py --out /tmp/cal >>"$log" 2>&1
      echo "calibrate rc=$?" >>"$log"; cp /tmp/cal/*.json /tmp/cal/*.toml "$out/" 2>>"$log" ;;
    soak)
      mkdir -p /tmp/soak && timeout 300 python3 benchmarks/h200_soak.py --out /tmp/soak >>"$log" 2>&1
      echo "soak rc=$?" >>"$log"; cp /tmp/soak/h200_soak.json "$out/" 2>>"$log" ;;
    torch)
      rm -rf /tmp/torch && timeout 120 python3 tools/record_torch_traces.py /tmp/torch >>"$log" 2>&1
      echo "torch rc=$?" >>"$log"; tar cf "$out/torch.tar" -C /tmp torch ;;
    *) echo "unknown step $step" >>"$log" ;;
  esac
done
tail -n 40 "$log"
