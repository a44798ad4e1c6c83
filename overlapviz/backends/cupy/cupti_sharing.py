"""Whether CUPTI's records of a run are this backend's alone: the decisions (pure, no GPU).

A process has one set of CUPTI buffer callbacks, and before CUPTI 13.5 one subscriber.
Another CUPTI client in the process (torch.profiler, Nsight Systems, a second overlapviz)
holds the subscription, or re-registers the callbacks and takes the records, or turns kinds
on and off, or makes records of its own kinds arrive in ours; and a run traced by two
clients at once is not the run a learner asked about. So CUPTI times a run only when
nothing, checked before and after it, says that another client is there. Otherwise that run
is timed with CUDA events and the trace says why. Where CUPTI allows several subscribers,
the subscription check says nothing, and the checks on the records carry the decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from overlapviz.backends.cupy.cupti_records import ApiRecord, DeviceRecord
from overlapviz.backends.cupy.cupti_trace import RecordMismatch, check_matches_plan
from overlapviz.core.config.pipeline_plan import PlannedOp
from overlapviz.core.i18n import _
from overlapviz.core.trace.spans import OpKind


@dataclass(frozen=True, slots=True)
class Delivery:
    """What CUPTI handed over since the last take: the records used, and counts of the others.

    `foreign` counts records of activity kinds this backend never enabled, by kind name:
    only another client can have turned those on.
    """

    apis: list[ApiRecord] = field(default_factory=list)
    devices: list[DeviceRecord] = field(default_factory=list)
    foreign: Mapping[str, int] = field(default_factory=dict)


def merge(deliveries: Iterable[Delivery]) -> Delivery:
    """One delivery holding every record of `deliveries`, in order, and the summed counts."""
    apis: list[ApiRecord] = []
    devices: list[DeviceRecord] = []
    foreign: Counter[str] = Counter()
    for delivery in deliveries:
        apis += delivery.apis
        devices += delivery.devices
        foreign.update(delivery.foreign)
    return Delivery(apis, devices, dict(foreign))


def subscriber_reason(status_name: str) -> str:
    """Why CUPTI is taken when subscribing failed with `status_name` ("" when it is not)."""
    if "MULTIPLE_SUBSCRIBERS" not in status_name.upper().replace(" ", "_"):
        return ""
    return (
        "another profiler or CUPTI client (torch.profiler, Nsight Systems, a second overlapviz)"
        f" is attached to this process ({status_name})"
    )


def foreign_reason(foreign: Mapping[str, int]) -> str:
    """Why records of kinds overlapviz never enabled mean CUPTI is shared ("" when none came)."""
    seen = {kind: count for kind, count in foreign.items() if count > 0}
    if not seen:
        return ""
    kinds = ", ".join(f"{kind} x{count}" for kind, count in sorted(seen.items()))
    return _(
        "another CUPTI client is tracing in this process: records of kinds overlapviz never enabled came ({kinds})"
    ).format(kinds=kinds)


def probe_returned(devices: Iterable[DeviceRecord], since_ns: int, nbytes: int) -> bool:
    """Whether the probe copy (H2D of `nbytes`, issued after `since_ns`) came back to us."""
    return any(
        d.kind is OpKind.H2D and d.nbytes == nbytes and d.start_ns >= since_ns for d in devices
    )


def probe_reason(returned: bool) -> str:
    """Why a probe copy that did not come back means CUPTI is not ours ("" when it came)."""
    if returned:
        return ""
    return "CUPTI did not hand back the probe copy made before the run: another client took the records or stopped them"


def should_rearm(subscriber: str, foreign: Mapping[str, int], returned: bool) -> bool:
    """Whether to register our callbacks and enable our kinds again before giving up on CUPTI.

    Only when the probe copy was lost and nothing says another client is still there: a
    client that has gone (a finished torch.profiler session) may have switched our kinds off
    or finalised CUPTI. Taking the callbacks back from a client still attached would take
    its records, so any sign of one rules this out.
    """
    return not returned and not subscriber and not foreign_reason(foreign)


def before_run_reason(subscriber: str, foreign: Mapping[str, int], returned: bool) -> str:
    """Why this run cannot be timed with CUPTI, from the checks made just before it ("" if it can)."""
    return subscriber or foreign_reason(foreign) or probe_reason(returned)


def duplicated_ops(ops: Sequence[DeviceRecord]) -> list[int]:
    """Correlation ids that more than one copy or kernel record carries, in order."""
    counts = Counter(record.correlation_id for record in ops)
    return sorted(correlation for correlation, count in counts.items() if count > 1)


def after_run_reason(plan: Sequence[PlannedOp], ops: Sequence[DeviceRecord], foreign: Mapping[str, int]) -> str:
    """Why the records of the run (`ops`: those linked to its calls) are not its alone ("" if they are).

    Every op issued must come back exactly once, as the kind it was issued as, and no record
    of a kind another client enabled may have arrived while it ran.
    """
    reason = foreign_reason(foreign)
    if reason:
        return reason
    twice = duplicated_ops(ops)
    if twice:
        return f"CUPTI handed back {len(twice)} of this run's ops more than once: its records are shared"
    try:
        check_matches_plan(plan, ops)
    except RecordMismatch as error:
        return f"{error}: another client took or flushed away records of this run"
    return ""


def fallback_note(reason: str) -> str:
    """The timing note a trace carries when CUPTI was not used for it."""
    return f"CUPTI is not used for this run: {reason}"
