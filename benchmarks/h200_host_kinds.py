"""Measure every kind of host memory on the GPU machine, for the model's numbers.

Run on the GPU machine from the repository root (CuPy needed; no CUPTI, NVTX or Qt):

    python3 -m benchmarks.h200_host_kinds --out DIR [--quick]

Writes DIR/h200_host_kinds.json (by default benchmarks/results/), rewritten after every
measurement, so a run cut short keeps what finished; prints a table per measurement. Parts,
each measured with CUDA events or the host clock (see ``METHOD`` in host_kinds_record):

- write_combined: H2D/D2H copies by size (4 KiB to 256 MiB) from pageable, pinned and
  write-combined (``cudaHostAllocWriteCombined``) memory; the host reading and writing each
  kind; the default pipeline from pinned and from write-combined memory, with a host read
  of its output.
- mapped: zero-copy (``cudaHostAllocMapped``): a read-one-write-one kernel on mapped host
  memory against device memory, by size; the pipeline's kernels in place on mapped memory.
- managed: ``cudaMallocManaged`` data written by the host, the pipeline's kernel without
  prefetch (faults inside the kernel) and with ``cudaMemPrefetchAsync`` both ways.
- staging: host memcpy pageable <-> pinned per chunk size; the default pipeline from pageable
  data through a ring of 2, 4 or 8 pinned slots, against pinned and plain pageable buffers.
- graphs: the pipeline with 16 to 1024 chunks issued call by call and as one CUDA Graph.

Every buffer is freed when its measurement ends, failed or not; a failed measurement records
its error and the others still run. ``--quick`` keeps to a few sizes and three runs of each
thing; no measurement starts after ``--budget-s`` (420 s, quick 120 s), so that a run ends
in a known time however slow the host turns out to be.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.host_kinds_record import DEFAULT, QUICK, Part, Recorder, Settings, log
from benchmarks.machine import RESULTS

PART_NAMES = ("write_combined", "mapped", "managed", "staging", "graphs")  # graphs last: it captures streams


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="parts: " + ", ".join(PART_NAMES),
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=RESULTS, help="where h200_host_kinds.json goes (%(default)s)")
    parser.add_argument("--quick", action="store_true", help="few sizes and repeats: about a minute")
    parser.add_argument("--parts", type=_parts, default=PART_NAMES, help="comma-separated parts to run (default: all)")
    parser.add_argument("--budget-s", type=_seconds, default=None,
                        help="start no measurement after this many seconds (default: 420, quick: 120)")  # fmt: skip
    return parser.parse_args(argv)


def _parts(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in PART_NAMES]
    if unknown or not names:
        named = unknown[0] if unknown else text
        raise argparse.ArgumentTypeError(f"unknown part {named!r}; parts: {', '.join(PART_NAMES)}")
    return tuple(name for name in PART_NAMES if name in names)  # always in the safe order


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return value


def settings_from(args: argparse.Namespace) -> Settings:
    base = QUICK if args.quick else DEFAULT
    return base if args.budget_s is None else Settings(**{**base.to_dict(), "budget_s": args.budget_s})


PartFunction = Callable[[Any, Settings, Part], None]


def part_functions() -> dict[str, PartFunction]:
    """The parts' measuring functions (their modules import CuPy only when they run)."""
    from benchmarks.host_kinds_copies import mapped, write_combined
    from benchmarks.host_kinds_managed import managed
    from benchmarks.host_kinds_staging import graphs, staging

    return {"write_combined": write_combined, "mapped": mapped, "managed": managed, "staging": staging,
            "graphs": graphs}  # fmt: skip


def run(recorder: Recorder, names: Sequence[str], open_device: Callable[[], Any],
        functions: dict[str, PartFunction]) -> int:  # fmt: skip
    """Open the device, run the named parts, finish the record; 0 if nothing failed."""
    try:
        gpu = open_device()
    except Exception as error:
        recorder.result["parts"]["setup"] = recorder.fail("setup", error)
        recorder.save(announce=True)
        return 1
    recorder.result["device"] = dict(getattr(gpu, "facts", {}))
    recorder.save()
    for name in names:
        recorder.run_part(name, lambda part, name=name: functions[name](gpu, recorder.settings, part))
    recorder.finish()
    errors, skipped = recorder.result["errors"], recorder.result["skipped"]
    log(f"finished in {recorder.elapsed_s():.0f} s; errors: {list(errors) or 'none'}; skipped: {skipped or 'none'}")
    return 1 if errors else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    from benchmarks.host_kinds_gpu import open_gpu

    recorder = Recorder(settings_from(args), args.out)
    return run(recorder, args.parts, open_gpu, part_functions())


if __name__ == "__main__":
    sys.exit(main())
