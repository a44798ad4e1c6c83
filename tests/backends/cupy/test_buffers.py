import numpy as np
import pytest

from overlapviz.backends.cupy.buffers import BufferPool, HeldBytes, HostBuffer, alloc_host
from overlapviz.backends.cupy.ram_guard import HostMemoryRefused, PinRefused
from overlapviz.core.config import HostMemory

GIB = 1 << 30


class FakeAllocator:
    """Counts allocations and releases instead of pinning memory."""

    def __init__(self):
        self.allocated, self.released = [], []

    def __call__(self, memory, elements):
        buffer = HostBuffer(np.zeros(elements, dtype=np.float32), memory, lambda: self.released.append(elements))
        self.allocated.append((memory, elements))
        return buffer


def pool(available=64 * GIB, share=0.5):
    p = BufferPool(share)
    p.available_ram = lambda: available
    p.allocate = FakeAllocator()
    return p


def test_same_kind_and_size_is_reused_and_filled_once():
    p = pool()
    fills = []
    a = p.host(HostMemory.PINNED, "in", 1000, fill=fills.append)
    b = p.host(HostMemory.PINNED, "in", 1000, fill=fills.append)
    assert a is b and len(fills) == 1 and p.allocate.allocated == [(HostMemory.PINNED, 1000)]


def test_a_new_size_releases_the_old_buffer_first():
    p = pool()
    p.host(HostMemory.PINNED, "in", 1000)
    p.host(HostMemory.PINNED, "in", 2000)
    assert p.allocate.released == [1000]
    assert p.pinned_bytes == 2000 * 4


def test_one_buffer_per_role_whatever_its_kind():
    p = pool()
    p.host(HostMemory.PINNED, "in", 10)
    p.host(HostMemory.PINNED, "out", 10)
    p.host(HostMemory.PAGEABLE, "in", 10)  # a pageable run after a pinned one: the pinned input goes
    assert len(p.allocate.allocated) == 3 and p.allocate.released == [10]
    assert p.held() == HeldBytes(pinned=10 * 4, pageable=10 * 4, device=0)


def test_what_is_held_is_bounded_by_the_last_run_after_many_mixed_ones():
    p = pool()
    kinds = [HostMemory.PINNED, HostMemory.PAGEABLE, HostMemory.REGISTERED]
    for run in range(300):
        memory, elements = kinds[run % 3], 1000 * (1 + run % 7)
        p.host(memory, "in", elements)
        p.host(memory, "out", elements)
    last = 1000 * (1 + 299 % 7) * 4
    assert p.held() == HeldBytes(pinned=2 * last, pageable=0, device=0)  # run 299 was registered


def test_the_host_guard_refuses_a_run_that_would_not_fit_in_the_ram():
    p = pool(available=10 * GIB)
    with pytest.raises(HostMemoryRefused, match="refusing to allocate 12 GiB of host memory"):
        p.check_host(12 * GIB, ("in", "out"))
    p.check_host(8 * GIB, ("in", "out"))  # within 90% of the RAM available


def test_the_host_guard_counts_the_buffers_a_run_replaces_as_free():
    p = pool(available=10 * GIB)
    p.host(HostMemory.PAGEABLE, "in", GIB // 2)  # 2 GiB held, no longer "available" to the system
    p.check_host(10 * GIB, ("in", "out"))  # 90% of 10 + 2 GiB
    with pytest.raises(HostMemoryRefused):
        p.check_host(10 * GIB, ("out",))


def test_guard_refuses_a_pinned_buffer_over_the_share():
    p = pool(available=1 * GIB)
    with pytest.raises(PinRefused, match="refusing to pin 1 GiB"):
        p.host(HostMemory.REGISTERED, "in", GIB // 4)
    assert p.allocate.allocated == []


def test_scratch_buffers_can_skip_the_guard():
    p = pool(available=1 * GIB, share=1e-9)
    p.host(HostMemory.PINNED, "scratch", 1024, guard=False)
    assert p.pinned_bytes == 4096


def test_guard_leaves_pageable_memory_alone():
    p = pool(available=1 * GIB)
    p.host(HostMemory.PAGEABLE, "in", GIB // 4)
    assert p.allocate.allocated == [(HostMemory.PAGEABLE, GIB // 4)]


def test_release_all_and_drop_give_everything_back():
    p = pool()
    p.host(HostMemory.PINNED, "in", 10)
    p.host(HostMemory.PINNED, "sweep", 20)
    p.drop("sweep")
    assert p.allocate.released == [20]
    p.release_all()
    assert p.allocate.released == [20, 10] and p.pinned_bytes == 0


def test_pageable_buffer_is_touched_and_needs_no_cuda():
    buffer = alloc_host(HostMemory.PAGEABLE, 100)
    assert buffer.nbytes == 400 and (buffer.array == 0).all() and buffer.pointer != 0


def test_release_new_frees_only_what_came_after_the_snapshot():
    p = pool()
    p.host(HostMemory.PINNED, "in", 10)
    before = p.snapshot()
    p.host(HostMemory.PINNED, "out", 20)
    p.host(HostMemory.PAGEABLE, "in", 30)
    p.release_new(before)
    assert p.allocate.released == [10, 20, 30]  # the pageable input replaced the pinned one
    assert p.pinned_bytes == 0
    p.release_new(p.snapshot())  # nothing new: nothing freed
    assert p.allocate.released == [10, 20, 30]


def test_a_replacement_counts_as_new_even_if_it_reuses_a_freed_identity():
    p = pool()
    p.host(HostMemory.PINNED, "in", 10)
    before = p.snapshot()
    p.host(HostMemory.PINNED, "in", 20)  # replaces the buffer that was there
    p.release_new(before)
    assert p.allocate.released == [10, 20] and p.pinned_bytes == 0
