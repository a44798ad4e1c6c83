#!/usr/bin/env bash
# On the GPU machine, from the repository root: smoke facts, the gpu-marked tests and the H200
# measurements (benchmarks/h200_measure.py). Results land in $OUT (at most 8 files come back):
# pytest.txt, measure_log.txt, h200*.json, traces.tar.gz; the smoke facts go to stdout.
# Usage: tools/h200_device_run.sh [--skip-tests | --tests-only] [extra args for h200_measure.py]
# The gpu tests also leave app-window.png and app-timeline.png (the app on the real GPU) in $OUT.
set -u
source .devicepkgs/activate
out=${OUT:?OUT must name the folder for the results}
run_tests=1 measure=1
if [ "${1:-}" = "--skip-tests" ]; then run_tests=0; shift; fi
if [ "${1:-}" = "--tests-only" ]; then measure=0; shift; fi
{
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,temperature.gpu --format=csv
  python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)"
  python3 -c "from importlib.metadata import version; print('cupti-python', version('cupti-python'))"
  python3 -c "import nvtx; print('nvtx ok')"
  free -g; nproc
} 2>&1
if [ $run_tests = 1 ]; then
  OVERLAPVIZ_GPU_PNG="$out/app-window.png" OVERLAPVIZ_GPU_TIMELINE_PNG="$out/app-timeline.png" \
    timeout 240 python3 -m pytest -p no:cacheprovider -m gpu tests/backends/cupy -q -rs >"$out/pytest.txt" 2>&1
  echo "pytest rc=$?" >>"$out/pytest.txt"
  tail -n 25 "$out/pytest.txt"
fi
[ $measure = 1 ] || exit 0
mkdir -p /tmp/bench
timeout 420 python3 benchmarks/h200_measure.py --out /tmp/bench "$@" >"$out/measure_log.txt" 2>&1
echo "measure rc=$?" >>"$out/measure_log.txt"
[ -d /tmp/bench/traces ] && tar czf "$out/traces.tar.gz" -C /tmp/bench traces
cp /tmp/bench/*.json "$out/" 2>/dev/null
tail -n 70 "$out/measure_log.txt"
