import re
import textwrap
from pathlib import Path

import pytest

from overlapviz.commands.main import main
from overlapviz.core.config import (
    GIB,
    HostMemory,
    IssueOrder,
    KernelKind,
    PipelineConfig,
    StreamKind,
)
from overlapviz.core.config.pinning import PINNED_SHARE_ENV, PinnedMemoryRefused, check_pinned_request
from overlapviz.core.run_errors import BackendError
from overlapviz.core.trace.spans import OpKind, Unit
from overlapviz.presets import (
    MAX_PRESET_BYTES,
    Preset,
    PresetError,
    UnknownPresetError,
    get_preset,
    lessons,
    load_preset,
    load_presets,
    preset_names,
    presets_folder,
)
from overlapviz.session import run_pipeline

HARRIS_DEVICES = {"c1060": "tesla-c1060", "c2050": "tesla-c2050", "k20c": "tesla-k20c"}
HARRIS_N = 4 * 1024 * 256 * 4  # n = 4 * 1024 * blockSize * nStreams in async.cu


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


# --- the shipped presets ---------------------------------------------------------------


def test_every_shipped_preset_loads_and_validates():
    presets = load_presets()
    assert set(presets) >= {"default"} | {f"harris-{g}-{v}" for g in HARRIS_DEVICES for v in
                                          ("sequential", "v1", "v2")}
    assert list(presets) == sorted(presets)
    for name, preset in presets.items():
        assert preset.name == name
        assert preset.title and preset.text
        assert 2 <= len(sentences(preset.text)) <= 3, name
        assert len(preset.configs) in (1, 2) and len(preset.labels) == len(preset.configs)
        assert all(isinstance(c, PipelineConfig) for c in preset.configs)
        assert preset.backend in (None, "auto", "sim", "cupy")
        assert len(preset.devices) == len(preset.configs)
        if preset.is_comparison:
            assert all(preset.labels) and preset.labels[0] != preset.labels[1]
            assert preset.configs[0] != preset.configs[1] or preset.devices[0] != preset.devices[1]


def test_shipped_names_match_files():
    assert preset_names() == sorted(p.stem for p in presets_folder().glob("*.toml"))


@pytest.mark.parametrize("gpu", sorted(HARRIS_DEVICES))
def test_harris_presets_are_the_blog_problem(gpu):
    sequential, v1, v2 = (get_preset(f"harris-{gpu}-{v}") for v in ("sequential", "v1", "v2"))
    for preset in (sequential, v1, v2):
        (config,) = preset.configs
        assert preset.device == HARRIS_DEVICES[gpu] and preset.backend == "sim"
        assert config.size_bytes == 16 * 1024 * 1024 == HARRIS_N * 4
        assert config.memory is HostMemory.PINNED
        assert config.kernel is KernelKind.SINCOS and config.iters == 0
    (seq,), (one,), (two,) = sequential.configs, v1.configs, v2.configs
    assert (seq.streams, seq.chunks, seq.stream_kind) == (1, 1, StreamKind.LEGACY)
    assert (one.streams, one.chunks, one.order, one.stream_kind) == (4, 4, IssueOrder.DEPTH, StreamKind.NONBLOCKING)
    assert (two.streams, two.chunks, two.order, two.stream_kind) == (4, 4, IssueOrder.BREADTH, StreamKind.NONBLOCKING)


def test_default_preset_is_the_default_pipeline_on_h200():
    preset = get_preset("default")
    assert preset.configs == (PipelineConfig(),)
    assert (preset.device, preset.backend) == ("h200", "sim")


def test_shipped_devices_are_simulated_profiles():
    sim = pytest.importorskip("overlapviz.backends.sim", reason="the simulated backend is not in this tree yet")
    keys = {d.key for d in sim.create_backend().devices()}
    for preset in load_presets().values():
        assert preset.device is None or preset.device in keys, preset.name
        assert all(device is None or device in keys for device in preset.devices), preset.name


# --- the file format -------------------------------------------------------------------


def write(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


GOOD_SINGLE = """
    title = "One"
    text = "First sentence. Second sentence."
    [config]
    size = "64MiB"
    chunks = 8
"""

GOOD_PAIR = """
    title = "Pageable vs pinned"
    text = '''
    Pageable memory is staged.
    Pinned memory is not.
    '''
    device = "h200"
    backend = "sim"
    [a]
    label = "pageable"
    memory = "pageable"
    [b]
    label = "pinned"
    memory = "pinned"
    size = 1048576
"""


def test_single_config_with_defaults(tmp_path):
    preset = load_preset(write(tmp_path, "one", GOOD_SINGLE))
    assert preset == Preset(
        name="one", title="One", text="First sentence. Second sentence.",
        configs=(PipelineConfig(size_bytes=64 * 1024 * 1024, chunks=8),), labels=("One",),
        device=None, backend=None,
    )
    assert not preset.is_comparison and not preset.is_lesson
    assert preset.devices == (None,) and preset.lesson is None


def test_comparison_has_two_configs_and_labels(tmp_path):
    preset = load_preset(write(tmp_path, "cmp", GOOD_PAIR))
    assert preset.is_comparison
    assert preset.labels == ("pageable", "pinned")
    assert preset.configs[0] == PipelineConfig(memory=HostMemory.PAGEABLE)
    assert preset.configs[1] == PipelineConfig(size_bytes=1024 * 1024)
    assert preset.text == "Pageable memory is staged. Pinned memory is not."  # lines joined
    assert (preset.device, preset.backend) == ("h200", "sim")
    assert preset.devices == ("h200", "h200")  # the top-level device for each side


def test_load_presets_from_a_folder(tmp_path):
    write(tmp_path, "b-one", GOOD_SINGLE)
    write(tmp_path, "a-cmp", GOOD_PAIR)
    (tmp_path / "notes.txt").write_text("not a preset")
    assert list(load_presets(tmp_path)) == ["a-cmp", "b-one"]
    assert get_preset("a-cmp", tmp_path).is_comparison


def test_unknown_name_lists_the_presets(tmp_path):
    write(tmp_path, "one", GOOD_SINGLE)
    with pytest.raises(UnknownPresetError) as caught:
        get_preset("nope", tmp_path)
    assert str(caught.value) == "unknown preset 'nope'; the presets are: one"
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, PresetError)


def test_unknown_name_with_path_parts_is_not_a_path(tmp_path):
    inner = tmp_path / "inner"
    inner.mkdir()
    write(tmp_path, "outside", GOOD_SINGLE)
    with pytest.raises(UnknownPresetError):
        get_preset("../outside", inner)


def test_unknown_shipped_name_lists_shipped_names():
    with pytest.raises(UnknownPresetError, match="harris-c1060-v1"):
        get_preset("harris-c9999-v1")


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("title = 'x'\ntext = 'y'\n[config]\nchunks = 0\n", r"\[config\] chunks: 0 is out of range; allowed 1 to"),
        ("title = 'x'\ntext = 'y'\n[config]\nsize = '4KiB'\nchunks = 2000\n", r"\[config\] chunks: 2000 chunks"),
        ("title = 'x'\ntext = 'y'\n[config]\nmemory = 'cheap'\n", r"memory: 'cheap' is not one of"),
        ("title = 'x'\ntext = 'y'\n[config]\nsize = '12 parsecs'\n", r"\[config\] size: '12 parsecs' is not a size"),
        ("title = 'x'\ntext = 'y'\n[config]\nsize = '1MiB'\nsize_bytes = 1048576\n", r"both size and size_bytes"),
        ("title = 'x'\ntext = 'y'\n[config]\nstreamz = 2\n", r"streamz: unknown setting"),
        ("text = 'y'\n[config]\n", r"title is missing or empty"),
        ("title = 'x'\ntext = '  '\n[config]\n", r"text is missing or empty"),
        ("title = 'x'\ntext = 'y'\n", r"either a \[config\] table, or two tables \[a\] and \[b\]"),
        ("title = 'x'\ntext = 'y'\n[a]\nlabel = 'a'\n", r"either a \[config\] table"),
        ("title = 'x'\ntext = 'y'\n[config]\n[a]\nlabel='a'\n[b]\nlabel='b'\n", r"either a \[config\] table"),
        ("title = 'x'\ntext = 'y'\n[a]\nlabel = 'a'\n[b]\nchunks = 4\n", r"\[b\] needs a label"),
        ("title = 'x'\ntext = 'y'\nconfig = 3\n", r"config must be a table"),
        ("title = 'x'\ntext = 'y'\nbackend = 'opencl'\n[config]\n", r"backend 'opencl' is not one of: auto, cupy, sim"),
        ("title = 'x'\ntext = 'y'\ndevice = 7\n[config]\n", r"device must be a non-empty string"),
        ("title = 'x'\ntext = 'y'\ncolour = 'red'\n[config]\n", r"unknown key 'colour'"),
        ("title = 'x\ntext = 'y'\n", r"not valid TOML"),
        ("title = 'x'\ntext = 'y'\nlesson = 0\n[config]\n", r"lesson must be a whole number from 1 .*not 0"),
        ("title = 'x'\ntext = 'y'\nlesson = '3'\n[config]\n", r"lesson must be a whole number"),
        ("title = 'x'\ntext = 'y'\nlesson = true\n[config]\n", r"lesson must be a whole number"),
        ("title = 'x'\ntext = 'y'\n[config]\ndevice = 'h200'\n", r"\[config\] cannot name a device"),
        ("title = 'x'\ntext = 'y'\n[a]\nlabel='a'\ndevice = ''\n[b]\nlabel='b'\n",
         r"\[a\] device must be a non-empty string"),
    ],
)
def test_bad_files_name_the_file_and_problem(tmp_path, body, problem):
    path = write(tmp_path, "bad", body)
    with pytest.raises(PresetError, match=problem) as caught:
        load_preset(path)
    assert str(caught.value).startswith(f"{path}: ")


def test_bad_file_breaks_load_presets_with_its_name(tmp_path):
    write(tmp_path, "good", GOOD_SINGLE)
    bad = write(tmp_path, "zz-bad", "title = 'x'\ntext = 'y'\n")
    with pytest.raises(PresetError, match=re.escape(str(bad))):
        load_presets(tmp_path)


def test_non_utf8_file_is_a_preset_error(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"title = '\xff'\n")
    with pytest.raises(PresetError, match="not valid TOML"):
        load_preset(path)


def test_unreadable_file_is_a_preset_error(tmp_path):
    folder = tmp_path / "dir.toml"
    folder.mkdir()  # a folder where a file should be
    with pytest.raises(PresetError, match="cannot be read"):
        load_preset(folder)


# --- per-side devices and lesson numbers -------------------------------------------------


def test_each_side_may_name_its_own_device(tmp_path):
    preset = load_preset(write(tmp_path, "sides", """
        title = "Two machines"
        text = "One side here. The other there."
        device = "h200"
        [a]
        label = "default device"
        [b]
        label = "own device"
        device = "tesla-c1060"
    """))
    assert preset.devices == ("h200", "tesla-c1060")
    assert preset.configs[0] == preset.configs[1] == PipelineConfig()  # device is no pipeline setting


def test_lessons_come_in_their_order_and_plain_presets_are_left_out(tmp_path):
    for name, number in (("zeta", 1), ("alpha", 3), ("mid", 2)):
        write(tmp_path, name, f"lesson = {number}\n" + textwrap.dedent(GOOD_SINGLE))
    write(tmp_path, "plain", GOOD_SINGLE)
    ordered = lessons(tmp_path)
    assert [(p.name, p.lesson) for p in ordered] == [("zeta", 1), ("mid", 2), ("alpha", 3)]
    assert all(p.is_lesson for p in ordered) and not load_presets(tmp_path)["plain"].is_lesson


def test_two_presets_with_one_lesson_number_are_an_error(tmp_path):
    write(tmp_path, "one", "lesson = 4\n" + textwrap.dedent(GOOD_SINGLE))
    write(tmp_path, "two", "lesson = 4\n" + textwrap.dedent(GOOD_SINGLE))
    with pytest.raises(PresetError, match=r"one\.toml and two\.toml are both lesson 4"):
        load_presets(tmp_path)


# --- the lessons: each loads, runs on the model and shows what its text claims ----------------

LESSONS = [
    "copy-pinned-vs-pageable", "overlap-pinned-vs-pageable", "streams-one-vs-four", "chunks-too-few",
    "chunks-too-many", "legacy-default-stream", "copy-vs-kernel-bound", "copy-engines-both-ways", "order-h200",
    "order-c1060", "order-c2050", "order-k20c", "fresh-output-page-faults", "alloc-cudamallochost-vs-malloc",
    "alloc-once-and-reuse", "pin-too-much", "write-combined-vs-pinned", "mapped-zero-copy", "managed-page-faults",
    "managed-prefetch", "staging-ring", "cuda-graph-many-chunks", "peer-access-on-vs-off", "nvlink-vs-through-the-host",
    "two-gpus-one-host-buffer",
]  # fmt: skip


def run_on_model(name):
    """Run every side of a lesson on the simulated backend; (result, ...) in side order."""
    preset = get_preset(name)
    return tuple(
        run_pipeline(config, "sim", device) for config, device in zip(preset.configs, preset.devices, strict=True)
    )


def codes(result):
    return {finding.code for finding in result.findings}


def ms(ns):
    return ns / 1e6


def test_the_lessons_in_order():
    ordered = lessons()
    assert [p.name for p in ordered] == LESSONS
    assert [p.lesson for p in ordered] == list(range(1, len(LESSONS) + 1))
    for preset in ordered:
        assert preset.title and 2 <= len(sentences(preset.text)) <= 3
        assert preset.is_comparison or preset.name == "pin-too-much"


def test_lessons_on_the_h200_run_where_a_gpu_is_present():
    # No device and no backend: the real GPU when there is one, else the h200 model.
    on_model_only = {"copy-engines-both-ways", "order-c1060", "order-c2050", "order-k20c", "pin-too-much",
                     "peer-access-on-vs-off", "nvlink-vs-through-the-host", "two-gpus-one-host-buffer"}  # fmt: skip
    for preset in lessons():
        named = preset.backend is not None or any(preset.devices)
        assert named == (preset.name in on_model_only), preset.name


def test_lesson_one_copy_each_way():
    pageable, pinned = run_on_model("copy-pinned-vs-pageable")
    p, q = pageable.metrics, pinned.metrics
    assert p.host_blocked_ns >= 0.99 * p.makespan_ns and "host-blocked-pageable" in codes(pageable)
    assert q.host_blocked_ns == 0 and "host-blocked-pageable" not in codes(pinned)
    assert round(p.bandwidth_gbps["h2d"]) == 7 and round(p.bandwidth_gbps["d2h"]) == 11
    peak = 63.0
    assert 0.85 * peak < q.bandwidth_gbps["h2d"] < peak and round(q.bandwidth_gbps["d2h"]) == 55
    trace = pinned.trace
    calls = [r for r in range(len(trace)) if trace.name_of(r) == "cudaMemcpyAsync"]
    assert all(trace.duration_ns[r] < 10_000 for r in calls)  # the pinned calls return within microseconds


def test_lesson_overlap_needs_pinned_memory():
    pageable, pinned = run_on_model("overlap-pinned-vs-pageable")
    assert pageable.metrics.copy_hidden_pct < 5 and pinned.metrics.copy_hidden_pct > 80
    assert pageable.metrics.makespan_ns > 10 * pinned.metrics.makespan_ns
    assert "host-blocked-pageable" in codes(pageable)


def test_lesson_one_stream_vs_four():
    one, four = run_on_model("streams-one-vs-four")
    assert "single-stream" in codes(one) and one.metrics.makespan_ns >= 0.99 * one.metrics.serial_ns
    assert round(ms(one.metrics.makespan_ns)) == 15 and round(ms(four.metrics.makespan_ns)) == 6


def test_lesson_too_few_chunks():
    few, enough = run_on_model("chunks-too-few")
    assert "too-few-chunks" in codes(few) and "too-few-chunks" not in codes(enough)
    assert round(ms(few.metrics.makespan_ns), 1) == 9.7 and round(ms(enough.metrics.makespan_ns), 1) == 5.9


def test_lesson_too_many_chunks():
    enough, many = run_on_model("chunks-too-many")
    assert "too-many-chunks" in codes(many) and "too-many-chunks" not in codes(enough)
    assert round(ms(many.metrics.makespan_ns)) == 31 and round(ms(enough.metrics.makespan_ns)) == 6
    assert many.metrics.host_issue_ns > 0.5 * many.metrics.makespan_ns
    assert round(enough.metrics.bandwidth_gbps["h2d"], -1) == 50 and round(many.metrics.bandwidth_gbps["h2d"]) == 27
    assert round(enough.metrics.bandwidth_gbps["d2h"], -1) == 50 and round(many.metrics.bandwidth_gbps["d2h"]) == 27


def test_lesson_legacy_default_stream():
    legacy, nonblocking = run_on_model("legacy-default-stream")
    assert "single-stream" in codes(legacy) and "legacy default stream" in legacy.findings[0].message
    assert legacy.metrics.makespan_ns >= 0.99 * legacy.metrics.serial_ns
    assert round(ms(legacy.metrics.makespan_ns)) == 15 and round(ms(nonblocking.metrics.makespan_ns)) == 6


def test_lesson_copy_bound_vs_kernel_bound():
    copies, kernels = run_on_model("copy-vs-kernel-bound")
    assert "copy-bound" in codes(copies) and "kernel-bound" in codes(kernels)
    assert copies.metrics.utilisation["h2d"] > 0.9 and round(ms(copies.metrics.makespan_ns), 1) == 5.6
    assert round(ms(kernels.metrics.busy_ns["kernel"]), 1) == 20.5 and round(ms(kernels.metrics.makespan_ns), 1) == 21.1


def test_lesson_copies_both_ways_at_once():
    three, one = run_on_model("copy-engines-both-ways")
    assert three.trace.copy_engines == 3 and one.trace.copy_engines == 1

    def both_ways_at_once(trace):
        """Whether any H2D copy ran while a D2H copy ran."""
        h2d, d2h = trace.mask(OpKind.H2D), trace.mask(OpKind.D2H)
        d2h_start, d2h_end = trace["start_ns"][d2h], trace["end_ns"][d2h]
        return any(
            ((d2h_start < end) & (d2h_end > start)).any()
            for start, end in zip(trace["start_ns"][h2d], trace["end_ns"][h2d], strict=True)
        )

    assert both_ways_at_once(three.trace) and not both_ways_at_once(one.trace)
    assert round(ms(three.metrics.makespan_ns), 1) == 5.6 and round(ms(one.metrics.makespan_ns), 1) == 9.9
    assert round(three.metrics.bandwidth_gbps["h2d"], -1) == 50
    busy = one.metrics.busy_ns
    assert one.metrics.makespan_ns == pytest.approx(busy["h2d"] + busy["d2h"], rel=0.01)  # the two added up


@pytest.mark.parametrize(("name", "winner"), [("order-h200", "depth"), ("order-c1060", "breadth"),
                                              ("order-c2050", "depth"), ("order-k20c", "neither")])
def test_lessons_depth_vs_breadth(name, winner):
    depth, breadth = (r.metrics.makespan_ns for r in run_on_model(name))
    if winner == "depth":
        assert depth < 0.9 * breadth
    elif winner == "breadth":
        assert breadth < 0.9 * depth
    else:
        assert depth == pytest.approx(breadth, rel=0.01)


def test_lesson_fresh_output_buffer():
    touched, fresh = run_on_model("fresh-output-page-faults")
    assert round(ms(touched.metrics.busy_ns["d2h"])) == 24 and round(ms(fresh.metrics.busy_ns["d2h"])) == 67
    assert round(ms(touched.metrics.makespan_ns)) == 68 and round(ms(fresh.metrics.makespan_ns)) == 111


def host_calls_named(result, name):
    trace = result.trace
    return [int(r) for r in range(len(trace)) if trace.name_of(r) == name]


def test_lesson_what_cudamallochost_costs_against_malloc():
    malloc, pinned = run_on_model("alloc-cudamallochost-vs-malloc")
    touches = [ms(malloc.trace.duration_ns[r]) for r in host_calls_named(malloc, "first touch")]
    pins = [ms(pinned.trace.duration_ns[r]) for r in host_calls_named(pinned, "cudaMallocHost")]
    frees = [ms(pinned.trace.duration_ns[r]) for r in host_calls_named(pinned, "cudaFreeHost")]
    assert [round(t) for t in touches] == [43, 43] and [round(p) for p in pins] == [92, 92]
    assert [round(f) for f in frees] == [24, 24]
    sync = host_calls_named(pinned, "cudaDeviceSynchronize")[0]
    ends = pinned.trace["end_ns"]
    assert all(pinned.trace["start_ns"][r] >= ends[sync] for r in host_calls_named(pinned, "cudaFreeHost"))
    assert pinned.metrics.makespan_ns * 10 < malloc.metrics.makespan_ns
    assert round(ms(pinned.metrics.wall_ns)) == 239 and round(ms(malloc.metrics.wall_ns)) == 156
    assert "alloc-per-run" in codes(malloc) and "alloc-per-run" in codes(pinned)


def test_lesson_allocate_once_and_reuse():
    per_run, reused = run_on_model("alloc-once-and-reuse")
    assert per_run.metrics.makespan_ns == reused.metrics.makespan_ns
    assert round(ms(per_run.metrics.host_alloc_ns)) == 233 and round(ms(per_run.metrics.wall_ns)) == 239
    assert round(ms(reused.metrics.wall_ns)) == 6 and reused.metrics.host_alloc_ns == 0
    found = {f.code: f.message for f in per_run.findings}
    assert "cudaFreeHost" in found["alloc-per-run"] and "alloc-per-run" not in codes(reused)


def test_lesson_asking_to_pin_too_much_loads_and_is_refused_with_the_guards_message(monkeypatch):
    monkeypatch.delenv(PINNED_SHARE_ENV, raising=False)
    preset = get_preset("pin-too-much")
    (config,) = preset.configs
    assert config.size_bytes == 32 * GIB and config.memory is HostMemory.PINNED
    with pytest.raises(PinnedMemoryRefused) as guard:
        check_pinned_request(2 * config.size_bytes, 125 * GIB)
    with pytest.raises(BackendError) as refused:
        run_on_model("pin-too-much")
    assert str(refused.value) == str(guard.value)
    assert "Pinned pages cannot be swapped out" in str(refused.value)


def test_the_lessons_page_has_a_section_for_every_lesson():
    page = (presets_folder().parents[1] / "docs" / "lessons.md").read_text(encoding="utf-8")
    for preset in lessons():
        assert f"`{preset.name}`" in page, preset.name


# --- the lessons on the other kinds of host memory ------------------------------------------------


def named_rows(result, name, kind=None):
    trace = result.trace
    return [r for r in host_calls_named(result, name) if kind is None or trace["kind"][r] == kind]


def test_lesson_write_combined_copies_alike_and_reads_back_on_the_host_lane():
    pinned, combined = run_on_model("write-combined-vs-pinned")
    for direction in ("h2d", "d2h"):
        expected = pinned.metrics.bandwidth_gbps[direction]
        assert combined.metrics.bandwidth_gbps[direction] == pytest.approx(expected, rel=0.01)
    assert combined.metrics.makespan_ns == pytest.approx(pinned.metrics.makespan_ns, rel=0.01)
    read = named_rows(combined, "host read of output")
    assert len(read) == 1 and not named_rows(pinned, "host read of output")
    assert round(256 * 2**20 / combined.trace.duration_ns[read[0]], 1) == 10.1  # GB/s
    assert "write-combined-read" in codes(combined)


def test_lesson_mapped_memory_has_no_copies_and_longer_kernels():
    pinned, mapped = run_on_model("mapped-zero-copy")
    assert not mapped.trace.mask(OpKind.H2D, OpKind.D2H).any() and mapped.metrics.copy_hidden_pct is None
    per_kernel = [ms(r.metrics.busy_ns["kernel"]) / 16 for r in (pinned, mapped)]
    assert [round(k, 1) for k in per_kernel] == [0.3, 0.4]
    assert pinned.metrics.makespan_ns < mapped.metrics.makespan_ns < 1.2 * pinned.metrics.makespan_ns
    assert "mapped-memory" in codes(mapped)


def test_lesson_managed_memory_faults_inside_the_kernels():
    pinned, managed = run_on_model("managed-page-faults")
    assert round(ms(managed.metrics.busy_ns["kernel"])) == 46 and round(ms(pinned.metrics.busy_ns["kernel"])) == 5
    assert not managed.trace.mask(OpKind.H2D, OpKind.D2H, OpKind.PREFETCH).any()
    assert len(named_rows(managed, "host read of output")) == 1 and "managed-faults" in codes(managed)


def test_lesson_managed_prefetch_moves_pages_on_the_copy_engines():
    faults, prefetched = run_on_model("managed-prefetch")
    assert prefetched.metrics.makespan_ns < 0.6 * faults.metrics.makespan_ns
    faulted_back, read = (side.trace.duration_ns[named_rows(side, "host read of output")[0]]
                          for side in (faults, prefetched))  # fmt: skip
    assert read < 0.5 * faulted_back  # no faults back to the host
    trace = prefetched.trace
    prefetches = trace.mask(OpKind.PREFETCH)
    assert set(trace["unit"][prefetches].tolist()) == {Unit.H2D_ENGINE, Unit.D2H_ENGINE}
    to_host = prefetches & (trace["unit"] == Unit.D2H_ENGINE)
    assert round(float(trace["bytes"][to_host].sum() / trace.duration_ns[to_host].sum())) == 15  # GB/s
    assert "prefetch-bound" in codes(prefetched)


def test_lesson_staging_ring_pins_little_and_the_host_sets_the_pace():
    pageable, staged = run_on_model("staging-ring")
    assert staged.metrics.pinned_bytes == 64 * 2**20 and pageable.metrics.pinned_bytes == 0
    copies = staged.trace.mask(OpKind.HOST_COPY)
    assert set(staged.trace["unit"][copies].tolist()) == {Unit.HOST}
    assert round(float(staged.trace["bytes"][copies].sum() / staged.trace.duration_ns[copies].sum()), 1) == 5.7
    assert staged.metrics.wall_ns > pageable.metrics.wall_ns  # as on the H200 machine: the thread loses
    assert "staging-host-bound" in codes(staged)


def test_lesson_cuda_graph_cuts_the_hosts_cost_per_op():
    calls, graph = run_on_model("cuda-graph-many-chunks")
    ops = 3 * 1024
    per_op_us = [side.metrics.host_issue_ns / ops / 1e3 for side in (calls, graph)]
    assert round(per_op_us[0]) == 10 and round(per_op_us[1], 1) == 1.3
    assert "too-many-chunks" in codes(calls) and "too-many-chunks" not in codes(graph)
    assert graph.metrics.makespan_ns < 0.5 * calls.metrics.makespan_ns and "graph-launch" in codes(graph)


def peer_rate(result):
    """GB/s of the run's peer copies."""
    peers = result.trace.mask(OpKind.PEER)
    return float(result.trace["bytes"][peers].sum() / result.trace.duration_ns[peers].sum())


def test_lesson_peer_access_off_stages_each_peer_copy_through_the_host():
    on, off = run_on_model("peer-access-on-vs-off")
    assert {int(d) for d in on.trace["device"][on.trace.device_mask]} == {0, 1}
    assert round(peer_rate(on)) == 50 and round(peer_rate(off)) == 27  # about half: out of GPU 0, then into GPU 1
    assert off.metrics.makespan_ns > 1.5 * on.metrics.makespan_ns
    assert "peer-bound" in codes(off) and "peer-bound" not in codes(on)


def test_lesson_nvlink_makes_the_peer_copies_a_sliver_of_the_run():
    nvlink, host = run_on_model("nvlink-vs-through-the-host")
    assert peer_rate(nvlink) > 7 * peer_rate(host)
    peers = nvlink.trace.mask(OpKind.PEER)
    assert nvlink.trace.duration_ns[peers].sum() < 0.2 * nvlink.metrics.busy_ns["h2d"]
    assert "peer-bound" in codes(host) and "peer-bound" not in codes(nvlink)


def test_lesson_two_gpus_under_one_switch_share_its_link():
    own, shared = run_on_model("two-gpus-one-host-buffer")
    one_gpu = run_pipeline(PipelineConfig(), "sim", "h200")
    assert not own.trace.mask(OpKind.PEER).any()  # split: each chunk stays on its GPU
    assert own.metrics.makespan_ns < 0.6 * one_gpu.metrics.makespan_ns
    assert shared.metrics.makespan_ns >= 0.95 * one_gpu.metrics.makespan_ns
    assert round(shared.metrics.bandwidth_gbps["h2d"]) == round(own.metrics.bandwidth_gbps["h2d"] / 2)


ENGINE_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "1": 1, "2": 2, "3": 3, "4": 4}
COPY_ENGINE_UNITS = (Unit.H2D_ENGINE, Unit.D2H_ENGINE, Unit.COPY_ENGINE)


def test_a_lesson_names_only_the_copy_engines_its_timeline_draws():
    for preset in lessons():
        for config, device, label in zip(preset.configs, preset.devices, preset.labels, strict=True):
            words = f"{preset.title} {preset.text} {label}".lower()
            counts = {ENGINE_COUNT_WORDS[word] for word in re.findall(r"\b(\w+) copy engines?\b", words)
                      if word in ENGINE_COUNT_WORDS}  # fmt: skip
            if not counts:
                continue
            trace = run_pipeline(config, "sim", device).trace
            drawn = {int(unit) for unit in trace["unit"] if unit in COPY_ENGINE_UNITS}
            assert len(drawn) in counts, (preset.name, label, counts, len(drawn))


# --- files that nest too deeply --------------------------------------------------------

DEEP_ARRAYS = 'title = "t"\ntext = "x"\nx = ' + "[" * 5000 + "]" * 5000 + "\n"
DEEP_TABLES = 'title = "t"\ntext = "x"\nx = ' + "{a = " * 5000 + "1" + "}" * 5000 + "\n"


@pytest.mark.parametrize("content", [DEEP_ARRAYS, DEEP_TABLES], ids=["arrays", "inline-tables"])
def test_a_preset_nested_too_deeply_is_refused_in_one_line(tmp_path, content):
    path = tmp_path / "deep.toml"
    path.write_text(content)
    with pytest.raises(PresetError, match=r"deep\.toml: not valid TOML \(it nests arrays or tables too deeply\)"):
        load_preset(path)


def test_presets_in_a_folder_with_a_deep_one_is_bad_input(tmp_path, monkeypatch, capsys):
    (tmp_path / "deep.toml").write_text(DEEP_ARRAYS)
    monkeypatch.setattr("overlapviz.presets.presets_folder", lambda: tmp_path)
    assert main(["presets"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("overlapviz: error: ") and "too deeply" in err and err.count("\n") == 1


def test_a_preset_is_read_only_up_to_its_size_limit(tmp_path):
    path = tmp_path / "huge.toml"
    path.write_bytes(b'title = "t"\ntext = "x"\n' + b"#" * MAX_PRESET_BYTES)
    with pytest.raises(PresetError, match=r"huge\.toml: cannot be read \(it is larger than the limit"):
        load_preset(path)
