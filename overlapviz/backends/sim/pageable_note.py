"""The sentence that puts a modelled pageable time beside what real machines measured.

A model run from pageable memory gives one number, the one its profile's rates give; real
machines of the same GPU take anywhere in a range, because the host's memory system sets
the speed of pageable copies. The command line's summary and the app's status bar show this
sentence next to such a run, so that a learner does not take the model's number for the
machine's.
"""

from __future__ import annotations

from overlapviz.backends.sim.pageable_spread import PageableSpread
from overlapviz.backends.sim.profile import DeviceProfile
from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.config import HostMemory, PipelineConfig, format_size
from overlapviz.core.i18n import _
from overlapviz.core.number_text import rate_text, significant
from overlapviz.core.trace.spans import Trace


def pageable_spread_note(trace: Trace, profile: DeviceProfile) -> str | None:
    """One sentence on how real pageable times vary, for a model run of `profile` from pageable memory.

    For the pipeline that was measured, the sentence gives the measured makespans; for any
    other pageable pipeline, the measured copy rates next to the model's. None for a run on a
    real GPU, a run from pinned or registered memory, or a profile with no measurements.
    """
    spread = profile.pageable_spread
    config = _model_run_config(trace)
    if spread is None or config is None or config.memory is not HostMemory.PAGEABLE:
        return None
    # the machines and dates are the measurements' own words (the device profile's), kept as they are
    where = f"{spread.machines} ({' and '.join(spread.dates)})"
    if _is_measured_pipeline(config, spread):
        fastest, slowest = spread.pipeline_ms
        return _("Real pageable times vary with the host's memory system: this pipeline measured {low}-{high} ms on"
                 " {where}.").format(low=significant(fastest), high=significant(slowest), where=where)
    return _(
        "Real pageable copies vary with the host's memory system: single copies of {size} measured {h2d} H2D and"
        " {d2h} D2H on {where}; the model copies at {model_h2d} and {model_d2h}."
    ).format(
        size=format_size(spread.copy_bytes), h2d=_gbps(spread.h2d_gbps), d2h=_gbps(spread.d2h_gbps), where=where,
        model_h2d=significant(profile.pageable_h2d_gbps), model_d2h=rate_text(profile.pageable_d2h_gbps),
    )  # fmt: skip


def _model_run_config(trace: Trace) -> PipelineConfig | None:
    """The pipeline of a run the model drew, or None for a real GPU's run or one without a config."""
    meta = trace.meta
    if meta.simulated is not True or meta.timing != "model":
        return None
    return pipeline_settings(trace)


def _is_measured_pipeline(config: PipelineConfig, spread: PageableSpread) -> bool:
    # Where the host buffers were allocated does not change the device's part (the makespan).
    return config.replace(host_alloc=spread.pipeline.host_alloc) == spread.pipeline


def _gbps(low_high: tuple[float, float]) -> str:
    low, high = low_high
    return f"{significant(low)}-{rate_text(high)}"
