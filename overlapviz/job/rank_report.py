"""What ``overlapviz analyze --json`` says of one trace: its figures, where it ran, its findings, per GPU.

One place for the object, so that a rank of a job (`overlapviz.job.summary`) carries every
figure a single file's report has, in the same words.
"""

from __future__ import annotations

from typing import Any

from overlapviz.core.analysis.trace_facts import pipeline_settings
from overlapviz.core.devices.figures import findings_per_device, gpu_names, metrics_per_device
from overlapviz.core.trace.lanes import gpus_of
from overlapviz.run_report import finite_json, json_gpu, json_run
from overlapviz.session import RunResult


def trace_report(trace_text: str, result: RunResult) -> dict[str, Any]:
    """The JSON object of one trace's figures and findings, ``trace`` naming its file."""
    report = {
        "trace": trace_text,
        **json_run(pipeline_settings(result.trace), result),
        "per_device": _json_gpus(result),
    }
    finite: dict[str, Any] = finite_json(report)
    return finite


def _json_gpus(result: RunResult) -> list[dict[str, Any]]:
    """Each GPU's figures and findings, one entry per GPU (one for a trace of one GPU)."""
    trace = result.trace
    names, gpus = gpu_names(trace.meta), gpus_of(trace)
    if len(gpus) == 1:  # its part is the whole trace: the figures already worked out are its own
        return [json_gpu(gpus[0], names.get(gpus[0]), result.metrics, result.findings)]
    metrics, findings = metrics_per_device(trace), findings_per_device(trace)
    return [json_gpu(device, names.get(device), figures, findings[device]) for device, figures in metrics.items()]
