"""The two-GPU controls in the window: a device that cannot run them says so, one that can draws both GPUs."""


from overlapviz.backends.sim.peer_link import missing_peer_message
from overlapviz.core.config import PipelineConfig


def _choose_device(window, device):
    combo = window.controls.device_combo
    combo.setCurrentIndex(next(i for i in range(combo.count()) if combo.itemData(i).device == device))


def _gpus_drawn(window):
    return {p.lane.device for p in window.timeline.scene_items.layout.lanes if p.lane.device is not None}


def test_two_gpus_on_a_one_gpu_model_show_its_refusal_and_change_nothing_else(window, qtbot):
    assert window.shown().result.trace.meta.device == "h200"
    before = window.timeline.trace
    window.controls.gpus.button(2).click()
    qtbot.waitUntil(lambda: window.banner.message() != "", timeout=10_000)
    assert window.banner.message() == f"The run did not complete: {missing_peer_message('h200')}"
    assert window.timeline.trace is before and window.controls.isEnabled()
    assert window.controls.peer_access_switch.isEnabled()  # the controls stay usable
    _choose_device(window, "h200x2-nvlink")
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.device == "h200x2-nvlink", timeout=10_000)
    assert window.banner.message() == ""
    assert PipelineConfig.from_dict(window.shown().result.trace.meta.config).gpus == 2
    assert _gpus_drawn(window) == {0, 1}


def test_peer_access_off_runs_again_with_the_peer_copies_staged(window, qtbot):
    _choose_device(window, "h200x2-nvlink")
    window.controls.gpus.button(2).click()
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.config.get("gpus") == 2, timeout=10_000)
    window.controls.peer_access_switch.click()
    qtbot.waitUntil(lambda: window.shown().result.trace.meta.config.get("peer_access") is False, timeout=10_000)
    assert window.banner.message() == "" and _gpus_drawn(window) == {0, 1}
