"""overlapviz's own files at 10^6 and 10^7 spans: the size of each form, and the time to write and to open it.

Builds a synthetic trace of N spans (host calls, each issuing a copy or a kernel on one of four
streams), then writes it and reads it back in each form, taking the median of ``--repeats``:

- ``chrome-json``: Chrome trace JSON (`export_chrome`, then `read_trace_file`), up to
  ``--json-up-to`` spans (at 10^7 it is gigabytes and minutes);
- ``columnar``: overlapviz's columnar file, an uncompressed ``.npz`` (`export_columnar`, then
  `read_trace_file`: the one door, with every check a file meets);
- ``parquet``: each column in a Parquet file through pyarrow (uncompressed, then snappy), read
  into the trace's numpy columns, where pyarrow is installed; no checks, so it is the best
  Parquet could do.

Why npz. Measured on a shared 2-core machine (load average 1.4 to 2; median of 3, but for JSON,
one run; times vary with the load):

| spans | form | size | write | open |
|---|---|---|---|---|
| 10^6 | Chrome JSON | 458 MB | 23 s | 11.5 s |
| 10^6 | columnar (npz) | 69 MB | 0.2 s | 0.13 s |
| 10^6 | Parquet, uncompressed / snappy | 40 / 23 MB | 0.3 s | 0.08 / 0.16 s |
| 10^7 | columnar (npz) | 690 MB | 2.5 s | 0.95 s |
| 10^7 | Parquet, uncompressed / snappy | 399 / 226 MB | 2.2 / 2.9 s | 1.1 / 1.3 s |

The columnar file opens 10^7 spans in under a second with every check made (the door reads the
file, checks each member's checksum and header, then the values; the columns are used where
they lie in the file's bytes, aligned by the writer, never copied or unpickled), where Parquet,
with no checks at all, is no faster. Parquet's files are smaller (it encodes runs and repeats
even uncompressed), but pyarrow is a dependency of over 100 MB, and a reader of many more lines
to trust with untrusted files; NumPy is already one, and a trace's columns are a few integer
arrays of one length, which is what ``.npz`` holds. Where size matters, gzip the file: overlapviz
un-gzips by content with a bound, and the 10^6 spans above shrink to 9 MB and open in 0.3 s.

    python -m benchmarks.own_file_scale [--spans 1000000 10000000] [--json-up-to 1000000] [--repeats 3] [--out DIR]

Writes benchmarks/results/own_file_scale.json (or into ``--out``) with the machine, its load
and the date; ``--out -`` writes nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch
from overlapviz.core.files.columnar_write import export_columnar
from overlapviz.core.files.trace_export import export_chrome
from overlapviz.core.trace.columns import COLUMNS
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import MemoryKind, OpKind, Trace, Unit
from overlapviz.importers.read import read_trace_file

STREAMS = 4
_OPS = (  # what each call issues in turn: (kind, unit, bytes, memory)
    (OpKind.H2D, Unit.H2D_ENGINE, 1 << 20, MemoryKind.PINNED),
    (OpKind.KERNEL, Unit.COMPUTE, 0, MemoryKind.NONE),
    (OpKind.D2H, Unit.D2H_ENGINE, 1 << 20, MemoryKind.PINNED),
)
_NAMES = ("cudaMemcpyAsync", "Memcpy HtoD", "cudaLaunchKernel", "scale_kernel", "cudaMemcpy", "Memcpy DtoH")


def synthetic_trace(spans: int) -> Trace:
    """A valid trace of `spans` spans (even rows host calls, odd rows the op each issued), built column-wide."""
    rows = np.arange(spans, dtype=np.int64)
    call, step = rows % 2 == 0, (rows // 2) % len(_OPS)
    chunk = rows // (2 * len(_OPS))
    pick = np.array([[int(kind), int(unit), nbytes, int(memory)] for kind, unit, nbytes, memory in _OPS])[step]
    start = rows * 1_000
    columns = {
        "kind": np.where(call, int(OpKind.API), pick[:, 0]),
        "unit": np.where(call, int(Unit.HOST), pick[:, 1]),
        "stream": np.where(call, -1, chunk % STREAMS),
        "chunk": chunk,
        "enqueue_ns": np.where(call, -1, start - 900),
        "ready_ns": np.where(call, -1, start - 400),
        "start_ns": start,
        "end_ns": start + 800,
        "bytes": np.where(call, 0, pick[:, 2]),
        "memory": np.where(call, 0, pick[:, 3]),
        "name": 2 * step + ~call,
        "op": np.where(call & (rows + 1 < spans), rows + 1, -1),
        "device": np.zeros(spans, dtype=np.int64),
        "thread": np.zeros(spans, dtype=np.int64),
    }
    meta = TraceMeta(backend="sim", device="h200", timing="model", simulated=True, config={"chunks": 8})
    return Trace(columns, _NAMES, meta)


def _parquet_forms() -> dict[str, tuple[Callable[[Trace, Path], None], Callable[[Path], Any]]]:
    """Parquet's writers and reader, where pyarrow is installed (none where it is not)."""
    try:
        import pyarrow as pa  # type: ignore[import-not-found, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return {}

    def writer(compression: str) -> Callable[[Trace, Path], None]:
        return lambda trace, path: pq.write_table(
            pa.table({name: trace[name] for name in COLUMNS}), path, compression=compression
        )

    def read(path: Path) -> Trace:
        table = pq.read_table(path)
        return Trace({name: table[name].to_numpy() for name in COLUMNS}, _NAMES, TraceMeta())

    return {"parquet": (writer("none"), read), "parquet-snappy": (writer("snappy"), read)}


def _times_s(work: Callable[[], Any], repeats: int) -> dict[str, float]:
    """Median, best and worst of `repeats` timed calls of `work`."""
    times = []
    for _ in range(repeats):
        begun = time.perf_counter()
        work()
        times.append(time.perf_counter() - begun)
    return {"median": statistics.median(times), "best": min(times), "worst": max(times)}


def measure(spans: int, folder: Path, *, json_up_to: int, repeats: int) -> list[dict[str, Any]]:
    """Size, write and read time of each form for a trace of `spans` spans; the read trace checked equal."""
    trace = synthetic_trace(spans)
    forms: dict[str, tuple[Callable[[Trace, Path], None], Callable[[Path], Any]]] = {
        "columnar": (export_columnar, read_trace_file),
        **_parquet_forms(),
    }
    if spans <= json_up_to:
        forms = {"chrome-json": (export_chrome, read_trace_file), **forms}
    rows = []
    for form, (write, read) in forms.items():
        path = folder / f"trace-{form}"
        written = _times_s(lambda write=write, path=path: write(trace, path), repeats)
        reading = _times_s(lambda read=read, path=path: read(path), repeats)
        back = read(path)
        assert all(np.array_equal(back[name], trace[name]) for name in COLUMNS), form
        size = path.stat().st_size
        rows.append({"form": form, "spans": spans, "bytes": size, "write_s": written["median"],
                     "read_s": reading["median"], "write_times_s": written, "read_times_s": reading})  # fmt: skip
        path.unlink()
    return rows


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Measure and print each size; the rows printed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spans", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--json-up-to", type=int, default=10**6, help="Chrome JSON up to this many spans")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(RESULTS), help=f"the folder for the result ({RESULTS}); - for none")
    args = parser.parse_args(argv)
    load = LoadWatch()
    print(f"load average {os.getloadavg()[0]:.2f} (times vary with it)")
    print(f"{'spans':>10}  {'form':<15} {'size MB':>9} {'write s':>8} {'read s':>8}")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for spans in args.spans:
            for row in measure(spans, Path(folder), json_up_to=args.json_up_to, repeats=args.repeats):
                print(
                    f"{row['spans']:>10,}  {row['form']:<15} {row['bytes'] / 1e6:>9.1f}"
                    f" {row['write_s']:>8.2f} {row['read_s']:>8.2f}"
                )
                rows.append(row)
    if args.out != "-":
        what = "a synthetic trace written and opened through the one door in each form; times are medians"
        write_result("own_file_scale", {"what": what, "repeats": args.repeats, "rows": rows}, Path(args.out), load=load)
    return rows


if __name__ == "__main__":
    main()
