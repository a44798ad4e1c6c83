"""The parts of a PyTorch profiler (Kineto) trace that are read, as msgspec types.

Decoding into these types is where the file is checked: a field of the wrong type or an
integer outside int64 stops the decode with a message that gives the path to the value
(``$.traceEvents[12].args.stream``).
Everything not named here (``cpu_op`` arguments, grid sizes, bandwidths) is skipped unread.
``ts`` and ``dur`` stay raw JSON text, so that `overlapviz.importers.micros` reads their
nanoseconds exactly. The event types hold no cycles, so they skip the garbage collector:
that halves the time a trace of a million events takes.

The document is decoded in two steps, so that a million decoded events are never alive at
once (they would take about half a kilobyte each, three times the file): `KinetoDocument`
keeps each element of ``traceEvents`` as its raw JSON text, checked as JSON but not decoded,
and `EVENTS_DECODER` turns a batch of those texts at a time into `Event`s.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

UNKNOWN = -1
INT64_MAX = 2**63 - 1
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=INT64_MAX)]
DeviceIndex = Annotated[int, msgspec.Meta(ge=0, le=2**15 - 1)]  # the int16 device column
BaseTime = Annotated[int, msgspec.Meta(ge=0, le=4 * 10**18)]  # see micros.MAX_NS
NO_TEXT = msgspec.Raw()


class EventArgs(msgspec.Struct, frozen=True, gc=False):
    """The arguments of an event that are read; -1 where the file gives none.

    Their ranges are checked for the events that become rows only: other tools' events, and
    Kineto's own metadata, may hold a -1 or any other value here.
    """

    device: Int64 = UNKNOWN
    stream: Int64 | str = UNKNOWN  # a text ("0x0") on the host calls of ROCm builds
    correlation: Int64 = UNKNOWN
    bytes: Int64 = UNKNOWN
    wait_on_stream: Int64 = UNKNOWN  # cuda_sync "Stream Wait Event": the stream waited on
    wait_on_cuda_event_record_corr_id: Int64 = UNKNOWN  # ... and the correlation id of its event record
    # on an NCCL kernel: Kineto copies it from the kernel's record_param_comms op
    collective: str = msgspec.field(default="", name="Collective name")
    process_group: str = msgspec.field(default="", name="Process Group Name")  # the collective's, where Kineto says


NO_ARGS = EventArgs()


class Event(msgspec.Struct, frozen=True, gc=False):
    """One element of ``traceEvents``: a complete event (``ph`` X), a flow end, metadata."""

    ph: str = ""
    cat: str = ""
    name: str = ""
    pid: Int64 | str = UNKNOWN
    tid: Int64 | str = UNKNOWN
    ts: msgspec.Raw = NO_TEXT
    dur: msgspec.Raw = NO_TEXT
    id: Int64 | str = UNKNOWN
    args: EventArgs = NO_ARGS


class EventCategory(msgspec.Struct, frozen=True, gc=False):
    """An event's category alone, for telling Kineto's files from others' without decoding the rest."""

    cat: str = ""


class DeviceProperties(msgspec.Struct, frozen=True, gc=False):
    """One GPU as the profiler saw it."""

    id: DeviceIndex
    name: str = ""


class KinetoDocument(msgspec.Struct):
    """The top level of a trace file."""

    trace_events: list[msgspec.Raw] | None = msgspec.field(default=None, name="traceEvents")
    device_properties: list[DeviceProperties] | None = msgspec.field(default=None, name="deviceProperties")
    base_time_ns: BaseTime | None = msgspec.field(default=None, name="baseTimeNanoseconds")
    schema_version: Int64 | str | None = msgspec.field(default=None, name="schemaVersion")
    cuda_runtime_version: Int64 | str | None = None
    cuda_driver_version: Int64 | str | None = None
    # left undecoded: a job's launcher may write any value here, and the trace stays readable whatever it is
    distributed_info: Any = msgspec.field(default=None, name="distributedInfo")


DECODER = msgspec.json.Decoder(KinetoDocument)
EVENTS_DECODER = msgspec.json.Decoder(list[Event])
CATEGORIES_DECODER = msgspec.json.Decoder(list[EventCategory])
