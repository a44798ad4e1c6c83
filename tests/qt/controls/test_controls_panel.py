import pytest
from paint_probes import Paints

from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz.app.run_targets import RunTarget
from overlapviz.backends.sim.ops import kernel_cost
from overlapviz.backends.sim.profile import load_profile
from overlapviz.core.config import MIB, HostMemory, IssueOrder, KernelKind, PipelineConfig, StreamKind
from overlapviz.view.formatting import format_duration
from overlapviz.view.kernel_time import KernelRate


@pytest.fixture
def panel(qtbot):
    panel = ControlsPanel()
    qtbot.addWidget(panel)
    panel.show()
    return panel


def _drag(slider, value):
    """Hold the handle, move it to `value`, let go (as a mouse drag does)."""
    inner = slider._slider._slider
    inner.setSliderDown(True)
    inner.setValue(slider.values().index(value))
    inner.setSliderDown(False)


def test_starts_on_the_default_pipeline(panel):
    assert panel.config() == PipelineConfig()
    assert panel.size_slider.value_text() == "256 MiB"
    assert panel.iters_slider.value_text() == "1860 iters"


def test_dragging_edits_then_commits_the_new_config(panel, qtbot):
    edited, committed = [], []
    panel.config_edited.connect(edited.append)
    panel.config_committed.connect(committed.append)
    _drag(panel.streams_slider, 8)
    assert edited[-1].streams == 8
    assert [c.streams for c in committed] == [8]
    assert panel.config().streams == 8


@pytest.mark.parametrize(
    ("group", "value", "field"),
    [
        ("memory", HostMemory.PAGEABLE, "memory"),
        ("memory", HostMemory.REGISTERED, "memory"),
        ("order", IssueOrder.BREADTH, "order"),
        ("stream_kind", StreamKind.LEGACY, "stream_kind"),
    ],
)
def test_toggles_commit_their_value(panel, qtbot, group, value, field):
    with qtbot.waitSignal(panel.config_committed) as blocker:
        getattr(panel, group).button(value).click()
    assert getattr(blocker.args[0], field) is value
    assert getattr(panel.config(), field) is value


def test_chunk_counts_that_do_not_divide_the_size_are_offered(panel):
    _drag(panel.streams_slider, 3)
    _drag(panel.chunks_slider, 12)  # 12 does not divide 2^26 elements: the last chunk is longer
    config = panel.config()
    assert (config.streams, config.chunks) == (3, 12)
    assert not panel.notice.isVisible()


def test_set_config_shows_values_off_the_ladder_exactly(panel):
    config = PipelineConfig(size_bytes=100 * MIB, chunks=25, streams=48, iters=1000)
    with_signals = []
    panel.config_committed.connect(with_signals.append)
    panel.set_config(config)
    assert panel.config() == config and with_signals == []
    assert panel.size_slider.value_text() == "100 MiB"


def test_kernel_time_label_follows_the_slider(panel):
    default = PipelineConfig()
    gpu = RunTarget("cupy", "0", "GPU 0 (real GPU, cupy)", False)
    panel.set_targets([gpu], gpu)
    panel.set_kernel_rate(KernelRate(1e6 / (default.chunk_elements * default.iters), "cupy", "0", KernelKind.FMA))
    assert panel.iters_slider._detail_label.text() == "\u2248 1.00 ms per chunk"
    _drag(panel.chunks_slider, 32)
    assert panel.iters_slider._detail_label.text() == "\u2248 0.500 ms per chunk"
    _drag(panel.iters_slider, 0)
    assert panel.iters_slider._detail_label.text() == "copies only: no kernel work"


def test_targets_and_live_switch(panel, qtbot):
    targets = [RunTarget("sim", "h200", "H200 (model)", True), RunTarget("sim", "tesla-c1060", "C1060", True)]
    panel.set_targets(targets, targets[1])
    assert panel.target() == targets[1]
    with qtbot.waitSignal(panel.target_changed) as blocker:
        panel.device_combo.setCurrentIndex(0)
    assert blocker.args == [targets[0]]
    with qtbot.waitSignal(panel.live_toggled) as blocker:
        panel.set_live(True)
    assert blocker.args == [True] and panel.is_live()


def test_an_invalid_combination_is_explained_not_emitted(panel, monkeypatch):
    committed = []
    panel.config_committed.connect(committed.append)
    monkeypatch.setattr("overlapviz._qt.widgets.controls.chunk_values", lambda size: (1 << 17,))  # over MAX_CHUNKS
    _drag(panel.size_slider, 4 * MIB)  # the only "offered" count is now 2^17
    assert committed == []
    assert panel.notice.isVisible() and panel.notice.text().startswith("Not a valid pipeline: chunks:")


def test_kernel_time_label_is_for_the_device_on_show(panel):
    h200, tesla = RunTarget("sim", "h200", "H200 (model)", True), RunTarget("sim", "tesla-c1060", "C1060", True)
    panel.set_targets([h200, tesla], tesla)
    big = PipelineConfig(size_bytes=32 << 30)
    panel.set_config(big)
    on_tesla = panel.iters_slider._detail_label.text()
    panel.set_target(h200)  # as a lesson does after setting its pipeline: no signal
    on_h200 = panel.iters_slider._detail_label.text()
    assert on_h200 == f"\u2248 {format_duration(kernel_cost(big, load_profile('h200'))[0])} per chunk" != on_tesla
    panel.set_config(PipelineConfig())
    panel.set_config(big)  # entering the lesson again reads the same
    assert panel.iters_slider._detail_label.text() == on_h200


def test_the_ring_slots_slider_is_for_staged_memory_and_commits_its_count(panel, qtbot):
    assert not panel.ring_slots_slider.isEnabled()  # pinned memory has no ring
    panel.memory.button(HostMemory.STAGED).click()
    assert panel.ring_slots_slider.isEnabled()
    committed = []
    panel.config_committed.connect(committed.append)
    _drag(panel.ring_slots_slider, 8)
    assert [(c.memory, c.ring_slots) for c in committed] == [(HostMemory.STAGED, 8)]
    panel.memory.button(HostMemory.PINNED).click()
    assert not panel.ring_slots_slider.isEnabled() and panel.config().ring_slots == 8  # kept for staged again


def test_the_graph_switch_commits_a_graph_run_and_shows_a_loaded_one(panel, qtbot):
    with qtbot.waitSignal(panel.config_committed) as blocker:
        panel.graph_switch.click()
    assert blocker.args[0].graph is True and panel.config().graph is True
    committed = []
    panel.config_committed.connect(committed.append)
    panel.set_config(PipelineConfig(memory="staged", ring_slots=5))
    assert not panel.graph_switch.isChecked() and panel.ring_slots_slider.value() == 5 and committed == []


def test_a_graph_on_memory_it_cannot_hold_is_explained_not_emitted(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.graph_switch.click()
    committed.clear()
    panel.memory.button(HostMemory.PAGEABLE).click()
    assert committed == []
    assert panel.notice.isVisible() and panel.notice.text().startswith("Not a valid pipeline: graph:")


def test_the_gpus_choice_and_peer_access_switch_build_a_two_gpu_config(panel, qtbot):
    assert panel.gpus.value() == 1 and not panel.peer_access_switch.isEnabled()
    committed = []
    panel.config_committed.connect(committed.append)
    panel.gpus.button(2).click()
    assert panel.peer_access_switch.isEnabled()
    panel.peer_access_switch.click()
    assert [(c.gpus, c.peer_access) for c in committed] == [(2, True), (2, False)]
    panel.gpus.button(1).click()
    assert (committed[-1].gpus, committed[-1].peer_access) == (1, True)  # one GPU has no peer to reach
    assert not panel.peer_access_switch.isEnabled() and not panel.peer_access_switch.isChecked()
    panel.gpus.button(2).click()
    assert (committed[-1].gpus, committed[-1].peer_access) == (2, False)  # the switch kept its setting
    assert not panel.notice.isVisible()


def test_a_loaded_two_gpu_config_is_shown_without_signals(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.set_config(PipelineConfig(gpus=2, peer_access=False))
    assert panel.gpus.value() == 2 and panel.peer_access_switch.isEnabled()
    assert not panel.peer_access_switch.isChecked() and committed == []
    panel.set_config(PipelineConfig())
    assert panel.gpus.value() == 1 and not panel.peer_access_switch.isEnabled()


@pytest.mark.parametrize("memory", [HostMemory.MAPPED, HostMemory.MANAGED, HostMemory.STAGED])
def test_memory_two_gpus_cannot_use_is_explained_not_emitted(panel, memory):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.gpus.button(2).click()
    committed.clear()
    panel.memory.button(memory).click()
    assert committed == [] and panel.config().memory is HostMemory.PINNED
    assert panel.notice.isVisible() and panel.notice.text().startswith("Not a valid pipeline: gpus:")
    panel.memory.button(HostMemory.PINNED).click()  # the controls carry on
    assert committed[-1].gpus == 2 and not panel.notice.isVisible()


def test_two_gpus_on_memory_or_a_graph_they_refuse_is_explained_not_emitted(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.graph_switch.click()
    committed.clear()
    panel.gpus.button(2).click()
    assert committed == [] and panel.config().gpus == 1
    assert panel.notice.text() == (
        "Not a valid pipeline: gpus: a CUDA Graph over two GPUs is not modelled: run two GPUs without --graph"
    )
    panel.graph_switch.click()
    assert (committed[-1].gpus, committed[-1].graph) == (2, False)


def test_showing_a_config_repaints_no_switch_it_leaves_as_it_was(panel, qtbot):
    """A switch animates its handle on every setChecked, even to the state it has: several repaints of the panel."""
    qtbot.waitExposed(panel)
    qtbot.wait(200)  # the first paint
    paints = Paints(*panel.switches.values())
    panel.set_config(PipelineConfig(streams=3))
    qtbot.wait(200)  # a handle's animation lasts 120 ms
    assert paints.count == 0
    panel.set_config(PipelineConfig(streams=3, graph=True))
    qtbot.wait(200)
    assert paints.count > 0  # the switch that changed moves
