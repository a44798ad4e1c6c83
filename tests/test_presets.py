import re
import textwrap
from pathlib import Path

import pytest

from overlapviz.core.config import (
    HostMemory,
    IssueOrder,
    KernelKind,
    PipelineConfig,
    StreamKind,
)
from overlapviz.presets import (
    Preset,
    PresetError,
    UnknownPresetError,
    get_preset,
    load_preset,
    load_presets,
    preset_names,
    presets_folder,
)

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
        if preset.is_comparison:
            assert all(preset.labels) and preset.labels[0] != preset.labels[1]
            assert preset.configs[0] != preset.configs[1]


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
    assert not preset.is_comparison


def test_comparison_has_two_configs_and_labels(tmp_path):
    preset = load_preset(write(tmp_path, "cmp", GOOD_PAIR))
    assert preset.is_comparison
    assert preset.labels == ("pageable", "pinned")
    assert preset.configs[0] == PipelineConfig(memory=HostMemory.PAGEABLE)
    assert preset.configs[1] == PipelineConfig(size_bytes=1024 * 1024)
    assert preset.text == "Pageable memory is staged. Pinned memory is not."  # lines joined
    assert (preset.device, preset.backend) == ("h200", "sim")


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
        ("title = 'x'\ntext = 'y'\n[config]\nchunks = 3\n", r"\[config\] chunks: 3 chunks do not divide"),
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
