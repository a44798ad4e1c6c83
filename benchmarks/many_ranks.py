"""A job of many ranks: ``overlapviz analyze DIR --json`` against json.load of the same files, the merge, and HTA.

Builds a job of N ranks from the two real ranks of a 128-rank job kept for the tests
(tests/data/ranks/README.md): rank r is real rank r % 2, its events repeated until it has
about E of them, each repetition later on the clock by the trace's length and with its own
correlation ids, written a piece at a time. Each rank's file says its rank and the job's size
(``distributedInfo``) and starts its clock a little later than the rank before
(``baseTimeNanoseconds``, r x 37 µs), the way ranks' clocks differ; their events are the
same bytes, written once per real rank and copied. Everything is written into a temporary
folder that is deleted at the end, and the build is refused where the disk cannot hold it.

Then, interleaved in fresh processes: ``overlapviz analyze DIR --json`` (the local pool, or
``--dask local``), measured as a user meets it, start-up included, with the parent's own peak
RSS (``ru_maxrss`` of itself, its workers left out) and the largest worker's (``ru_maxrss`` of
its reaped children); and ``json.load`` of the same files one after another. The merge: 512
summaries (those of two built ranks, with their clocks shifted) reduced to one job. HTA
(HolisticTraceAnalysis), where an interpreter that has it is given, loads folders of 1, 2, 4,
... of the ranks until it fails or runs out of time; overlapviz is timed on the largest it loaded.

Goals (64 ranks x 10^6 events, on a 2-core machine): parent peak < 1 GB, a worker < 1.5 GB,
analyze <= 0.75 x json.load's time; 512 ranks merged in < 10 s.

    python -m benchmarks.many_ranks [--ranks 64] [--events 1000000] [--dask] [--hta-python PY] [--tiny]
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.machine import RESULTS, write_result
from benchmarks.steady import LoadWatch, add_options, all_steady, max_repeats, repeat_until_steady, verdict
from overlapviz.job.job_report import job_json
from overlapviz.job.reduce import reduce_job
from overlapviz.job.summary import RankSummary
from overlapviz.job.worker import RankSource, summarise_file

ROOT = Path(__file__).resolve().parents[1]
REAL_RANKS = tuple(ROOT / "tests" / "data" / "torch-real" / f"hta-sampled-rank{r}-of-128.json.gz" for r in (0, 1))
TINY = {"ranks": 4, "events": 12_000, "merge": 16}
MERGE_RANKS = 512
RANK_SKEW_NS = 37_000  # how much later each rank's clock starts than the one before
REPEAT_GAP_US = 1_000  # between one repetition of a rank's events and the next
IDS = ("correlation", "External id", "Ev Idx")  # renumbered in each repetition, so that each links its own
GOALS = {"parent_peak_bytes": 1e9, "worker_peak_bytes": 1.5e9, "analyze_over_json_load": 0.75, "merge_s": 10.0}
HTA_TIMEOUT_S = 900
# Run in a fresh process: the command as a user runs it, then its own peak and its reaped workers' largest
# (ru_maxrss of RUSAGE_SELF leaves the children out; RUSAGE_CHILDREN is the largest of them), in KiB on Linux.
ANALYZE_CHILD = """import json, resource, sys
from overlapviz.commands.main import main
code = main(sys.argv[1:])
sys.stdout.flush()
own, workers = (resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"code": code, "own_kib": own, "children_kib": workers}), file=sys.stderr)
"""
JSON_LOAD_CHILD = """import gzip, json, resource, sys
for path in sys.argv[1:]:
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as file:
        document = json.load(file)
    del document
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"code": 0, "own_kib": own, "children_kib": 0}), file=sys.stderr)
"""
HTA_CHILD = """import json, resource, sys
from hta.trace_analysis import TraceAnalysis
analysis = TraceAnalysis(trace_dir=sys.argv[1])
analysis.get_temporal_breakdown(visualize=False)
own, workers = (resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"code": 0, "own_kib": own, "children_kib": workers}), file=sys.stderr)
"""


def real_events(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The real rank's top-level fields (its events left out) and its events."""
    with gzip.open(path, "rb") as file:
        document = json.load(file)
    events = document.pop("traceEvents")
    return document, events


def repetitions(events: list[dict[str, Any]], wanted: int) -> Iterator[list[dict[str, Any]]]:
    """The events, again and again until about `wanted`: each time later and with new ids; metadata once."""
    is_once = [e.get("ph") == "M" or e.get("cat") == "Trace" for e in events]
    once = [e for e, single in zip(events, is_once, strict=True) if single]
    repeated = [e for e, single in zip(events, is_once, strict=True) if not single]
    times = [e["ts"] for e in repeated if "ts" in e]
    length_us = max(e["ts"] + e.get("dur", 0) for e in repeated if "ts" in e) - min(times) + REPEAT_GAP_US
    stride = 1 + max((int(e["args"][k]) for e in repeated for k in IDS if k in e.get("args", {})), default=0)
    count = max(1, -(-(wanted - len(once)) // len(repeated)))
    for n in range(count):
        yield (once if n == 0 else []) + [_shifted(e, n * length_us, n * stride) for e in repeated]


def _shifted(event: dict[str, Any], by_us: float, id_offset: int) -> dict[str, Any]:
    if not (by_us or id_offset):
        return event
    moved = {**event, "ts": event["ts"] + by_us} if "ts" in event else dict(event)
    args = event.get("args")
    if isinstance(args, dict) and any(k in args for k in IDS):
        moved["args"] = {**args, **{k: int(args[k]) + id_offset for k in IDS if k in args}}
    return moved


def write_body(events: list[dict[str, Any]], wanted: int, path: Path) -> int:
    """The ``traceEvents`` array's inside, written to `path` a repetition at a time; how many events."""
    written = 0
    with path.open("wb") as body:
        for piece in repetitions(events, wanted):
            text = json.dumps(piece, separators=(",", ":"))[1:-1]
            body.write((b",\n" if written else b"") + text.encode())
            written += len(piece)
    return written


def write_rank(path: Path, rank: int, world: int, top: dict[str, Any], body: Path, compress: bool) -> None:
    """One rank's file: its top-level fields (its rank, its clock's start), the shared events, the end."""
    fields = {**top, "distributedInfo": {**top.get("distributedInfo", {}), "rank": rank, "world_size": world},
              "baseTimeNanoseconds": rank * RANK_SKEW_NS}  # fmt: skip
    head = json.dumps(fields)[:-1] + ', "traceEvents": [\n'
    with path.open("wb") as plain:
        out = gzip.GzipFile(fileobj=plain, mode="wb", compresslevel=1) if compress else plain
        out.write(head.encode())
        with body.open("rb") as events:
            shutil.copyfileobj(events, out, 16 * 2**20)
        out.write(b"\n]}\n")
        if compress:
            out.close()


def build_job(folder: Path, ranks: int, events: int, compress: bool) -> tuple[list[Path], int]:
    """The job's files in `folder` (refused where the disk cannot hold them) and each rank's events."""
    bodies, counts = [], []
    for number, real in enumerate(REAL_RANKS):
        top, real_ones = real_events(real)
        bodies.append((top, folder / f".events-{number}"))
        counts.append(write_body(real_ones, events, bodies[-1][1]))
    need = max(path.stat().st_size for _, path in bodies) * ranks // (4 if compress else 1)
    free = shutil.disk_usage(folder).free
    if need > 0.9 * free:
        raise SystemExit(f"the job needs about {need / 1e9:.1f} GB, {folder} has {free / 1e9:.1f} GB free:"
                         " give fewer --ranks or --events")  # fmt: skip
    files = []
    for rank in range(ranks):
        top, body = bodies[rank % len(bodies)]
        files.append(folder / f"rank-{rank}.json{'.gz' if compress else ''}")
        write_rank(files[-1], rank, ranks, top, body, compress)
    for _, body in bodies:
        body.unlink()
    return files, min(counts)


def run_child(code: str, *arguments: str, python: str = sys.executable, timeout: float | None = None) -> dict[str, Any]:
    """Run `code` in a fresh interpreter: its seconds and the peaks it reports on its last line of stderr."""
    begin = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run([python, "-c", code, *arguments], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=timeout, check=False)  # fmt: skip
    seconds = time.perf_counter() - begin
    last = done.stderr.strip().splitlines()[-1:] or [""]
    if done.returncode != 0 or not last[0].startswith("{"):
        return {"failed": f"exit {done.returncode}: {done.stderr.strip()[-600:]}", "seconds": seconds}
    peaks = json.loads(last[0])
    return {"seconds": seconds, "own_bytes": peaks["own_kib"] * 1024, "children_bytes": peaks["children_kib"] * 1024,
            "stdout": done.stdout}  # fmt: skip


def analyze(folder: Path, dask: bool) -> dict[str, Any]:
    """``overlapviz analyze FOLDER --json`` in a fresh process; refuses a failed run."""
    ran = run_child(ANALYZE_CHILD, "analyze", str(folder), "--json", *(["--dask", "local"] if dask else []))
    if "failed" in ran:
        raise SystemExit(f"overlapviz analyze {folder}: {ran['failed']}")
    return ran


def compare(folder: Path, files: list[Path], dask: bool, repeats: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Analyze and json.load, interleaved until steady: their timings, and the peaks (the largest seen)."""
    peaks = {"parent": 0, "worker": 0, "json_load": 0, "ranks": 0}

    def sample() -> dict[str, float]:
        ours = analyze(folder, dask)
        theirs = run_child(JSON_LOAD_CHILD, *map(str, files))
        peaks["parent"] = max(peaks["parent"], ours["own_bytes"])
        peaks["worker"] = max(peaks["worker"], ours["children_bytes"])
        peaks["json_load"] = max(peaks["json_load"], theirs["own_bytes"])
        peaks["ranks"] = len(json.loads(ours["stdout"])["ranks"])
        return {"analyze_s": ours["seconds"], "json_load_s": theirs["seconds"]}

    found = repeat_until_steady(sample, min_repeats=min(2, repeats), max_repeats=repeats)
    print(verdict(found))
    return {name: steady.summary(3) for name, steady in found.items()} | all_steady(found), peaks


def shifted_summary(summary: RankSummary, rank: int, by_ns: int) -> RankSummary:
    """`summary` as rank `rank` whose clock runs `by_ns` later."""
    anchors = dataclasses.replace(summary.anchors, start_ns=summary.anchors.start_ns + by_ns,
                                  end_ns=summary.anchors.end_ns + by_ns)  # fmt: skip
    return dataclasses.replace(
        summary, rank=rank, file=f"rank-{rank}", anchors=anchors,
        origin_ns=None if summary.origin_ns is None else summary.origin_ns + by_ns,
        device_start_ns=summary.device_start_ns + by_ns, device_end_ns=summary.device_end_ns + by_ns,
        buckets=dataclasses.replace(summary.buckets, start_ns=summary.buckets.start_ns + by_ns),
    )  # fmt: skip


def merge(files: list[Path], count: int, repeats: int) -> dict[str, Any]:
    """`count` summaries, made from those of the first two built ranks, reduced to a job (and its report)."""
    real = [summarise_file(RankSource(str(file))) for file in files[:2]]
    if not all(isinstance(s, RankSummary) for s in real):
        raise SystemExit(f"the built ranks gave no summary: {real}")
    jitter = np.random.default_rng(0).integers(0, 50_000, count)  # up to 50 µs more, as ranks differ
    summaries = [shifted_summary(real[r % 2], r, r * RANK_SKEW_NS + int(jitter[r])) for r in range(count)]  # type: ignore[arg-type]

    def sample() -> dict[str, float]:
        begin = time.perf_counter()
        job = reduce_job(summaries)
        reduced = time.perf_counter()
        json.dumps(job_json(job))
        return {"reduce_s": reduced - begin, "report_s": time.perf_counter() - reduced}

    found = repeat_until_steady(sample, min_repeats=min(3, repeats), max_repeats=repeats)
    anchors = len(real[0].anchors)  # type: ignore[union-attr]
    return {"ranks": count, "anchors_per_rank": anchors, **{n: s.summary(4) for n, s in found.items()}}


def hta_side_by_side(python: str | None, folder: Path, files: list[Path], dask: bool) -> dict[str, Any]:
    """HTA on the first 1, 2, 4, ... ranks until it fails or takes too long; overlapviz on the largest it loaded."""
    if python is None:
        return {"skipped": "no --hta-python given (an interpreter with HolisticTraceAnalysis installed)"}
    check = subprocess.run([python, "-c", "import hta.trace_analysis"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        return {"skipped": f"{python} cannot import hta: {check.stderr.strip().splitlines()[-1:]}"}
    loaded: dict[str, Any] = {}
    count = 1
    while count <= len(files):
        subset = folder / f".hta-{count}"
        subset.mkdir()
        for file in files[:count]:
            (subset / file.name).symlink_to(file)
        try:
            ran = run_child(HTA_CHILD, str(subset), python=python, timeout=HTA_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            ran = {"failed": f"over {HTA_TIMEOUT_S} s"}
        print(f"HTA, {count} ranks: " + (ran["failed"][-200:] if "failed" in ran else f"{ran['seconds']:.1f} s"))
        if "failed" in ran:
            return {**loaded, "failed_at_ranks": count, "why": ran["failed"]}
        loaded = {"ranks": count, **_beside(ran, analyze(subset, dask))}
        count *= 2
    return loaded


def _beside(hta: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    return {
        "hta_s": round(hta["seconds"], 2), "hta_peak_bytes": hta["own_bytes"],
        "hta_children_peak_bytes": hta["children_bytes"], "overlapviz_s": round(ours["seconds"], 2),
        "overlapviz_parent_peak_bytes": ours["own_bytes"], "overlapviz_worker_peak_bytes": ours["children_bytes"],
    }  # fmt: skip


def main() -> None:
    load = LoadWatch()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=64)
    parser.add_argument("--events", type=int, default=10**6, help="about this many events per rank")
    parser.add_argument("--gzip", action="store_true", help="write the ranks gzip-compressed")
    parser.add_argument("--dask", action="store_true", help="analyze with --dask local instead of the local pool")
    parser.add_argument("--hta-python", help="an interpreter that has HolisticTraceAnalysis (HTA) installed")
    parser.add_argument("--merge-ranks", type=int, default=MERGE_RANKS)
    parser.add_argument("--tmp", type=Path, default=Path(tempfile.gettempdir()), help="where to build the job")
    add_options(parser, RESULTS)
    args = parser.parse_args()
    ranks, events = (TINY["ranks"], TINY["events"]) if args.tiny else (args.ranks, args.events)
    repeats = max_repeats(args, default=3)
    with tempfile.TemporaryDirectory(dir=args.tmp, prefix="many-ranks-") as where:
        folder = Path(where)
        begin = time.perf_counter()
        files, per_rank = build_job(folder, ranks, events, args.gzip)
        size = sum(file.stat().st_size for file in files)
        print(f"built {ranks} ranks of {per_rank} events, {size / 1e9:.2f} GB, in {time.perf_counter() - begin:.0f} s")
        timings, peaks = compare(folder, files, args.dask, repeats)
        merged = merge(files, TINY["merge"] if args.tiny else args.merge_ranks, repeats)
        hta = hta_side_by_side(args.hta_python, folder, files, args.dask)
    report(args, load, {"ranks": ranks, "events_per_rank": per_rank, "bytes": size}, timings, peaks, merged, hta)


def report(args: argparse.Namespace, load: LoadWatch, job: dict[str, Any], timings: dict[str, Any],
           peaks: dict[str, Any], merged: dict[str, Any], hta: dict[str, Any]) -> None:  # fmt: skip
    """Print the figures against their goals and write the result."""
    ratio = timings["analyze_s"]["median"] / timings["json_load_s"]["median"]
    print(
        f"overlapviz analyze: {timings['analyze_s']['median']:.1f} s, json.load one after another:"
        f" {timings['json_load_s']['median']:.1f} s, ratio {ratio:.2f} (goal <= {GOALS['analyze_over_json_load']})"
    )
    print(
        f"peak RSS: parent {peaks['parent'] / 1e6:.0f} MB (goal < {GOALS['parent_peak_bytes'] / 1e6:.0f}),"
        f" a worker {peaks['worker'] / 1e6:.0f} MB (goal < {GOALS['worker_peak_bytes'] / 1e6:.0f}),"
        f" json.load {peaks['json_load'] / 1e6:.0f} MB"
    )
    print(
        f"merge of {merged['ranks']} ranks: reduce {merged['reduce_s']['median']:.2f} s,"
        f" report {merged['report_s']['median']:.2f} s (goal < {GOALS['merge_s']:.0f} s)"
    )
    print(f"HTA: {json.dumps(hta)}")
    result = {
        "what": "overlapviz analyze DIR --json of a job of ranks built from two real ranks, against json.load of"
        " its files one after another, in fresh processes; the merge of many ranks' summaries; HTA beside it",
        "job": job, "gzip": args.gzip, "map": "dask local" if args.dask else "local pool", **timings,
        "analyze_over_json_load": round(ratio, 3), "peak_rss_bytes": peaks, "merge": merged, "hta": hta,
        "goals": GOALS,
    }  # fmt: skip
    write_result("many_ranks", result, args.out, load=load)


if __name__ == "__main__":
    main()
