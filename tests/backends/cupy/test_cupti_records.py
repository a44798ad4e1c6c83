from types import SimpleNamespace

from overlapviz.backends.cupy.cupti_records import ApiRecord, CuptiMemory, DeviceRecord, copy_op_kind, host_memory_of
from overlapviz.backends.cupy.cupti_session import ActivityKinds, _why, record_of
from overlapviz.core.config import HostMemory
from overlapviz.core.trace.spans import MemoryKind, OpKind

KINDS = ActivityKinds(kernel=10, memcpy=1, runtime=5, driver=4)


def names(runtime, cbid):
    return f"{'rt' if runtime else 'drv'}{cbid}"


def test_kernel_activity():
    a = SimpleNamespace(kind=10, start=5, end=9, correlation_id=3, stream_id=13, name="fma_chain")
    assert record_of(a, KINDS, names) == DeviceRecord(OpKind.KERNEL, 5, 9, 3, 13, name="fma_chain")


def test_copy_activity_keeps_direction_bytes_and_memory_kinds():
    a = SimpleNamespace(kind=1, start=1, end=2, correlation_id=4, stream_id=14, copy_kind=2, bytes=64,
                        src_kind=3, dst_kind=1)
    assert record_of(a, KINDS, names) == DeviceRecord(OpKind.D2H, 1, 2, 4, 14, nbytes=64, src_kind=3, dst_kind=1)


def test_device_to_device_copy_and_other_kinds_are_ignored():
    d2d = SimpleNamespace(kind=1, start=1, end=2, correlation_id=4, stream_id=14, copy_kind=8, bytes=64,
                          src_kind=3, dst_kind=3)
    assert record_of(d2d, KINDS, names) is None
    assert record_of(SimpleNamespace(kind=99), KINDS, names) is None


def test_api_activity_gets_its_name_and_domain():
    a = SimpleNamespace(kind=4, start=1, end=2, correlation_id=7, thread_id=11, cbid=307)
    assert record_of(a, KINDS, names) == ApiRecord("drv307", 1, 2, 7, 11, False)


def test_copy_kinds():
    assert copy_op_kind(1) is OpKind.H2D
    assert copy_op_kind(2) is OpKind.D2H
    assert copy_op_kind(8) is None


def test_host_memory_of_reads_the_host_side():
    h2d = DeviceRecord(OpKind.H2D, 0, 1, 1, 1, src_kind=CuptiMemory.PAGEABLE, dst_kind=CuptiMemory.DEVICE)
    d2h = DeviceRecord(OpKind.D2H, 0, 1, 1, 1, src_kind=CuptiMemory.DEVICE, dst_kind=CuptiMemory.PINNED)
    assert host_memory_of(h2d, HostMemory.PINNED) is MemoryKind.PAGEABLE
    assert host_memory_of(d2h, HostMemory.PINNED) is MemoryKind.PINNED
    assert host_memory_of(d2h, HostMemory.REGISTERED) is MemoryKind.REGISTERED
    unknown = DeviceRecord(OpKind.H2D, 0, 1, 1, 1)
    assert host_memory_of(unknown, HostMemory.PINNED) is MemoryKind.NONE


def test_another_profiler_is_named_as_the_reason():
    assert "another profiler" in _why(RuntimeError("x"), "ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")
    assert _why(RuntimeError("boom")).startswith("CUPTI could not be enabled")
