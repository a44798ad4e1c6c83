"""The simulated GPU: an event-driven model of copy engines, the link, SMs, streams and queues."""

from overlapviz.backends.sim.backend import SimBackend


def create_backend() -> SimBackend:
    """The backend the registry hands out."""
    return SimBackend()
