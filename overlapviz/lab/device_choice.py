"""Which device runs a job that names none: the least busy of the devices like the server's first.

A class's laptops rarely name a device. With several GPUs of one model (`--devices 0,1` on a
machine of two H200s), any of them gives the same answer, so a job that names none goes to
the one with the least work now (running plus waiting), and its answer is kept for every
device of that model: thirty learners on one setting still cost one run. Devices of another
model give other answers; a job goes there only when it names one.
"""

from __future__ import annotations

from overlapviz.lab.dispatch import DeviceState


def least_busy(states: tuple[DeviceState, ...]) -> DeviceState:
    """Of the devices like the first (the same name and backend), the one with the least work; the first on a tie."""
    first = states[0].device
    alike = [s for s in states if (s.device.name, s.device.backend) == (first.name, first.backend)]
    return min(alike, key=lambda state: state.busy + state.queued)


def alike_scope(state: DeviceState) -> str:
    """What an answer from `state`'s device is good for when the job named no device: any device of its model."""
    return f"any {state.device.backend} {state.device.name}"
