"""The controls panel: sliders and toggles that edit a `PipelineConfig`.

Also the device picker, the Run button and the Live switch. The form is ui/controls.ui.
While a trace opened from another tool's file is on show, the settings are set aside: faded,
under a note that they describe runs of the pipeline, not that file (`set_aside`). They stay
usable: changing one, or Run, makes them the picture's again.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import QComboBox, QGraphicsOpacityEffect, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget
from superqt import QToggleSwitch

from overlapviz._qt.translation import translate
from overlapviz._qt.widgets.choice_group import ChoiceGroup
from overlapviz._qt.widgets.forms import child, load_form
from overlapviz._qt.widgets.step_slider import StepSlider
from overlapviz.app.kernel_time import KernelTimeHint
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.config import ConfigError, GpuLayout, PipelineConfig, format_size
from overlapviz.core.config.setting import Control, Setting
from overlapviz.core.config.settings import SETTINGS
from overlapviz.core.i18n import grouped
from overlapviz.view.kernel_time import KernelRate
from overlapviz.view.slider_values import (
    ITER_VALUES,
    RING_SLOT_VALUES,
    SIZE_VALUES,
    STREAM_VALUES,
    chunk_values,
    nearest_value,
)

SET_ASIDE_NOTE = str(
    QT_TRANSLATE_NOOP(
        "ControlsPanel", "These settings describe runs of the pipeline, not the opened file. Run to go back."
    )
)
SET_ASIDE_OPACITY = 0.4  # faded, still legible: they are what the next run runs
SETTINGS_BOXES = ("pipeline_box", "memory_box", "order_box", "stream_kind_box")


class ControlsPanel(QWidget):
    """Edits the pipeline; says when a value had to be adjusted.

    `config_edited` fires while a slider is dragged; `config_committed` when a change is
    final (slider released, toggle clicked, key step). Both carry the new `PipelineConfig`,
    built once from the controls per change. The panel shows what it is told (`set_config`,
    from the application model) and says what the user asks for; it decides nothing.
    """

    config_edited = Signal(object)
    config_committed = Signal(object)
    run_clicked = Signal()
    live_toggled = Signal(bool)
    target_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = load_form("controls.ui", self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.set_aside_note = _set_aside_note(self)
        layout.addWidget(self.set_aside_note)
        layout.addWidget(form)
        self.notice = child(form, QLabel, "notice_label")
        self.device_combo = child(form, QComboBox, "device_combo")
        self.run_button = child(form, QPushButton, "run_button")
        self.live_switch = child(form, QToggleSwitch, "live_switch")
        # the settings' own controls, found by the names their declarations give them
        self.sliders = {s.name: child(form, StepSlider, f"{s.preset_key}_slider") for s in _controlled(Control.SLIDER)}
        self.switches = {s.name: _switch(form, s) for s in _controlled(Control.SWITCH)}
        self.choices = {s.name: _choice_group(form, s, self) for s in _controlled(Control.CHOICE)}
        self._name_controls()
        self._config = PipelineConfig()  # the last valid config shown or asked for
        self._wanted_chunks = self._config.chunks
        self._kernel_hint = KernelTimeHint()
        faded = [child(form, QGroupBox, name) for name in SETTINGS_BOXES] + [self.device_combo]
        self._fades = [_fade(widget) for widget in faded]
        self._connect()
        self._show(self._config)

    def _name_controls(self) -> None:
        """Each setting's control under its own name too, for the code that handles one of them."""
        self.size_slider, self.chunks_slider = self.sliders["size_bytes"], self.sliders["chunks"]
        self.streams_slider, self.iters_slider = self.sliders["streams"], self.sliders["iters"]
        self.ring_slots_slider = self.sliders["ring_slots"]
        self.graph_switch, self.peer_access_switch = self.switches["graph"], self.switches["peer_access"]
        self.memory, self.order = self.choices["memory"], self.choices["order"]
        self.stream_kind = self.choices["stream_kind"]
        self.gpus, self.gpu_layout = self.choices["gpus"], self.choices["gpu_layout"]

    # --- configuration ---------------------------------------------------------------

    def config(self) -> PipelineConfig:
        """The pipeline the controls describe (the last valid one)."""
        return self._config

    def set_config(self, config: PipelineConfig) -> None:
        """Show `config` exactly (a value the sliders lack is added to them); no signals.

        Showing the config the controls already describe does nothing, so the model can hand
        back what a slider being dragged has just asked for.
        """
        if config != self._config:
            self._show(config)

    def _show(self, config: PipelineConfig) -> None:
        self._config = config
        for name, (values, text, log) in _slider_looks(config).items():
            value = getattr(config, name)
            self.sliders[name].configure(_with(values, value), text, log=log)
            self.sliders[name].set_value(value)
        self._wanted_chunks = config.chunks
        for name, switch in self.switches.items():
            checked = bool(getattr(config, name))
            if switch.isChecked() != checked:  # every setChecked animates the handle, even to the same state
                switch.blockSignals(True)
                switch.setChecked(checked)
                switch.blockSignals(False)
        for name, group in self.choices.items():
            group.set_value(getattr(config, name))
        self._show_adjustments()
        self._show_kernel_time(config)

    def set_kernel_rate(self, rate: KernelRate | None) -> None:
        """Learn the kernel's `rate` in a run on show (None: nothing new) for the label on its device."""
        self._kernel_hint.learn(rate)
        self._show_kernel_time()

    def set_aside(self, aside: bool) -> None:
        """Fade the settings under the note that they do not describe the opened file (False: as usual)."""
        self.set_aside_note.setVisible(aside)
        for fade in self._fades:
            fade.setEnabled(aside)

    def is_set_aside(self) -> bool:
        """Whether the settings are faded under the note."""
        return not self.set_aside_note.isHidden()

    # --- targets and run -------------------------------------------------------------

    def set_targets(self, targets: list[RunTarget], current: RunTarget | None) -> None:
        """Offer `targets` in the device picker, `current` selected; no signal."""
        self.device_combo.blockSignals(True)
        self.device_combo.clear()
        for target in targets:
            self.device_combo.addItem(target.title, target)
        if current in targets:
            self.device_combo.setCurrentIndex(targets.index(current))
        self.device_combo.blockSignals(False)
        self._show_kernel_time()

    def target(self) -> RunTarget | None:
        """The chosen backend and device."""
        data = self.device_combo.currentData()
        return data if isinstance(data, RunTarget) else None

    def set_target(self, target: RunTarget | None) -> None:
        """Select `target` in the device picker, if offered; no signal."""
        for index in range(self.device_combo.count()):
            if self.device_combo.itemData(index) == target:
                self.device_combo.blockSignals(True)
                self.device_combo.setCurrentIndex(index)
                self.device_combo.blockSignals(False)
        self._show_kernel_time()

    def is_live(self) -> bool:
        """Whether every change runs the pipeline again."""
        return self.live_switch.isChecked()

    def set_live(self, live: bool) -> None:
        """Switch live mode on or off (emits `live_toggled` when it changes)."""
        self.live_switch.setChecked(live)

    # --- internals -------------------------------------------------------------------

    def _connect(self) -> None:
        for slider in self._sliders():
            slider.value_changed.connect(self._on_slider_moved)
            slider.value_committed.connect(self._on_slider_committed)
        for group in self.choices.values():
            group.chosen.connect(lambda _value: self._commit())
        for switch in self.switches.values():
            switch.toggled.connect(lambda _on: self._commit())
        self.run_button.clicked.connect(self.run_clicked)
        self.live_switch.toggled.connect(self.live_toggled)
        self.device_combo.currentIndexChanged.connect(self._on_target_chosen)

    def _on_target_chosen(self, _index: int) -> None:
        self._show_kernel_time()
        self.target_changed.emit(self.target())

    def _on_slider_moved(self, _value: int) -> None:
        self._sync_chunks()
        if self.sender() is self.chunks_slider:
            self._wanted_chunks = self.chunks_slider.value()
        config = self._current_or_notice()
        if config is not None and self._is_dragging():
            self.config_edited.emit(config)

    def _on_slider_committed(self, _value: int) -> None:
        self._commit()

    def _commit(self) -> None:
        config = self._current_or_notice()
        if config is not None:
            self.config_committed.emit(config)

    def _is_dragging(self) -> bool:
        return any(s.is_dragging() for s in self._sliders())

    def _sliders(self) -> tuple[StepSlider, ...]:
        return tuple(self.sliders.values())

    def _sync_chunks(self) -> None:
        """Offer the chunk counts the current size allows (one element per chunk at least); keep the user's wish."""
        values = chunk_values(self.size_slider.value())
        if values != self.chunks_slider.values():
            self.chunks_slider.configure(values, str)
            self.chunks_slider.set_value(nearest_value(values, self._wanted_chunks))

    def _current_or_notice(self) -> PipelineConfig | None:
        """The config the controls describe now (built once per change), or None with the reason shown."""
        gpus = self.gpus.value()
        # with one GPU the layout is the chain's and the peer access on: the buttons keep the
        # user's choice for when two GPUs are chosen again
        layout = self.gpu_layout.value() if gpus > 1 else GpuLayout.CHAIN
        self._enable_gpu_controls(gpus, layout)
        peer_access = self.peer_access_switch.isChecked() or not _has_peer_copies(gpus, layout)
        values = {name: slider.value() for name, slider in self.sliders.items()}
        values |= {name: switch.isChecked() for name, switch in self.switches.items()}
        values |= {name: group.value() for name, group in self.choices.items()}
        try:
            config = self._config.replace(**values | {"gpu_layout": layout, "peer_access": peer_access})
        except ConfigError as error:
            self.notice.setText(translate("ControlsPanel", "Not a valid pipeline: {error}").format(error=error))
            self.notice.setVisible(True)
            return None
        self._config = config
        self._show_adjustments()
        self._show_kernel_time(config)
        return config

    def _show_adjustments(self) -> None:
        self.ring_slots_slider.setEnabled(self._config.uses_ring)  # the slots are kept for when staged is chosen
        self._enable_gpu_controls(self._config.gpus, self._config.gpu_layout)
        chunks = self.chunks_slider.value()
        wanted = self._wanted_chunks
        text = "" if wanted == chunks else _chunks_not_offered(wanted, chunks, self.size_slider.value())
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def _enable_gpu_controls(self, gpus: int, layout: GpuLayout) -> None:
        """The layout matters with two GPUs, peer access only where chunks cross between them."""
        for button in (self.gpu_layout.button(choice) for choice in GpuLayout):
            button.setEnabled(gpus > 1)
        self.peer_access_switch.setEnabled(_has_peer_copies(gpus, layout))

    def _show_kernel_time(self, config: PipelineConfig | None = None) -> None:
        shown = self._config if config is None else config
        self.iters_slider.set_detail(self._kernel_hint.text(shown, self.target()))


def _set_aside_note(parent: QWidget) -> QLabel:
    """The note above the settings while they are set aside (hidden until then)."""
    note = QLabel(translate("ControlsPanel", SET_ASIDE_NOTE), parent)
    note.setObjectName("set_aside_note")
    note.setWordWrap(True)
    note.setContentsMargins(8, 6, 8, 6)
    note.hide()
    return note


def _fade(widget: QWidget) -> QGraphicsOpacityEffect:
    """An opacity effect on `widget`, off until the settings are set aside."""
    effect = QGraphicsOpacityEffect(widget)
    effect.setOpacity(SET_ASIDE_OPACITY)
    effect.setEnabled(False)
    widget.setGraphicsEffect(effect)
    return effect


def _controlled(control: Control) -> list[Setting[object]]:
    """The settings the panel edits with `control`, in the declarations' order."""
    return [setting for setting in SETTINGS if setting.control is control]


def _switch(form: QWidget, setting: Setting[object]) -> QToggleSwitch:
    """The switch of `setting`, called <key>_switch."""
    return child(form, QToggleSwitch, f"{setting.preset_key}_switch")


def _choice_group(form: QWidget, setting: Setting[object], parent: QWidget) -> ChoiceGroup[Any]:
    """The buttons of `setting`'s choices, called <key>_<choice>."""
    key = setting.preset_key
    buttons = {value: child(form, QPushButton, f"{key}_{_choice_name(value)}") for value in setting.choices()}
    return ChoiceGroup(buttons, parent)


def _choice_name(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


def _slider_looks(config: PipelineConfig) -> dict[str, tuple[tuple[int, ...], Callable[[int], str], bool]]:
    """Per slider: the values it offers for `config`, how it shows one, and whether its scale is a log one."""
    return {
        "size_bytes": (SIZE_VALUES, format_size, True),
        "chunks": (chunk_values(config.size_bytes), str, True),
        "streams": (STREAM_VALUES, str, False),
        "iters": (ITER_VALUES, _iters_text, True),
        "ring_slots": (RING_SLOT_VALUES, str, True),
    }


def _with(values: tuple[int, ...], extra: int) -> tuple[int, ...]:
    """`values` with `extra` added in order (a loaded config may hold a value off the ladder)."""
    return values if extra in values else tuple(sorted((*values, extra)))


def _has_peer_copies(gpus: int, layout: GpuLayout) -> bool:
    """Whether chunks go from GPU to GPU, the only copies peer access changes."""
    return gpus > 1 and layout is GpuLayout.CHAIN


def _chunks_not_offered(wanted: int, chunks: int, size_bytes: int) -> str:
    """The notice that `wanted` chunks cannot split `size_bytes`, so `chunks` are used."""
    if wanted == 1:
        text = translate(
            "ControlsPanel", "{wanted} chunk is not offered for {size}: using {chunks}, the nearest count that is."
        )
    else:
        text = translate(
            "ControlsPanel", "{wanted} chunks are not offered for {size}: using {chunks}, the nearest count that is."
        )
    return text.format(wanted=grouped(wanted), size=format_size(size_bytes), chunks=grouped(chunks))


def _iters_text(iters: int) -> str:
    """The kernel's iterations as the slider shows them, ungrouped as its other values (0: no kernel work)."""
    if not iters:
        return translate("ControlsPanel", "none")
    text = translate("ControlsPanel", "{count} iter") if iters == 1 else translate("ControlsPanel", "{count} iters")
    return text.format(count=iters)
