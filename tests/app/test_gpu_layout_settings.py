"""A split two-GPU config is remembered across starts and undone like any other change."""

from fakes import H200, SIM_TARGETS, DictSettings, ManualTimer, Messages, QueuedExecutor
from test_controller import model_run

from overlapviz.app import remembered
from overlapviz.app.controller import AppController
from overlapviz.app.model import AppModel
from overlapviz.core.config import GpuLayout, PipelineConfig

NVLINK = next(t for t in SIM_TARGETS if t.device == "h200x2-nvlink")
CHAIN = PipelineConfig(size_bytes=16 << 20, chunks=4, streams=2, gpus=2)
SPLIT = CHAIN.replace(gpu_layout="split")


def _controller(settings: DictSettings) -> AppController:
    return AppController(AppModel(), QueuedExecutor(), Messages(), ManualTimer(), run_function=model_run,
                         targets=SIM_TARGETS, default=H200, lessons=[], settings=settings)  # fmt: skip


def test_a_split_config_is_remembered_and_restored() -> None:
    settings = DictSettings()
    app = _controller(settings)
    app.model.set_live(False)
    app.choose_target(NVLINK)
    app.commit_config(SPLIT)
    assert '"gpu_layout": "split"' in settings.get(remembered.CONFIG_KEY)
    again = _controller(settings)
    assert again.model.config == SPLIT and again.model.config.gpu_layout is GpuLayout.SPLIT


def test_undo_puts_the_chain_back_and_redo_the_split() -> None:
    app = _controller(DictSettings())
    app.model.set_live(False)
    app.commit_config(CHAIN)
    app.commit_config(SPLIT)
    assert app.undo() and app.model.config == CHAIN
    assert app.redo() and app.model.config == SPLIT
