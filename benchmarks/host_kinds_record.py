"""The host-memory benchmark's settings and its record: one JSON file, rewritten after every measurement.

Nothing here needs a GPU. A measurement is a function that returns a JSON-ready value (a list
of flat rows prints as a table); `Part.measure` runs it, keeps what it returned or the error
it raised, and rewrites the file, so a run stopped by a time limit keeps everything that
finished. Past the time budget a measurement is not started and is recorded as skipped.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.machine import RESULTS, write_result
from overlapviz.core.config import PipelineConfig

KIB = 1024
MIB = 1024 * KIB
RESULT_NAME = "h200_host_kinds"
METHOD = (
    "CuPy on device 0. Copies, prefetches and kernels: CUDA events around the op on an idle"
    " non-blocking stream; pipelines: host clock from the first issuing call to the end of"
    " cudaDeviceSynchronize (wall_ms), time inside the issuing calls (issue_ms), and events from"
    " before the first op to each stream's end (makespan_ms); host reads and copies: perf_counter."
    " Medians of the timed runs after warm-up runs. Pipeline outputs are checked on a sample against"
    " a host reference (overlapviz.backends.cupy.output_check)."
)


@dataclass(frozen=True, slots=True)
class Settings:
    """How much to measure: sizes, repeats and the time budget."""

    quick: bool
    repeats: int  # timed runs of each pipeline, copy or kernel
    warm_ups: int  # runs before them, not kept
    copy_sizes: tuple[int, ...]  # H2D and D2H sweep of pageable, pinned and write-combined memory
    host_sizes: tuple[int, ...]  # host reads and writes of each kind
    kernel_sizes: tuple[int, ...]  # zero-copy kernel sweep
    chunk_sizes: tuple[int, ...]  # host memcpy pageable <-> pinned, per chunk
    ring_slots: tuple[int, ...]  # staging ring sizes
    graph_chunks: tuple[int, ...]  # chunk counts of the CUDA Graph comparison
    pipeline_bytes: int  # size of every pipeline (the app's default, 256 MiB; small only in tests)
    host_op_limit_s: float  # a host read predicted to take longer (slow write-combined reads) is skipped
    budget_s: float  # no measurement starts after this many seconds

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def pipeline(self, **changes: Any) -> PipelineConfig:
        """The app's default pipeline (4 streams x 16 chunks, FMA x1860) of `pipeline_bytes`, with `changes`."""
        return PipelineConfig(size_bytes=self.pipeline_bytes).replace(**changes)


_SWEEP = tuple(4 * KIB * 4**i for i in range(9))  # 4 KiB, 16 KiB, ... 256 MiB
DEFAULT = Settings(
    quick=False, repeats=7, warm_ups=3, copy_sizes=_SWEEP, host_sizes=(MIB, 16 * MIB, 64 * MIB, 256 * MIB),
    kernel_sizes=_SWEEP, chunk_sizes=(64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB, 64 * MIB),
    ring_slots=(2, 4, 8), graph_chunks=(16, 64, 256, 1024), pipeline_bytes=256 * MIB, host_op_limit_s=3.0,
    budget_s=420.0,
)  # fmt: skip
QUICK = Settings(
    quick=True, repeats=3, warm_ups=1, copy_sizes=(4 * KIB, MIB, 16 * MIB, 256 * MIB),
    host_sizes=(MIB, 64 * MIB), kernel_sizes=(4 * KIB, MIB, 256 * MIB), chunk_sizes=(MIB, 16 * MIB),
    ring_slots=(2, 4), graph_chunks=(64, 256), pipeline_bytes=256 * MIB, host_op_limit_s=1.0, budget_s=120.0,
)  # fmt: skip


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


class Recorder:
    """The result being built, written to ``<out>/h200_host_kinds.json`` after every change."""

    def __init__(
        self,
        settings: Settings,
        out: Path = RESULTS,
        clock: Callable[[], float] = time.monotonic,
        write: Callable[..., Path] = write_result,
    ) -> None:
        self.settings = settings
        self.out = out
        self.clock = clock
        self.started = clock()
        self._write = write
        self.result: dict[str, Any] = {
            "what": "every kind of host memory on the GPU machine: write-combined, mapped, managed,"
            " a pinned staging ring, CUDA Graphs",
            "method": METHOD,
            "settings": settings.to_dict(),
            "device": {},
            "parts": {},
            "errors": {},
            "skipped": [],
            "complete": False,
        }

    def elapsed_s(self) -> float:
        return self.clock() - self.started

    def over_budget(self) -> bool:
        return self.elapsed_s() > self.settings.budget_s

    def save(self, announce: bool = False) -> Path:
        self.result["elapsed_s"] = round(self.elapsed_s(), 1)
        return self._write(RESULT_NAME, plain(self.result), directory=self.out, announce=announce)

    def fail(self, where: str, error: BaseException) -> dict[str, str]:
        """Record an error (its last line in the summary, the traceback with it) and save."""
        message = f"{type(error).__name__}: {error}"
        self.result["errors"][where] = message
        log(f"{where} FAILED: {message}")
        return {"error": message, "traceback": "".join(traceback.format_exception(error))}

    def run_part(self, name: str, work: Callable[[Part], None]) -> None:
        """Run one part; an error outside its measurements is recorded under the part."""
        part = Part(self, name)
        log(f"== {name}")
        begin = self.clock()
        try:
            work(part)
        except Exception as error:
            part.section["error"] = self.fail(name, error)
        part.section["seconds"] = round(self.clock() - begin, 1)
        self.save()

    def finish(self) -> Path:
        self.result["complete"] = True
        return self.save(announce=True)


class Part:
    """One part's section of the result: its measurements by label."""

    def __init__(self, recorder: Recorder, name: str) -> None:
        self.recorder = recorder
        self.name = name
        self.section: dict[str, Any] = recorder.result["parts"].setdefault(name, {})

    def measure(self, label: str, work: Callable[[], Any]) -> Any:
        """Run `work` and keep its value under `label`; None if it failed or was skipped."""
        recorder = self.recorder
        where = f"{self.name}/{label}"
        if recorder.over_budget():
            self.section[label] = {"skipped": f"the time budget of {recorder.settings.budget_s:g} s was spent"}
            recorder.result["skipped"].append(where)
            recorder.save()
            return None
        begin = recorder.clock()
        try:
            value = work()
        except Exception as error:
            self.section[label] = recorder.fail(where, error)
            recorder.save()
            return None
        self.section[label] = value
        recorder.save()
        log(f"{where} done in {recorder.clock() - begin:.1f} s")
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
            print_table(where, value)
        return value


def plain(value: Any) -> Any:
    """`value` with numpy scalars made Python numbers and tuples lists, for ``json.dumps``."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 1) == 0:
        return value.item()  # a numpy scalar
    return value


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def print_table(title: str, rows: Sequence[dict[str, Any]]) -> None:
    """Rows as aligned columns: every key holding a single value, in the order first seen."""
    columns: list[str] = []
    for row in rows:
        columns += [k for k, v in row.items() if k not in columns and not isinstance(v, list | dict)]
    cells = [[_cell(row.get(c, "")) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    print(f"-- {title}")
    print("  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True)))
    for row_cells in cells:
        print("  ".join(v.rjust(w)[:120] for v, w in zip(row_cells, widths, strict=True)))
