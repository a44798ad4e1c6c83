"""A ring of pinned slots through which pageable chunks reach the device and come back.

Each slot is an input and an output buffer of the largest chunk, all in one pinned buffer
of the pool (through the RAM guard). The plan says which slot each op uses and which D2H
the host waits for before it empties a slot (`PlannedOp.slot`, `PlannedOp.waits_for`); the
ring does the host's copies and refuses to fill a slot whose last chunk was never copied
out, so a wrong plan fails loudly instead of racing. Only the slots are pinned, not the
data set: what PyTorch's ``pin_memory=True`` DataLoader does with a thread, here done by
the thread that issues the copies.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from overlapviz.backends.cupy.buffers import BufferPool
from overlapviz.backends.cupy.plan import ChunkSlice
from overlapviz.core.config import HostMemory

RING_ROLE = "ring"
FloatArray = npt.NDArray[np.float32]


class SlotInUse(RuntimeError):
    """A chunk was staged into a slot still holding another (a plan that cannot work)."""


class StagingRing:
    """`slots` pinned input and output slots of `slot_elements` float32 values each."""

    def __init__(self, pool: BufferPool, slots: int, slot_elements: int) -> None:
        self.slots = slots
        self.buffer = pool.host(HostMemory.PINNED, RING_ROLE, 2 * slots * slot_elements)
        array = self.buffer.array
        views = [array[i * slot_elements : (i + 1) * slot_elements] for i in range(2 * slots)]
        self.inputs, self.outputs = views[:slots], views[slots:]
        self.holding: list[int | None] = [None] * slots  # the chunk each slot holds until copied out

    @property
    def nbytes(self) -> int:
        """Pinned bytes of the ring."""
        return self.buffer.nbytes

    def input_pointer(self, slot: int) -> int:
        """Host address of input slot `slot`: where its chunk's H2D copy reads."""
        return int(self.inputs[slot].ctypes.data)

    def output_pointer(self, slot: int) -> int:
        """Host address of output slot `slot`: where its chunk's D2H copy writes."""
        return int(self.outputs[slot].ctypes.data)

    def reset(self) -> None:
        """Forget what the slots held (a new run; the device is idle)."""
        self.holding = [None] * self.slots

    def copy_in(self, chunk: int, slot: int, place: ChunkSlice, source: FloatArray) -> None:
        """Copy `chunk` from the pageable `source` into input slot `slot` (the slot must be free)."""
        if self.holding[slot] is not None:
            raise SlotInUse(f"chunk {chunk} was staged into slot {slot} before chunk {self.holding[slot]} left it")
        np.copyto(self.inputs[slot][: place.elements], source[place.offset : place.stop])
        self.holding[slot] = chunk

    def copy_out(self, chunk: int, slot: int, place: ChunkSlice, dest: FloatArray) -> None:
        """Copy `chunk` from output slot `slot` into the pageable `dest` (its D2H is done); the slot is free again."""
        if self.holding[slot] != chunk:
            raise SlotInUse(f"chunk {chunk} was copied out of slot {slot}, which holds chunk {self.holding[slot]}")
        np.copyto(dest[place.offset : place.stop], self.outputs[slot][: place.elements])
        self.holding[slot] = None
