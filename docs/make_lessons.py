"""Write docs/lessons.md from the lessons as the GPU model runs them.

Every number on the page comes from running the lesson presets (``assets/presets/*.toml`` with
a ``lesson`` number) on the simulated backend, each side on its own device, the way
``overlapviz run --preset NAME --backend sim`` runs them. The words around the numbers are
here; where a sentence states an effect (one side is faster, a finding fires, nothing
overlaps), the script checks the model still shows it and stops with `LessonsPageError`,
naming the lesson and the sentence, when it does not.

Run from the repository root:

    python -m docs.make_lessons           # rewrite docs/lessons.md
    python -m docs.make_lessons --check   # exit 1 when docs/lessons.md is out of date

``tests/test_lessons_doc.py`` fails while docs/lessons.md differs from what this writes, so a
change of the model that moves a number shows up until the page is written again.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from overlapviz.backends.base import BandwidthPoint
from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.analysis.metrics import Metrics, allocation_calls, covered_total_ns
from overlapviz.core.config import GIB, GpuLayout, HostMemory, IssueOrder, PipelineConfig, StreamKind, format_size
from overlapviz.core.config.pinning import DEFAULT_PINNED_SHARE, PINNED_SHARE_ENV, gib
from overlapviz.core.config.pipeline_plan import HOST_READ_NAME
from overlapviz.core.files.atomic_write import atomic_write_text
from overlapviz.core.findings import Finding
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind, Trace
from overlapviz.presets import Preset, lessons
from overlapviz.session import RunResult, run_pipeline

PAGE = Path(__file__).resolve().parent / "lessons.md"
COMMAND = "python -m docs.make_lessons"
BACKEND = "sim"
H200 = "h200"
WIDTH = 92  # prose is wrapped to this many characters, as in the other pages
MINUS = "\N{MINUS SIGN}"
DIFF_LINES = 40  # how much of the difference a stale-page message shows
_GLUE = "\x00"  # stands for a space that must not become a line break
_CODE_SPAN = re.compile(r"`[^`]*`")
_NUMBER_UNIT = re.compile(r"\d (?:ms|µs|GiB|MiB|KiB|GB/s)\b")
_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}
# Mark Harris, "How to Overlap Data Transfers in CUDA C/C++" (NVIDIA Developer Blog, 2012):
# the measured V1 (depth) and V2 (breadth) times, ms.
HARRIS_MS = {"order-c1060": (13.64, 8.85), "order-c2050": (5.74, 7.60), "order-k20c": (3.97, 3.97)}


class LessonsPageError(RuntimeError):
    """The page cannot be written as it stands.

    A sentence states what the model no longer shows, or a lesson has no section (or a section
    no lesson); the message says which.
    """


# --- running the lessons -------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a lesson: its label and device, and the run, or why the run was refused."""

    lesson: str
    label: str
    device: str | None
    config: PipelineConfig
    result: RunResult | None
    refusal: str | None = None  # the backend's message when it refused to run

    @property
    def run(self) -> RunResult:
        """The run's result; `LessonsPageError` when the backend refused it."""
        if self.result is None:
            raise LessonsPageError(f"lesson {self.lesson}, {self.label}: the model refused to run it: {self.refusal}")
        return self.result

    @property
    def metrics(self) -> Metrics:
        """The run's metrics."""
        return self.run.metrics

    @property
    def trace(self) -> Trace:
        """The run's trace."""
        return self.run.trace

    @property
    def codes(self) -> list[str]:
        """The codes of the run's findings, in rule order, each once."""
        return list(dict.fromkeys(finding.code for finding in self.run.findings))

    def finding(self, code: str) -> Finding:
        """The run's first finding with `code`; `LessonsPageError` when there is none."""
        for finding in self.run.findings:
            if finding.code == code:
                return finding
        raise LessonsPageError(f"lesson {self.lesson}, {self.label}: the page quotes the {code!r} finding,"
                               f" but the model's run has only {self.codes or 'none'}")


@dataclass(frozen=True)
class Lesson:
    """A lesson preset and its sides, run on the model."""

    preset: Preset
    sides: tuple[Side, ...]

    @property
    def name(self) -> str:
        """The preset's name."""
        return self.preset.name


@dataclass(frozen=True)
class Model:
    """What the page is made from: every lesson run, the H200 profile and its bandwidth sweep."""

    lessons: tuple[Lesson, ...]
    h200: DeviceProfile
    sweep: tuple[BandwidthPoint, ...]

    def __getitem__(self, name: str) -> Lesson:
        """The lesson called `name`."""
        for lesson in self.lessons:
            if lesson.name == name:
                return lesson
        raise LessonsPageError(f"the page speaks of the lesson {name!r}, but no preset is that lesson")

    def rate(self, size: int, memory: str, direction: str) -> float:
        """The sweep's bandwidth (GB/s) for one copy of `size` bytes."""
        for point in self.sweep:
            if (point["size"], point["memory"], point["direction"]) == (size, memory, direction):
                return point["gbps"]
        raise LessonsPageError(f"the bandwidth sweep has no {format_size(size)} {memory} {direction} copy")


def run_lesson(preset: Preset) -> Lesson:
    """Run every side of `preset` on the model, each on its own device."""
    sides = []
    for config, label, device in zip(preset.configs, preset.labels, preset.devices, strict=True):
        try:
            sides.append(Side(preset.name, label, device, config, run_pipeline(config, BACKEND, device)))
        except BackendError as error:
            sides.append(Side(preset.name, label, device, config, None, str(error)))
    return Lesson(preset, tuple(sides))


@contextlib.contextmanager
def default_pinned_share() -> Iterator[None]:
    """Run with the RAM guard's default share: the page documents that one, not the caller's setting."""
    saved = os.environ.pop(PINNED_SHARE_ENV, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[PINNED_SHARE_ENV] = saved


def run_model() -> Model:
    """Run every lesson on the model and sweep the H200's copy bandwidth."""
    backend = create_backend()
    with default_pinned_share():
        ran = tuple(run_lesson(preset) for preset in lessons())
    return Model(ran, backend.profile(H200), tuple(backend.bandwidth_sweep(device=H200)))


# --- formatting ----------------------------------------------------------------------------


def signed(text: str) -> str:
    """`text` with a typographic minus sign in place of a leading hyphen."""
    return MINUS + text[1:] if text.startswith("-") else text


def ms(ns: float, unit: bool = True) -> str:
    """Milliseconds with two decimals (``62.18 ms``); exactly zero is ``0``."""
    if ns == 0:
        return "0"
    return signed(f"{ns / 1e6:.2f}") + (" ms" if unit else "")


def short_ms(ns: float) -> str:
    """Milliseconds as the findings write them: two decimals below 10 ms, one from 10 ms up."""
    value = ns / 1e6
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"


def us(ns: float) -> str:
    """Microseconds with one decimal."""
    return f"{ns / 1e3:.1f}"


def gbps(value: float | None) -> str:
    """GB/s with one decimal; a dash for no copies."""
    return "–" if value is None else f"{value:.1f}"


def pct(value: float | None) -> str:
    """A share in whole percent; a dash where it has no value (copy time hidden without copies)."""
    return "–" if value is None else f"{value:.0f}%"


def share(part: float, whole: float) -> str:
    """`part` as a whole percentage of `whole`."""
    return f"{100 * part / whole:.0f}%"


def times(ratio: float) -> str:
    """A ratio with one decimal: ``11.4``."""
    return f"{ratio:.1f}"


def findings(side: Side) -> str:
    """The side's finding codes, the copy-queue ones with their directions; ``none`` without any."""
    details: dict[str, list[str]] = {}
    for finding in side.run.findings:
        detail = details.setdefault(finding.code, [])
        if finding.code == "copy-queue" and len(finding.rows):
            detail.append(OpKind(int(side.trace["kind"][finding.rows[0]])).name)
    parts = [f"`{code}`" + (f" ({' and '.join(detail)})" if detail else "") for code, detail in details.items()]
    return ", ".join(parts) or "none"


def busy_pair(side: Side, *keys: str) -> str:
    """Busy times of `keys`, ``5.34 / 5.34 ms``."""
    return " / ".join(ms(side.metrics.busy_ns[key], unit=False) for key in keys) + " ms"


def rate_pair(side: Side) -> str:
    """H2D / D2H bandwidth, ``50.6 / 50.6 GB/s``."""
    rates = side.metrics.bandwidth_gbps
    return f"{gbps(rates['h2d'])} / {gbps(rates['d2h'])} GB/s"


def each_way(h2d: float, d2h: float) -> str:
    """``55.2 GB/s each way`` when both directions show the same, else ``55.2 / 55.3 GB/s``."""
    return f"{gbps(h2d)} GB/s each way" if gbps(h2d) == gbps(d2h) else f"{gbps(h2d)} / {gbps(d2h)} GB/s"


def host_calls(side: Side, name: str) -> list[int]:
    """Durations (ns) of the side's host calls called `name`, in trace order."""
    trace = side.trace
    return [int(trace.duration_ns[row]) for row in range(len(trace))
            if trace["kind"][row] == OpKind.API and trace.name_of(row) == name]


def call_time(side: Side, name: str, format_ns: Callable[[float], str] = short_ms) -> str:
    """How long each `name` call took: ``43.0`` when all took the same, else the range."""
    durations = host_calls(side, name)
    if not durations:
        raise LessonsPageError(f"lesson {side.lesson}, {side.label}: the page speaks of {name} calls,"
                               " and the run has none")
    low, high = format_ns(min(durations)), format_ns(max(durations))
    return low if low == high else f"{low} to {high}"


def alloc_calls(side: Side) -> str:
    """The side's allocation calls by name: ``malloc 2 × 0.06, first touch 2 × 43.0 ms``."""
    trace = side.trace
    names = list(dict.fromkeys(trace.name_of(int(row)) for row in allocation_calls(trace).nonzero()[0]))
    parts = []
    for name in names:
        shown = name if name == "first touch" else f"`{name}`"
        parts.append(f"{shown} {len(host_calls(side, name))} × {call_time(side, name)}")
    return ", ".join(parts) + " ms" if parts else "none"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table; the first column has no heading (it holds the side labels)."""
    lines = ["| | " + " | ".join(header) + " |", "|" + "---|" * (len(header) + 1)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def side_table(lesson: Lesson, columns: Mapping[str, Callable[[Side], str]]) -> str:
    """A table with one row per side of `lesson` and one column per entry of `columns`."""
    rows = [[side.label, *(cell(side) for cell in columns.values())] for side in lesson.sides]
    return table(list(columns), rows)


def wrap(text: str, prefix: str = "") -> str:
    """`text` as one paragraph wrapped to `WIDTH`, each line starting with `prefix`.

    Lines never break inside a code span nor between a number and its unit.
    """
    joined = " ".join(text.split())
    joined = _CODE_SPAN.sub(lambda match: match.group().replace(" ", _GLUE), joined)
    joined = _NUMBER_UNIT.sub(lambda match: match.group().replace(" ", _GLUE), joined)
    lines = textwrap.wrap(joined, WIDTH, initial_indent=prefix, subsequent_indent=prefix,
                          break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines).replace(_GLUE, " ")


def para(text: str) -> str:
    """One paragraph of prose, wrapped."""
    return wrap(text)


def quote(finding: Finding) -> str:
    """A finding's message as a block quote."""
    return wrap(finding.message, "> ")


def claim(holds: bool, lesson: str, sentence: str) -> None:
    """Stop when the model no longer shows what a sentence of the page says.

    Raises
    ------
    LessonsPageError
        `holds` is false; the message names the lesson and the sentence to rewrite.
    """
    if not holds:
        raise LessonsPageError(f"lesson {lesson}: the page says {sentence!r}, but the model no longer shows it;"
                               " rewrite that sentence in docs/make_lessons.py")


# --- the page ------------------------------------------------------------------------------

INTRO = """\
# Lessons

The lessons are presets (`assets/presets/*.toml`, format in [presets.md](presets.md)) with a
`lesson` number: the app's lesson menu and presentation mode step through them in that
order, and the command line runs any of them:

```
overlapviz presets --lessons            # the lessons, in order
overlapviz run --preset NAME            # run one (both sides of a comparison)
overlapviz run --preset NAME --json     # the numbers, as JSON
```
"""

SOURCES = """
The sources of the model's numbers are in the profiles (`overlapviz/backends/sim/profiles/`):
copy rates from `shared/reference/h200/bandwidth.json`, allocation costs from
`shared/reference/h200/alloc.json` and `benchmarks/results/h200_alloc.json`, the host's RAM
from `shared/reference/h200/device.json`."""


def intro(model: Model) -> str:
    """The page's opening: what the lessons are and where the numbers come from."""
    default = PipelineConfig()
    claim(default.memory is HostMemory.PINNED and default.order is IssueOrder.DEPTH
          and default.stream_kind is StreamKind.NONBLOCKING, "(all)",
          "the default pipeline is pinned memory, depth order, non-blocking streams")
    on_model_only = [lesson.name for lesson in model.lessons
                     if lesson.preset.backend is not None or any(lesson.preset.devices)]
    claim(on_model_only == ["copy-engines-both-ways", "order-c1060", "order-c2050", "order-k20c", "pin-too-much",
                            "peer-access-on-vs-off", "nvlink-vs-through-the-host", "two-gpus-one-host-buffer"],
          "(all)", "the Tesla, copy-engine, RAM-guard and two-GPU lessons, and only they, name their device")
    return "\n\n".join([
        INTRO.strip("\n"),
        para(f"""Each lesson is one claim that a user can watch happen. Lessons about the H200 name no
        device, so they run on the real GPU where there is one and on the `h200` model where there is
        none; the Tesla lessons, the copy-engine lesson (it needs a what-if machine), the RAM-guard
        lesson (it depends on the host's RAM) and the two-GPU lessons (the real backend runs one GPU)
        name their simulated device. Every number below is from
        the model: `{COMMAND}` runs each lesson on the simulated backend (`overlapviz run --preset NAME
        --backend sim --json` gives the same numbers) and writes this page, `tests/test_lessons_doc.py`
        fails while the page differs from what the model gives, and `tests/test_presets.py` checks the
        effect each lesson claims. All lessons except the Tesla ones use the default pipeline unless they
        say otherwise: {format_size(default.size_bytes)} of float32 in {default.chunks} chunks on
        {default.streams} non-blocking streams, pinned memory, depth order, {default.iters} FMA
        iterations per element."""),
    ])


def claims_table(model: Model) -> str:
    """The pinned-memory claims, where each is shown, and what the user sees there."""
    one = model["copy-pinned-vs-pageable"]
    pageable, pinned = one.sides
    overlap_lesson = model["overlap-pinned-vs-pageable"]
    slow, fast = overlap_lesson.sides
    malloc, mallochost = model["alloc-cudamallochost-vs-malloc"].sides
    (guarded,) = model["pin-too-much"].sides
    h200 = model.h200
    gib_1 = GIB
    pin_rates = (model.rate(gib_1, "pinned", "h2d"), model.rate(gib_1, "pinned", "d2h"))
    page_rates = (model.rate(gib_1, "pageable", "h2d"), model.rate(gib_1, "pageable", "d2h"))
    pinned_h2d = pinned.metrics.bandwidth_gbps["h2d"] or 0.0
    frees = host_calls(mallochost, "cudaFreeHost")
    sync_end = _final_sync_end(mallochost)
    free_starts = [int(mallochost.trace["start_ns"][row]) for row in _rows_named(mallochost, "cudaFreeHost")]
    claim(bool(free_starts) and all(start >= sync_end for start in free_starts), mallochost.lesson,
          "the cudaFreeHost spans come after the final synchronize")
    claim("cudaFreeHost" in mallochost.finding("alloc-per-run").message, mallochost.lesson,
          "the alloc-per-run finding says to free pinned buffers with cudaFreeHost")
    claim(guarded.refusal is not None, guarded.lesson, "the run is refused with the reason")
    size = guarded.config.size_bytes
    rows = [
        ["`cudaMallocHost` pins host pages, so the GPU copies them directly (DMA), with no hidden staging copy",
         "`copy-pinned-vs-pageable`, `overlap-pinned-vs-pageable`",
         f"pageable: the host thread sits inside `cudaMemcpyAsync` for the whole copy"
         f" ({short_ms(pageable.metrics.host_blocked_ns)} of {short_ms(pageable.metrics.makespan_ns)} ms)"
         f" while the driver stages the data, at {rate_pair(pageable)}; pinned: the call returns after"
         f" {call_time(pinned, 'cudaMemcpyAsync', us)} µs and the copy runs at"
         f" {each_way(pinned.metrics.bandwidth_gbps['h2d'] or 0.0, pinned.metrics.bandwidth_gbps['d2h'] or 0.0)}"],
        ["Pinned copies run near the link's peak", "`copy-pinned-vs-pageable`; `overlapviz bandwidth`",
         f"{each_way(pinned_h2d, pinned.metrics.bandwidth_gbps['d2h'] or 0.0)} for one"
         f" {format_size(pinned.config.size_bytes)} copy, {share(pinned_h2d, h200.link_peak_gbps)} of"
         f" {h200.link}'s {h200.link_peak_gbps:g} GB/s; the bandwidth table: {each_way(*pin_rates)} at"
         f" {format_size(gib_1)}, against {gbps(page_rates[0])} / {gbps(page_rates[1])} GB/s pageable"],
        ["Only pinned memory lets `cudaMemcpyAsync` overlap with kernels",
         "`overlap-pinned-vs-pageable` (also `fresh-output-page-faults`, `alloc-cudamallochost-vs-malloc`)",
         f"pageable: copy time hidden {pct(slow.metrics.copy_hidden_pct)}, {ms(slow.metrics.makespan_ns)}, the"
         f" host blocked {ms(slow.metrics.host_blocked_ns)}; pinned: copy time hidden"
         f" {pct(fast.metrics.copy_hidden_pct)},"
         f" {ms(fast.metrics.makespan_ns)}"],
        ["Pinning costs allocation time", "`alloc-cudamallochost-vs-malloc`, `alloc-once-and-reuse`",
         f"`cudaMallocHost` of {format_size(mallochost.config.size_bytes)}: {call_time(mallochost, 'cudaMallocHost')}"
         f" ms, against {short_ms(_malloc_and_touch_ns(malloc))} ms for `malloc` and the first touch; per run,"
         f" the pinned program waits {ms(mallochost.metrics.wall_ns)} for a {ms(mallochost.metrics.makespan_ns)}"
         " pipeline"],
        ["Pinning costs real RAM",
         "`pin-too-much` (also `alloc-cudamallochost-vs-malloc`: `cudaMallocHost` pins every page before it"
         " returns)",
         f"a {gib(size)} pinned pipeline would pin {gib(2 * size)} of the H200 host's {gib(h200.host_ram_bytes)};"
         " the run is refused with the reason"],
        ["Free pinned memory with `cudaFreeHost`", "`alloc-cudamallochost-vs-malloc`, `alloc-once-and-reuse`",
         f"{_COUNT_WORDS.get(len(frees), str(len(frees)))} `cudaFreeHost` spans"
         f" ({call_time(mallochost, 'cudaFreeHost')} ms each) on the host lane"
         " after the final synchronize; the `alloc-per-run` finding says to free pinned buffers with"
         " `cudaFreeHost`"],
    ]
    head = "| claim | lessons that show it | what the user sees |\n|---|---|---|\n"
    return "## The claims about pinned memory, and where each is shown\n\n" + head + "\n".join(
        "| " + " | ".join(row) + " |" for row in rows) + "\n" + SOURCES


def _rows_named(side: Side, name: str) -> list[int]:
    trace = side.trace
    return [row for row in range(len(trace)) if trace["kind"][row] == OpKind.API and trace.name_of(row) == name]


def _final_sync_end(side: Side) -> int:
    rows = _rows_named(side, "cudaDeviceSynchronize")
    if not rows:
        raise LessonsPageError(f"lesson {side.lesson}, {side.label}: the run has no final synchronize")
    return int(side.trace["end_ns"][rows[-1]])


def _malloc_and_touch_ns(side: Side) -> int:
    """One pageable buffer's malloc and first touch, as the run paid them."""
    return host_calls(side, "malloc")[0] + host_calls(side, "first touch")[0]


# --- one section per lesson ------------------------------------------------------------------

Section = Callable[[Lesson, Model], list[str]]
SECTIONS: dict[str, Section] = {}


def section(name: str) -> Callable[[Section], Section]:
    """Register the function that writes lesson `name`'s section (its paragraphs and tables)."""
    def register(write: Section) -> Section:
        SECTIONS[name] = write
        return write
    return register


def _both(lesson: Lesson) -> tuple[Side, Side]:
    first, second = lesson.sides
    return first, second


@section("copy-pinned-vs-pageable")
def _copy_pinned_vs_pageable(lesson: Lesson, model: Model) -> list[str]:
    pageable, pinned = _both(lesson)
    claim(pageable.metrics.host_blocked_ns >= 0.99 * pageable.metrics.makespan_ns, lesson.name,
          "the host waits in the call")
    claim(pinned.metrics.host_blocked_ns == 0, lesson.name, "from pinned memory the host does not wait")
    return [
        para("""**Claim.** From pageable memory the driver stages every copy through its own pinned buffer
        and the host waits in the call; from pinned memory the GPU reads and writes the buffer
        directly, near the link's peak. One 256 MiB copy in and one out (1 chunk, 1 stream,
        `iters = 0`: nothing to overlap)."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "host blocked": lambda s: ms(s.metrics.host_blocked_ns),
            "H2D": lambda s: f"{ms(s.metrics.busy_ns['h2d'])}, {gbps(s.metrics.bandwidth_gbps['h2d'])} GB/s",
            "D2H": lambda s: f"{ms(s.metrics.busy_ns['d2h'])}, {gbps(s.metrics.bandwidth_gbps['d2h'])} GB/s",
            "findings": findings,
        }),
        para(f"""Each pinned `cudaMemcpyAsync` call takes {call_time(pinned, 'cudaMemcpyAsync', us)} µs. The
        link's limit is {model.h200.link_peak_gbps:g} GB/s per direction."""),
    ]


@section("overlap-pinned-vs-pageable")
def _overlap_needs_pinned(lesson: Lesson, model: Model) -> list[str]:
    pageable, pinned = _both(lesson)
    alone = model.rate(pinned.config.size_bytes, "pinned", "h2d")
    together = pinned.metrics.bandwidth_gbps["h2d"] or 0.0
    claim((pageable.metrics.copy_hidden_pct or 0.0) < 5, lesson.name, "with pageable memory nothing overlaps")
    claim(gbps(together) != gbps(alone) and together < alone, lesson.name,
          "pinned copies run slower here than alone, because both directions share the link")
    return [
        para("""**Claim.** With pageable memory nothing overlaps: each copy call holds the host thread, so
        the next chunk is not even issued."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "serial": lambda s: ms(s.metrics.serial_ns),
            "copy time hidden": lambda s: pct(s.metrics.copy_hidden_pct),
            "host blocked": lambda s: ms(s.metrics.host_blocked_ns),
            "bandwidth H2D / D2H": rate_pair,
            "findings": findings,
        }),
        para(f"""Pageable is {times(pageable.metrics.makespan_ns / pinned.metrics.makespan_ns)} times slower.
        (Pinned copies run at {gbps(together)} GB/s here, not the {gbps(alone)} GB/s of one
        {format_size(pinned.config.size_bytes)} copy alone, because both directions copy at once and
        share the link.)"""),
    ]


@section("streams-one-vs-four")
def _streams(lesson: Lesson, model: Model) -> list[str]:
    one, four = _both(lesson)
    claim("single-stream" in one.codes and one.metrics.makespan_ns >= 0.99 * one.metrics.serial_ns, lesson.name,
          "on one stream every op waits for the one before it")
    claim((four.metrics.copy_hidden_pct or 0.0) > 80, lesson.name, "on four streams copies and kernels overlap")
    return [
        para("**Claim.** On one stream every op waits for the one before it."),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "serial": lambda s: ms(s.metrics.serial_ns),
            "copy time hidden": lambda s: pct(s.metrics.copy_hidden_pct),
            "findings": findings,
        }),
    ]


@section("chunks-too-few")
def _too_few(lesson: Lesson, model: Model) -> list[str]:
    few, enough = _both(lesson)
    claim("too-few-chunks" not in enough.codes, lesson.name, "16 chunks do not fill and drain too long")
    return [
        para("""**Claim.** With few chunks, filling and draining the pipeline dominate: the first H2D copy
        and the last D2H copy run with nothing beside them."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "efficiency": lambda s: pct(s.metrics.efficiency_pct),
            "best for this chunking": lambda s: ms(s.metrics.chunking_bound_ns),
            "findings": findings,
        }),
        f"The `too-few-chunks` finding for {few.label}:",
        quote(few.finding("too-few-chunks")),
    ]


@section("chunks-too-many")
def _too_many(lesson: Lesson, model: Model) -> list[str]:
    enough, many = _both(lesson)
    claim("too-many-chunks" not in enough.codes, lesson.name, "16 chunks are not too many")
    claim(many.metrics.host_issue_ns > 0.5 * many.metrics.makespan_ns, lesson.name, "the host sets the pace")
    claim((many.metrics.bandwidth_gbps["h2d"] or 0.0) < (enough.metrics.bandwidth_gbps["h2d"] or 0.0), lesson.name,
          "small copies run slower")
    return [
        para("""**Claim.** Every chunk costs the host API calls; with many tiny chunks the host sets the
        pace and the GPU waits for work, and small copies run slower."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "efficiency": lambda s: pct(s.metrics.efficiency_pct),
            "host issue": lambda s: f"{ms(s.metrics.host_issue_ns)}"
            f" ({share(s.metrics.host_issue_ns, s.metrics.makespan_ns)})",
            "bandwidth H2D / D2H": rate_pair,
            "findings": findings,
        }),
        para(f"""Host issue is the host's time in the calls that issue copies and kernels
        (`cudaMemcpyAsync` {call_time(many, 'cudaMemcpyAsync', us)} µs, `cuLaunchKernel`
        {call_time(many, 'cuLaunchKernel', us)} µs) and in the caller's own code between them. The
        `too-many-chunks` finding for {many.label}:"""),
        quote(many.finding("too-many-chunks")),
    ]


@section("legacy-default-stream")
def _legacy(lesson: Lesson, model: Model) -> list[str]:
    legacy, nonblocking = _both(lesson)
    claim("legacy default stream" in legacy.finding("single-stream").message, lesson.name,
          "the single-stream finding names the legacy default stream")
    claim("single-stream" not in nonblocking.codes, lesson.name, "non-blocking streams do not serialise")
    return [
        para("**Claim.** Every op on the legacy default stream serialises the pipeline."),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "serial": lambda s: ms(s.metrics.serial_ns),
            "copy time hidden": lambda s: pct(s.metrics.copy_hidden_pct),
            "findings": findings,
        }),
        "The `single-stream` finding names the legacy default stream:",
        quote(legacy.finding("single-stream")),
    ]


@section("copy-vs-kernel-bound")
def _bound(lesson: Lesson, model: Model) -> list[str]:
    copies, kernels = _both(lesson)
    claim("copy-bound" in copies.codes and "kernel-bound" in kernels.codes, lesson.name,
          "no kernel work is copy-bound, 8000 iterations kernel-bound")

    def busiest(side: Side) -> str:
        use = side.metrics.utilisation
        if use["kernel"] > max(use["h2d"], use["d2h"]):
            return f"compute {share(use['kernel'], 1)} busy"
        return f"copy engines {share(max(use['h2d'], use['d2h']), 1)} busy"

    return [
        para("**Claim.** Whichever stage is busiest sets the pace; speeding up the others does nothing."),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy H2D / kernel / D2H": lambda s: f"{busy_pair(s, 'h2d', 'kernel', 'd2h')} ({busiest(s)})",
            "findings": findings,
        }),
    ]


def both_ways_at_once(trace: Trace) -> bool:
    """Whether any H2D copy ran while a D2H copy ran."""
    h2d, d2h = trace.mask(OpKind.H2D), trace.mask(OpKind.D2H)
    d2h_start, d2h_end = trace["start_ns"][d2h], trace["end_ns"][d2h]
    return any(((d2h_start < end) & (d2h_end > start)).any()
               for start, end in zip(trace["start_ns"][h2d], trace["end_ns"][h2d], strict=True))


def what_if_differences(base: DeviceProfile, what_if: DeviceProfile) -> list[str]:
    """The model numbers in which `what_if` differs from `base` (its name and words aside)."""
    skip = {"key", "name", "summary"}
    return [f.name for f in dataclasses.fields(DeviceProfile)
            if f.name not in skip and getattr(base, f.name) != getattr(what_if, f.name)]


@section("copy-engines-both-ways")
def _copy_engines(lesson: Lesson, model: Model) -> list[str]:
    three, one = _both(lesson)
    backend = create_backend()
    one_device = one.device or H200
    claim(what_if_differences(backend.profile(three.device), backend.profile(one_device)) == ["copy_engines"],
          lesson.name, f"{one_device} is the h200 profile with copy_engines = 1 and nothing else changed")
    claim(both_ways_at_once(three.trace) and not both_ways_at_once(one.trace), lesson.name,
          "with one engine per direction the copies run at the same time; with one engine they take turns")
    busy = one.metrics.busy_ns
    claim(abs(one.metrics.makespan_ns - busy["h2d"] - busy["d2h"]) <= 0.01 * one.metrics.makespan_ns, lesson.name,
          "with one engine the makespan is the two directions' busy times added up")

    def how(side: Side) -> str:
        return "side by side" if both_ways_at_once(side.trace) else "one after the other"

    def rates(side: Side) -> str:
        h2d, d2h = side.metrics.bandwidth_gbps["h2d"] or 0.0, side.metrics.bandwidth_gbps["d2h"] or 0.0
        together = f" ({gbps(h2d + d2h)} together)" if both_ways_at_once(side.trace) else ""
        return f"{gbps(h2d)} / {gbps(d2h)} GB/s{together}"

    return [
        para(f"""**Claim.** With a copy engine per direction, H2D and D2H copies run at the same time; with a
        single engine they take turns. Copies only (`iters = 0`). The one-engine side runs on
        `{one_device}`, a what-if model: the `h200` profile with `copy_engines = 1` and nothing else
        changed."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy H2D / D2H": lambda s: f"{busy_pair(s, 'h2d', 'd2h')}, {how(s)}",
            "bandwidth H2D / D2H": rates,
            "findings": findings,
        }),
        para(f"""With one engine the makespan, {ms(one.metrics.makespan_ns)}, is the two directions' busy
        times added up: {ms(busy['h2d'])} + {ms(busy['d2h'])}."""),
    ]


@section("order-h200")
def _order_h200(lesson: Lesson, model: Model) -> list[str]:
    depth, breadth = _both(lesson)
    claim(depth.metrics.makespan_ns < 0.9 * breadth.metrics.makespan_ns, lesson.name, "depth order wins on the H200")
    return [
        para("""**Claim.** In breadth order each stream carries all its H2D copies before its first kernel,
        so the kernels and the D2H copies start late; depth order wins on the H200."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "copy time hidden": lambda s: pct(s.metrics.copy_hidden_pct),
            "findings": findings,
        }),
        f"The `copy-queue` finding for {breadth.label}:",
        quote(breadth.finding("copy-queue")),
    ]


def harris_table(lesson: Lesson) -> str:
    """Depth vs breadth with what Harris (2012) measured beside the model's makespan."""
    measured = dict(zip((side.label for side in lesson.sides), HARRIS_MS[lesson.name], strict=True))
    return side_table(lesson, {
        "makespan": lambda s: ms(s.metrics.makespan_ns),
        "Harris (2012) measured": lambda s: f"{measured[s.label]:.2f} ms",
        "copy time hidden": lambda s: pct(s.metrics.copy_hidden_pct),
        "findings": findings,
    })


@section("order-c1060")
def _order_c1060(lesson: Lesson, model: Model) -> list[str]:
    depth, breadth = _both(lesson)
    claim((depth.metrics.copy_hidden_pct or 0.0) < 5, lesson.name, "in V1 nothing overlaps")
    claim(breadth.metrics.makespan_ns < 0.9 * depth.metrics.makespan_ns, lesson.name, "V2 wins")
    claim(depth.trace.copy_engines == 1, lesson.name, "the C1060 has one copy engine")
    return [
        para("""**Claim.** One copy engine that takes copies in issue order: in V1 the next stream's H2D
        copy waits behind the previous stream's D2H copy, so nothing overlaps; V2 wins."""),
        harris_table(lesson),
        f"The `copy-queue` finding for {depth.label}:",
        quote(depth.finding("copy-queue")),
    ]


@section("order-c2050")
def _order_c2050(lesson: Lesson, model: Model) -> list[str]:
    depth, breadth = _both(lesson)
    claim((depth.metrics.copy_hidden_pct or 0.0) > 60, lesson.name, "a copy engine per direction makes V1 overlap well")
    claim(depth.metrics.makespan_ns < 0.9 * breadth.metrics.makespan_ns, lesson.name, "V1 wins on the C2050")
    kernels_end = int(breadth.trace["end_ns"][breadth.trace.mask(OpKind.KERNEL)].max())
    first_d2h = int(breadth.trace["start_ns"][breadth.trace.mask(OpKind.D2H)].min())
    claim(first_d2h >= kernels_end, lesson.name, "in V2 no D2H copy starts before all kernels are done")
    return [
        para("""**Claim.** A copy engine per direction makes V1 overlap well; in V2 Fermi's delayed kernel
        completion signal holds every D2H copy until all kernels are done."""),
        harris_table(lesson),
    ]


@section("order-k20c")
def _order_k20c(lesson: Lesson, model: Model) -> list[str]:
    depth, breadth = _both(lesson)
    claim(abs(depth.metrics.makespan_ns - breadth.metrics.makespan_ns) <= 0.01 * depth.metrics.makespan_ns,
          lesson.name, "with Hyper-Q the issue order no longer matters")
    return [
        para("**Claim.** With Hyper-Q the issue order no longer matters."),
        harris_table(lesson),
    ]


@section("fresh-output-page-faults")
def _fresh_output(lesson: Lesson, model: Model) -> list[str]:
    touched, fresh = _both(lesson)
    claim(fresh.metrics.busy_ns["d2h"] > 1.5 * touched.metrics.busy_ns["d2h"], lesson.name,
          "the page faults are paid inside the D2H copies")
    return [
        para("""**Claim.** Copying back into a never-touched pageable buffer pays the host's page faults
        inside the D2H copies."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy D2H": lambda s: ms(s.metrics.busy_ns["d2h"]),
            "bandwidth D2H": lambda s: f"{gbps(s.metrics.bandwidth_gbps['d2h'])} GB/s",
            "host blocked": lambda s: ms(s.metrics.host_blocked_ns),
            "findings": findings,
        }),
    ]


@section("alloc-cudamallochost-vs-malloc")
def _alloc_costs(lesson: Lesson, model: Model) -> list[str]:
    malloc, pinned = _both(lesson)
    pin = host_calls(pinned, "cudaMallocHost")[0]
    claim(pinned.metrics.wall_ns > malloc.metrics.wall_ns, lesson.name,
          "allocated per run, pinned memory loses more time than its faster copies win")
    return [
        para(f"""**Claim.** `cudaMallocHost` pins every page before it returns and costs
        {times(pin / _malloc_and_touch_ns(malloc))} times what `malloc` plus the first touch cost; allocated
        per run, pinned memory loses more time than its faster copies win. Both host buffers
        ({format_size(pinned.config.size_bytes)} each) are allocated inside the run
        (`host_alloc = "per-run"`) and freed after the final synchronize."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "wall": lambda s: ms(s.metrics.wall_ns),
            "host alloc": lambda s: ms(s.metrics.host_alloc_ns),
            "the calls": alloc_calls,
            "findings": findings,
        }),
    ]


@section("alloc-once-and-reuse")
def _alloc_once(lesson: Lesson, model: Model) -> list[str]:
    per_run, reused = _both(lesson)
    claim(reused.metrics.host_alloc_ns == 0 and reused.metrics.wall_ns <= 1.01 * reused.metrics.makespan_ns,
          lesson.name, "allocated once, before the work, pinned memory costs the run nothing")
    claim(per_run.metrics.host_alloc_ns >= 0.9 * per_run.metrics.wall_ns, lesson.name,
          "allocated per run, allocation is nearly all of it")
    return [
        para("""**Claim.** Allocated once, before the work, pinned memory costs the run nothing; allocated
        per run, allocation is nearly all of it."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "wall": lambda s: ms(s.metrics.wall_ns),
            "host alloc": lambda s: ms(s.metrics.host_alloc_ns)
            + (f" ({share(s.metrics.host_alloc_ns, s.metrics.wall_ns)})" if s.metrics.host_alloc_ns else ""),
            "findings": findings,
        }),
        "The `alloc-per-run` finding:",
        quote(per_run.finding("alloc-per-run")),
    ]


@section("pin-too-much")
def _pin_too_much(lesson: Lesson, model: Model) -> list[str]:
    (side,) = lesson.sides
    claim(side.refusal is not None, lesson.name, "the run is refused with the reason")
    size, ram = side.config.size_bytes, model.h200.host_ram_bytes
    fits = int(DEFAULT_PINNED_SHARE * ram / 2 // GIB) * GIB  # the largest whole-GiB pipeline the guard lets pin
    with default_pinned_share():
        pageable_runs = _runs(side.config.replace(memory=HostMemory.PAGEABLE), side.device)
        smaller_runs = _runs(side.config.replace(size_bytes=fits), side.device)
        larger_refused = not _runs(side.config.replace(size_bytes=fits + GIB), side.device)
    claim(pageable_runs and smaller_runs and larger_refused, lesson.name,
          f"the same size from pageable memory runs, and so does {gib(fits)} pinned")
    message = wrap(f"overlapviz: error: {side.refusal}")
    return [
        para(f"""**Claim.** Pinned pages cannot be swapped out, so a request for more than a share of the RAM
        ({DEFAULT_PINNED_SHARE:.0%} by default, `{PINNED_SHARE_ENV}` to change it) is refused with the
        reason. A {gib(size)} pinned pipeline on the H200 model (host RAM {gib(ram)}) needs two {gib(size)}
        buffers. The preset loads; the run stops before anything is simulated:"""),
        f"```\n$ overlapviz run --preset {lesson.name}\n{message}\n```",
        para(f"""(one line in the terminal; exit code 1). The same size from pageable memory runs, and so
        does {gib(fits)} pinned ({gib(2 * fits)})."""),
    ]


# --- the other kinds of host memory (measured on the H200: benchmarks/results/h200_host_kinds.json) --------


def _host_read_ns(side: Side) -> int:
    """The side's host read of the output after the run (0 without one)."""
    return sum(host_calls(side, HOST_READ_NAME))


def _rate(side: Side, rows: object) -> str:
    """GB/s of the rows' bytes over their summed durations."""
    trace = side.trace
    return gbps(float(trace["bytes"][rows].sum()) / float(trace.duration_ns[rows].sum()))


@section("write-combined-vs-pinned")
def _write_combined(lesson: Lesson, model: Model) -> list[str]:
    pinned, combined = _both(lesson)
    claim(abs(combined.metrics.makespan_ns - pinned.metrics.makespan_ns) <= 0.01 * pinned.metrics.makespan_ns,
          lesson.name, "the copies run alike")
    claim(_host_read_ns(combined) > 0 and _host_read_ns(pinned) == 0, lesson.name,
          "the write-combined side draws the host's read of the output; the plain pinned side does not")
    read = _host_read_ns(combined)
    return [
        para("""**Claim.** Write-combined pinned memory copies like plain pinned memory; what it changes falls
        on the host, which reads the output back after the run. The model's write-combined rates are
        the H200's (`benchmarks/results/h200_host_kinds.json`): 55.2 GB/s in, 55.1 GB/s out, and a host
        read of 10.1 GB/s, the same as from plain pinned memory on that host."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "bandwidth H2D / D2H": rate_pair,
            "host read of the output": lambda s: ms(_host_read_ns(s)) if _host_read_ns(s) else "not drawn",
            "wall": lambda s: ms(s.metrics.wall_ns),
            "findings": findings,
        }),
        para(f"""The read takes {ms(read)} for {format_size(combined.config.size_bytes)}
        ({gbps(combined.config.size_bytes / read)} GB/s). The H200 machine read the same buffer from plain
        pinned memory in 26.5 ms: the flag made host reads no slower there, and copies no faster."""),
    ]


@section("mapped-zero-copy")
def _mapped(lesson: Lesson, model: Model) -> list[str]:
    pinned, mapped = _both(lesson)
    kernels = mapped.trace.mask(OpKind.KERNEL)
    claim(not mapped.trace.mask(OpKind.H2D, OpKind.D2H).any(), lesson.name, "with mapped memory there are no copies")
    claim(mapped.metrics.busy_ns["kernel"] > 1.2 * pinned.metrics.busy_ns["kernel"], lesson.name,
          "each kernel takes longer: it reads and writes across PCIe")
    return [
        para("""**Claim.** Kernels on mapped host memory read and write it across PCIe themselves: no copies,
        the copy engines idle, the kernel lane longer. Each kernel takes the longer of its arithmetic
        and its bytes over the link (read and written back at 83.5 GB/s together, as the H200
        measured)."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy H2D / kernel / D2H": lambda s: busy_pair(s, "h2d", "kernel", "d2h"),
            "bytes over the link": lambda s: format_size(int(s.trace["bytes"][s.trace.device_mask].sum())),
            "findings": findings,
        }),
        para(f"""The kernels moved {format_size(int(mapped.trace["bytes"][kernels].sum()))} across the link at
        {_rate(mapped, kernels)} GB/s. The H200 measured 6.52 ms for this pipeline on mapped memory and 6.08
        ms copied from pinned memory."""),
        "The `mapped-memory` finding:",
        quote(mapped.finding("mapped-memory")),
    ]


@section("managed-page-faults")
def _managed(lesson: Lesson, model: Model) -> list[str]:
    pinned, managed = _both(lesson)
    claim(managed.metrics.busy_ns["kernel"] > 5 * pinned.metrics.busy_ns["kernel"], lesson.name,
          "the faults stall the kernels")
    claim(_host_read_ns(managed) > 0, lesson.name, "the host's read of the output faults every page back")
    return [
        para("""**Claim.** Without prefetch, managed memory migrates on first touch: the faults stall the
        kernels, no copy engine works, and the output stays on the GPU until the host's read faults
        it back. The model's rates are the H200's: faults at 6.5 GB/s (a 256 MiB kernel took 46.1 ms
        on managed memory, 4.95 ms on device memory) and the host's read back at 4.9 GB/s."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy kernel": lambda s: ms(s.metrics.busy_ns["kernel"]),
            "host read of the output": lambda s: ms(_host_read_ns(s)) if _host_read_ns(s) else "not drawn",
            "wall": lambda s: ms(s.metrics.wall_ns),
            "findings": findings,
        }),
        para("The H200 measured 42.6 ms for this pipeline on managed memory, and 55.0 ms for the host's read."),
    ]


@section("managed-prefetch")
def _prefetch(lesson: Lesson, model: Model) -> list[str]:
    faults, prefetched = _both(lesson)
    trace = prefetched.trace
    prefetches = trace.mask(OpKind.PREFETCH)
    claim(prefetched.metrics.makespan_ns < 0.75 * faults.metrics.makespan_ns, lesson.name,
          "the kernels no longer stall and the run is shorter")
    claim("prefetch-bound" in prefetched.codes, lesson.name, "the migrations still set the pace")
    return [
        para("""**Claim.** `cudaMemPrefetchAsync` on each chunk's stream turns the migrations into copy-like
        spans on the copy engines, ahead of the kernels. The model's rates are the H200's: 49.9 GB/s to
        the device, 15.2 GB/s back to the host, one prefetch at a time (the pipeline took 27.1 ms there,
        more than its prefetches of both directions added up, 23.1 ms)."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "busy kernel": lambda s: ms(s.metrics.busy_ns["kernel"]),
            "host read of the output": lambda s: ms(_host_read_ns(s)),
            "wall": lambda s: ms(s.metrics.wall_ns),
            "findings": findings,
        }),
        para(f"""The {int(prefetches.sum())} prefetches moved {format_size(int(trace["bytes"][prefetches].sum()))}.
        The model's makespan is 14% under the H200's 27.1 ms (see docs/model-vs-h200.md). The
        `prefetch-bound` finding:"""),
        quote(prefetched.finding("prefetch-bound")),
    ]


@section("staging-ring")
def _staging(lesson: Lesson, model: Model) -> list[str]:
    pageable, staged = _both(lesson)
    copies = staged.trace.mask(OpKind.HOST_COPY)
    claim(staged.metrics.wall_ns > pageable.metrics.wall_ns, lesson.name,
          "one thread copying every chunk loses to the driver's own pageable path")
    claim((staged.metrics.pinned_bytes or 0) < 2 * staged.config.size_bytes, lesson.name, "the ring pins little")
    return [
        para("""**Claim.** A ring of pinned slots lets pageable data be copied asynchronously without pinning
        all of it; the host thread copies each chunk into a slot and out again, and on the H200 machine
        that copy (5.7 GB/s inside the pipeline, 9.0 GB/s alone) was slower than the driver's own
        staging. The H200 measured 97.4 ms through a ring of 2 slots (98.3 ms with 4, 99.6 ms with 8),
        58.2 ms from pageable memory and 6.06 ms from pinned buffers."""),
        side_table(lesson, {
            "wall": lambda s: ms(s.metrics.wall_ns),
            "RAM pinned": lambda s: format_size(s.metrics.pinned_bytes or 0),
            "host copies": lambda s: f"{ms(int(s.trace.duration_ns[s.trace.mask(OpKind.HOST_COPY)].sum()))}"
            if s.trace.mask(OpKind.HOST_COPY).any() else "none",
            "findings": findings,
        }),
        para(f"""The host copies run at {_rate(staged, copies)} GB/s. The `staging-host-bound` finding:"""),
        quote(staged.finding("staging-host-bound")),
    ]


@section("cuda-graph-many-chunks")
def _graph(lesson: Lesson, model: Model) -> list[str]:
    calls, graph = _both(lesson)
    claim(graph.metrics.host_issue_ns < calls.metrics.host_issue_ns / 3, lesson.name,
          "the host's issue time shrinks")
    claim("too-many-chunks" in calls.codes and "too-many-chunks" not in graph.codes, lesson.name,
          "the device sets the pace again")
    ops = int(graph.trace.device_mask.sum())
    return [
        para("""**Claim.** Captured once and launched as one graph, the pipeline costs the host far less per
        op than a call per op. The model's per-op cost inside `cudaGraphLaunch` is the H200's (2.8 µs at
        48 ops, 1.3 µs at 3072), and capturing is paid once (18.5 ms for 3072 ops there)."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "host issue": lambda s: f"{ms(s.metrics.host_issue_ns)} ({us(s.metrics.host_issue_ns / ops)} µs an op)",
            "findings": findings,
        }),
        para("""On the H200, with the benchmark's own issue loop (4.0 µs an op), both took about 12.2 ms: the
        device was the bottleneck at 1024 chunks there; the model's calls cost what overlapviz's own
        issue loop costs (CUPTI host records), and there the graph helps."""),
    ]


def _peer_rate(side: Side) -> str:
    """GB/s of the side's peer copies."""
    return _rate(side, side.trace.mask(OpKind.PEER))


def _peer_covered(side: Side) -> str:
    """How long the side's peer copies ran, overlapping ones counted once."""
    return ms(covered_total_ns(side.trace, OpKind.PEER))


def _one_gpu(config: PipelineConfig) -> RunResult:
    """`config` on the h200 model, with one GPU."""
    return run_pipeline(dataclasses.replace(config, gpus=1, gpu_layout=GpuLayout.CHAIN, peer_access=True),
                        BACKEND, H200)


TWO_GPU_CAVEAT = """The numbers are the model's, for two GPUs it is not calibrated on: each GPU is the h200
model, measured on one H200; the link between them is NVIDIA's peak figure or a stand-in, as
the profile's comments say (docs/model.md, "Two GPUs")."""


@section("peer-access-on-vs-off")
def _peer_access(lesson: Lesson, model: Model) -> list[str]:
    on, off = _both(lesson)
    claim(off.metrics.makespan_ns > 1.5 * on.metrics.makespan_ns, lesson.name,
          "with peer access off the run takes far longer")
    claim("peer-bound" in off.codes and "peer-bound" not in on.codes, lesson.name,
          "with peer access off the peer copies set the pace")
    return [
        para("""**Claim.** With peer access on, a copy from one GPU to another crosses the PCIe links once, GPU
        to GPU; with it off the driver stages it through host memory, and it costs a copy out of the
        first GPU and a copy into the second, one after the other."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "peer copies": lambda s: f"{_peer_covered(s)} at {_peer_rate(s)} GB/s",
            "findings": findings,
        }),
        para(TWO_GPU_CAVEAT),
        "The `peer-bound` finding with peer access off:",
        quote(off.finding("peer-bound")),
    ]


@section("nvlink-vs-through-the-host")
def _nvlink(lesson: Lesson, model: Model) -> list[str]:
    nvlink, host = _both(lesson)
    peers = nvlink.trace.mask(OpKind.PEER)
    claim(float(nvlink.trace["bytes"][peers].sum() / nvlink.trace.duration_ns[peers].sum()) > 5 * 55.3, lesson.name,
          "over NVLink a peer copy runs many times a host copy's rate")
    claim(host.metrics.makespan_ns > 1.5 * nvlink.metrics.makespan_ns and "peer-bound" in host.codes, lesson.name,
          "through the host the peer copies set the pace")
    return [
        para("""**Claim.** Over NVLink a copy between GPUs runs many times faster than any copy to or from the
        host, so it hardly shows on the timeline; through the host it is the slowest step of the run."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "peer copies": lambda s: f"{_peer_covered(s)} at {_peer_rate(s)} GB/s",
            "bandwidth H2D / D2H": rate_pair,
            "findings": findings,
        }),
        para("""The NVLink rate is the profile's 18 links of 25 GB/s each way, NVIDIA's peak for NVLink 4, less
        the fixed cost of each copy; on H100 SXM NVIDIA's own test reaches about 380 of those 450 GB/s."""),
        para(TWO_GPU_CAVEAT),
    ]


@section("two-gpus-one-host-buffer")
def _one_host_buffer(lesson: Lesson, model: Model) -> list[str]:
    own, shared = _both(lesson)
    alone = _one_gpu(own.config)
    claim(own.metrics.makespan_ns < 0.6 * alone.metrics.makespan_ns, lesson.name,
          "with a link each, two GPUs take about half one GPU's time")
    claim(shared.metrics.makespan_ns >= 0.95 * alone.metrics.makespan_ns, lesson.name,
          "under one switch two GPUs are no faster than one")
    claim((shared.metrics.bandwidth_gbps["h2d"] or 0.0) < 0.6 * (own.metrics.bandwidth_gbps["h2d"] or 0.0),
          lesson.name, "under one switch each copy runs at about half the rate")
    return [
        para(f"""**Claim.** Two GPUs copying from one pinned host buffer at once each get their own link's rate
        where each has a link of its own to the CPU, and share one link's rate under one PCIe switch.
        The same pipeline on one H200 takes {ms(alone.metrics.makespan_ns)}."""),
        side_table(lesson, {
            "makespan": lambda s: ms(s.metrics.makespan_ns),
            "bandwidth H2D / D2H": rate_pair,
            "findings": findings,
        }),
        para("""The buffers are allocated once for both GPUs, as `cudaHostAllocPortable` allocates them; in a
        program with unified addressing (every 64-bit CUDA program) any pinned buffer is portable. On
        one H200 a portable buffer copied as fast as a plain pinned one (55.2 / 55.1 GB/s against
        55.2 / 55.2, `benchmarks/results/h200_device_calls.json`). The switch's upstream link is taken
        to carry what one H200's own link carries."""),
        para(TWO_GPU_CAVEAT),
    ]


def _runs(config: PipelineConfig, device: str | None) -> bool:
    """Whether the model runs `config` rather than refusing it."""
    try:
        run_pipeline(config, BACKEND, device)
    except BackendError:
        return False
    return True


def lesson_section(lesson: Lesson, model: Model) -> str:
    """The heading and body of one lesson."""
    write = SECTIONS.get(lesson.name)
    if write is None:
        raise LessonsPageError(f"lesson {lesson.preset.lesson} ({lesson.name}) has no section in docs/make_lessons.py;"
                               " add one")
    heading = f"## {lesson.preset.lesson}. {lesson.preset.title} (`{lesson.name}`)"
    return "\n\n".join([heading, *write(lesson, model)])


def render(model: Model) -> str:
    """The whole page for `model`."""
    unused = sorted(set(SECTIONS) - {lesson.name for lesson in model.lessons})
    if unused:
        raise LessonsPageError(f"docs/make_lessons.py has sections for presets that are no lesson: {', '.join(unused)}")
    parts = [intro(model), claims_table(model), *(lesson_section(lesson, model) for lesson in model.lessons)]
    return "\n\n".join(part.strip("\n") for part in parts) + "\n"


def render_page() -> str:
    """Run the lessons on the model and return the page's text."""
    return render(run_model())


# --- writing and checking ------------------------------------------------------------------


def stale_message(path: Path, expected: str) -> str | None:
    """None when `path` holds `expected`; else what differs and the command that rewrites it."""
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{path} is missing; run `{COMMAND}` from the repository root to write it"
    if current == expected:
        return None
    diff = list(difflib.unified_diff(current.splitlines(), expected.splitlines(), "on disk", "from the model",
                                     n=0, lineterm=""))
    shown = "\n".join(diff[:DIFF_LINES]) + ("\n..." if len(diff) > DIFF_LINES else "")
    return (f"{path} is out of date with the model; run `{COMMAND}` from the repository root to write it"
            f" again.\n{shown}")


def main(argv: Sequence[str] | None = None, path: Path = PAGE) -> int:
    """Write the page (or with ``--check`` only compare it); 1 when it is stale or cannot be written."""
    parser = argparse.ArgumentParser(prog=COMMAND, description="Write docs/lessons.md from the model's runs.")
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 when the page is out of date")
    args = parser.parse_args(argv)
    try:
        page = render_page()
    except LessonsPageError as error:
        print(f"{COMMAND}: {error}", file=sys.stderr)
        return 1
    if args.check:
        problem = stale_message(path, page)
        print(problem or f"{path} is up to date", file=sys.stderr if problem else sys.stdout)
        return 1 if problem else 0
    try:
        atomic_write_text(path, page)
    except OSError as error:
        print(f"{COMMAND}: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
