"""Each GPU of a trace apart from the others: its figures and findings, and the GPUs' names on one line.

Each name lives in one module of the package; import it from there inside overlapviz.
"""

from overlapviz.core.devices.figures import (
    findings_per_device,
    gpu_names,
    gpu_part,
    gpu_title,
    metrics_per_device,
    trace_findings,
)
from overlapviz.core.devices.names import shown_device_name

__all__ = [
    "findings_per_device",
    "gpu_names",
    "gpu_part",
    "gpu_title",
    "metrics_per_device",
    "shown_device_name",
    "trace_findings",
]
