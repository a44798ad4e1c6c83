"""The Layout choice (Chain / Split) beside the GPUs choice: what it enables, what it builds, what the window runs."""

import pytest

from overlapviz._qt.main_window import MainWindow
from overlapviz._qt.widgets.controls import ControlsPanel
from overlapviz.core.config import GpuLayout, HostMemory, PipelineConfig


@pytest.fixture
def panel(qtbot):
    panel = ControlsPanel()
    qtbot.addWidget(panel)
    panel.show()
    return panel


def _layout_enabled(panel):
    return [panel.gpu_layout.button(layout).isEnabled() for layout in GpuLayout]


def test_the_layout_is_enabled_with_two_gpus_and_peer_access_only_in_a_chain(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    assert panel.gpu_layout.value() is GpuLayout.CHAIN and _layout_enabled(panel) == [False, False]
    panel.gpu_layout.button(GpuLayout.SPLIT).click()  # disabled with one GPU: nothing happens
    assert committed == [] and panel.gpu_layout.value() is GpuLayout.CHAIN
    panel.gpus.button(2).click()
    assert _layout_enabled(panel) == [True, True] and panel.peer_access_switch.isEnabled()
    panel.gpu_layout.button(GpuLayout.SPLIT).click()
    assert (committed[-1].gpus, committed[-1].gpu_layout, committed[-1].peer_access) == (2, GpuLayout.SPLIT, True)
    assert not panel.peer_access_switch.isEnabled() and not panel.notice.isVisible()
    panel.gpu_layout.button(GpuLayout.CHAIN).click()
    assert committed[-1].gpu_layout is GpuLayout.CHAIN and panel.peer_access_switch.isEnabled()


def test_peer_access_off_is_kept_for_the_chain_while_split_runs_without_it(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.gpus.button(2).click()
    panel.peer_access_switch.click()
    assert committed[-1].peer_access is False
    panel.gpu_layout.button(GpuLayout.SPLIT).click()
    assert committed[-1].is_split and committed[-1].peer_access  # split refuses peer access off: nothing to stage
    panel.gpu_layout.button(GpuLayout.CHAIN).click()
    assert (committed[-1].gpu_layout, committed[-1].peer_access) == (GpuLayout.CHAIN, False)


def test_one_gpu_builds_a_chain_and_two_again_take_the_split_back(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.gpus.button(2).click()
    panel.gpu_layout.button(GpuLayout.SPLIT).click()
    panel.gpus.button(1).click()
    assert (committed[-1].gpus, committed[-1].gpu_layout) == (1, GpuLayout.CHAIN)  # one GPU has no layout to pick
    assert _layout_enabled(panel) == [False, False] and not panel.peer_access_switch.isEnabled()
    panel.gpus.button(2).click()
    assert committed[-1].is_split and not panel.notice.isVisible()


def test_a_loaded_split_config_is_shown_without_signals(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.set_config(PipelineConfig(gpus=2, gpu_layout="split"))
    assert panel.gpu_layout.value() is GpuLayout.SPLIT and _layout_enabled(panel) == [True, True]
    assert not panel.peer_access_switch.isEnabled() and committed == []
    panel.set_config(PipelineConfig())
    assert panel.gpu_layout.value() is GpuLayout.CHAIN and _layout_enabled(panel) == [False, False]


def test_memory_split_cannot_use_is_explained_not_emitted(panel):
    committed = []
    panel.config_committed.connect(committed.append)
    panel.gpus.button(2).click()
    panel.gpu_layout.button(GpuLayout.SPLIT).click()
    committed.clear()
    panel.memory.button(HostMemory.MAPPED).click()
    assert committed == [] and panel.notice.text().startswith("Not a valid pipeline: gpus:")
    panel.memory.button(HostMemory.PAGEABLE).click()
    assert committed[-1].is_split and committed[-1].memory is HostMemory.PAGEABLE


def test_the_tooltips_say_what_each_layout_does(panel):
    chain, split = (panel.gpu_layout.button(layout).toolTip() for layout in GpuLayout)
    assert "peer copy to GPU 1" in chain
    assert "chunk c on GPU c mod 2" in split and "one portable pinned host buffer" in split
    assert "Split makes no peer copies" in panel.peer_access_switch.toolTip()


def _gpus_drawn(window):
    return {p.lane.device for p in window.timeline.scene_items.layout.lanes if p.lane.device is not None}


def test_the_window_runs_split_on_both_gpus_without_a_peer_lane(qtbot, settings):
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.shown() is not None, timeout=10_000)
    combo = window.controls.device_combo
    combo.setCurrentIndex(next(i for i in range(combo.count()) if combo.itemData(i).device == "h200x2-nvlink"))
    window.controls.gpus.button(2).click()
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.config.get("gpus") == 2, timeout=10_000)
    window.controls.gpu_layout.button(GpuLayout.SPLIT).click()
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.config.get("gpu_layout") == "split", timeout=10_000)
    assert window.banner.message() == "" and _gpus_drawn(window) == {0, 1}
    titles = {p.lane.title for p in window.timeline.scene_items.layout.lanes}
    assert {"GPU 0: H2D engine", "GPU 1: H2D engine"} <= titles and not any("Peer" in t for t in titles)
