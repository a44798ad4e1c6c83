"""PyTorch profiler traces: the Chrome trace JSON that Kineto writes, read into `Activities`.

``torch.profiler.profile(...).export_chrome_trace`` writes one JSON object: ``traceEvents``
plus what Kineto knows of the run (``deviceProperties``, ``baseTimeNanoseconds``,
``schemaVersion``, the CUDA versions). Complete events (``ph`` X) of these categories become
rows:

- ``gpu_memcpy``: copies, direction and memory from the name (`copy_names`);
- ``gpu_memset``: memsets; ``kernel``: kernels (``args.device``, ``args.stream``,
  ``args.bytes``; the event's ``pid`` and ``tid``, which Kineto sets to the device and the
  stream, where the args lack them; an NCCL kernel's ``args["Collective name"]``);
- ``cuda_runtime`` and ``cuda_driver``: API calls, on the host thread ``tid``;
- ``cuda_sync`` (``enable_cuda_sync_events``): synchronisations, named by their kind; a
  ``Stream Wait Event`` has the waiting stream in ``args.stream`` and, where Kineto resolved
  them, the stream waited on (``args.wait_on_stream``) and the correlation id of the event
  record (``args.wait_on_cuda_event_record_corr_id``);
- ``user_annotation`` (``record_function`` ranges on the host), ``gpu_user_annotation``
  (the same ranges as the GPU ran them: ``on_device`` 1) and ``ProfilerStep#N`` ranges (a
  ``cpu_op`` in older PyTorch): annotations.

PyTorch 1.8 and 1.9 spelled the categories ``Memcpy``, ``Memset``, ``Kernel``, ``Runtime`` and
``Operator`` (a GPU record's ``tid`` the text ``"stream 7"``): they read as their current
names. A ROCm (HIP) build writes ``args.stream`` of host calls as a text (``"0x0"``), read as
the number it spells, and may give a copy no ``args.bytes``: its size is then 0, unknown.

Everything else (``cpu_op``, ``python_function``, ``overhead``, flows, metadata) is not a
row. ``args.correlation`` links an API call to the device op it issued; where a record lacks
it, the ``ac2g`` flow event at the same place and time gives it (Kineto numbers flows by
correlation id).

Times are exact: ``ts`` and ``dur`` are microseconds with three decimals, read as text
(`micros`). Kineto writes ``ts`` after ``baseTimeNanoseconds``, which is added back, so
times count nanoseconds since 1970 and ``recorded`` is the UTC date of the first record;
a file without it keeps its own clock and no date. The file does not say which PyTorch
wrote it, so there is no ``tool_version``; ``schema_version`` is Kineto's format number.
"""

from __future__ import annotations

import datetime
import mmap
from collections.abc import Iterator
from typing import Any

import msgspec
import numpy.typing as npt

from overlapviz.core.i18n import _
from overlapviz.importers.activity import Activities
from overlapviz.importers.kineto_batches import Batches, EventBatches, wrong_value
from overlapviz.importers.kineto_categories import FLOW_CATEGORY, KINETO_CATEGORIES
from overlapviz.importers.kineto_columns import KinetoTable, Place
from overlapviz.importers.kineto_errors import KinetoFormatError as KinetoFormatError  # what its readers catch
from overlapviz.importers.kineto_errors import kineto_error
from overlapviz.importers.kineto_parallel import PARALLEL_MIN_BYTES, Helpers, helper_count, read_batches
from overlapviz.importers.kineto_ranges import CutEvents, RangeBatches, cut_events
from overlapviz.importers.kineto_schema import (
    CATEGORIES_DECODER,
    DECODER,
    EVENTS_DECODER,
    KinetoDocument,
)

TOOL = "PyTorch profiler"
SNIFF_BYTES = 64 * 1024  # enough of a file's start for `looks_like_kineto`
_BOM = b"\xef\xbb\xbf"
_TOP_MARKERS = (b'"schemaVersion"', b'"deviceProperties"', b'"baseTimeNanoseconds"')
_EVENT_MARKERS = tuple(b'"%s"' % category.encode() for category in sorted(KINETO_CATEGORIES))
# Events decoded at once: a couple of MB of text and its objects, whatever the size of the file.
# Batches that stay in the processor's caches read a fifth faster than batches eight times larger.
BATCH_EVENTS = 1 << 13
EVENT_BYTES = 200  # about a Kineto event's text: batches cut by size (`kineto_ranges`) hold about BATCH_EVENTS


def looks_like_kineto(document_start: bytes) -> bool:
    """Whether a file's first bytes are those of a PyTorch profiler (Kineto) trace.

    Parameters
    ----------
    document_start
        The start of the (decompressed) file; `SNIFF_BYTES` of it are enough.

    Returns
    -------
    bool
        True for a JSON object with ``traceEvents`` and a Kineto marker (a top-level key
        such as ``deviceProperties``, or an event category such as ``cuda_runtime``).
    """
    start = document_start.removeprefix(_BOM).lstrip()
    if not start.startswith(b"{"):
        return False
    if any(marker in start for marker in _TOP_MARKERS):
        return True
    return b'"traceEvents"' in start and any(marker in start for marker in _EVENT_MARKERS)


def read_kineto(raw: bytes | mmap.mmap, source: str, *, parallel_min_bytes: int = PARALLEL_MIN_BYTES) -> Activities:
    """Read a PyTorch profiler trace's bytes into activities.

    Parameters
    ----------
    raw
        The whole file, decompressed (as `overlapviz.core.files.safe_read.read_input_bytes` gives it),
        or a map of it (`map_input`), whose pages are let go of as the events are read.
    source
        The file's name, for messages and ``meta["source"]``.
    parallel_min_bytes
        From this size on, the events are decoded on every core this process may use
        (`kineto_parallel`), with the same result.

    Returns
    -------
    Activities
        One row per copy, memset, kernel, API call and annotation, in file order.

    Raises
    ------
    KinetoFormatError
        The bytes are not JSON, nest too deeply, hold a value of the wrong type or range,
        lack a time a row needs, or are not a PyTorch profiler trace at all.
    """
    try:
        with Helpers(helper_count(len(raw), parallel_min_bytes)) as helpers:  # their start overlaps the cutting
            cut = cut_events(raw, BATCH_EVENTS * EVENT_BYTES)
            return _read(raw, source, helpers) if cut is None else _read_cut(raw, source, cut, helpers)
    except _NotCutRight:
        pass
    with Helpers(0) as no_helpers:  # read again the slow way, which says what is wrong and where
        return _read(raw, source, no_helpers)


class _NotCutRight(Exception):
    """Reading the batches `cut_events` cut failed: the slow way reads the file again."""


def _read_cut(raw: bytes | mmap.mmap, source: str, cut: CutEvents, helpers: Helpers) -> Activities:
    """The activities of a trace whose events `cut_events` cut; `_NotCutRight` where anything is amiss."""
    batches = RangeBatches(raw, cut.ranges, source, kineto_start=_starts_like_kineto(raw))
    try:
        if not _is_kineto(cut.document, batches):
            raise _NotCutRight
        return _activities(raw, source, cut.document, batches, helpers)
    except KinetoFormatError:
        raise _NotCutRight from None


def _read(raw: bytes | mmap.mmap, source: str, helpers: Helpers) -> Activities:
    document = _decode(raw, source)
    events = document.trace_events
    if events is None:
        raise kineto_error(source, _("not a PyTorch profiler trace: it has no traceEvents"))
    batches = EventBatches(events, raw, source, BATCH_EVENTS, kineto_start=_starts_like_kineto(raw))
    if not _is_kineto(document, batches):
        raise kineto_error(source, _("not a PyTorch profiler trace: no Kineto key or event category in it"))
    return _activities(raw, source, document, batches, helpers)


def _activities(raw: bytes | mmap.mmap, source: str, document: KinetoDocument, batches: Batches,
                helpers: Helpers) -> Activities:  # fmt: skip
    table = KinetoTable(source, document.base_time_ns or 0)
    read_batches(table, batches, helpers)
    columns = table.columns(lambda: _flow_ids(batches))
    return Activities(columns, table.names, _meta(document, columns, source))


def _decode(raw: bytes | mmap.mmap, source: str) -> KinetoDocument:
    if not raw or (raw[:SNIFF_BYTES].isspace() and bytes(raw).isspace()):
        raise kineto_error(source, _("the file is empty"))
    data = memoryview(raw)[len(_BOM) :] if raw[: len(_BOM)] == _BOM else raw
    try:
        return DECODER.decode(data)
    except RecursionError:
        raise kineto_error(source, _("its JSON nests too deeply to be a trace")) from None
    except msgspec.ValidationError as error:
        raise wrong_value(source, str(error), kineto_start=_starts_like_kineto(raw)) from None
    except msgspec.DecodeError as error:
        raise kineto_error(source, _("not JSON ({error})").format(error=error)) from None


def _batches(decoder: msgspec.json.Decoder[list[Any]], batches: Batches) -> Iterator[list[Any]]:
    """The events decoded a batch at a time."""
    return (batches.decoded(decoder, first) for first in batches.firsts)


def _starts_like_kineto(raw: bytes | mmap.mmap) -> bool:
    return looks_like_kineto(raw[: len(_BOM) + SNIFF_BYTES])


def _is_kineto(document: KinetoDocument, batches: Batches) -> bool:
    tops = (document.schema_version, document.device_properties, document.base_time_ns)
    if any(value is not None for value in tops):
        return True
    categories = _batches(CATEGORIES_DECODER, batches)
    return any(not KINETO_CATEGORIES.isdisjoint({e.cat for e in batch}) for batch in categories)


def _flow_ids(batches: Batches) -> dict[Place, int]:
    """The correlation id of each flow end, by where it sits."""
    return {
        (e.pid, e.tid, bytes(e.ts)): e.id
        for batch in _batches(EVENTS_DECODER, batches)
        for e in batch
        if e.cat == FLOW_CATEGORY and isinstance(e.id, int) and e.id >= 0
    }


def _meta(document: KinetoDocument, columns: dict[str, npt.NDArray[Any]], source: str) -> dict[str, Any]:
    meta: dict[str, Any] = {"tool": TOOL, "source": source}
    if document.device_properties is not None:
        meta["devices"] = {device.id: device.name for device in document.device_properties}
    if document.base_time_ns is not None and len(columns["start_ns"]):
        first = int(columns["start_ns"].min()) // 10**9
        meta["recorded"] = datetime.datetime.fromtimestamp(first, tz=datetime.UTC).date().isoformat()
    versions = {
        "schema_version": document.schema_version,
        "cuda_runtime": document.cuda_runtime_version,
        "cuda_driver": document.cuda_driver_version,
    }
    meta.update({key: _version_text(key, value) for key, value in versions.items() if value is not None})
    meta.update(_distributed(document.distributed_info))
    return meta


def _distributed(info: Any) -> dict[str, int]:
    """``rank`` and ``world_size`` of ``distributedInfo``, where the file gives them as counts."""
    if not isinstance(info, dict):
        return {}
    counts = {key: info.get(key) for key in ("rank", "world_size")}
    return {key: value for key, value in counts.items() if type(value) is int and 0 <= value < 2**31}


def _version_text(key: str, value: int | str) -> str:
    """A version as people write it: CUDA's 13000 is 13.0."""
    if isinstance(value, str):
        return value[:40]
    if key == "schema_version" or value < 0:
        return str(value)
    return f"{value // 1000}.{value % 1000 // 10}"
