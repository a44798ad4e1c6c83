"""What a failed run leaves behind: an error in words, and no memory it should not hold.

A cancelled or refused run frees what it allocated itself (the buffers that were not held
when it began), so live mode, which supersedes runs, keeps reusing the buffers; any other
failure frees everything, since the device may be in a bad state. The next run starts clean.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress

from overlapviz.backends.cupy.buffers import BufferPool
from overlapviz.backends.cupy.output_check import OutputMismatch
from overlapviz.backends.cupy.ram_guard import PinRefused
from overlapviz.core.run_errors import BackendError, RunCancelled


@contextmanager
def releasing_on_error(pool: BufferPool, stage: str, held_before: set[int] | None = None) -> Iterator[None]:
    """Turn failures inside the block into `BackendError`s, freeing memory first.

    `stage` says what was happening ("running the pipeline"); `held_before` is
    `BufferPool.snapshot()` from when the run began (None: free everything on cancel too).
    """
    try:
        yield
    except (PinRefused, RunCancelled):
        release(pool, held_before)
        raise
    except OutputMismatch as error:
        release(pool)
        raise BackendError(f"the GPU's output is wrong, so no timeline is shown: {error}") from error
    except BackendError:
        release(pool)
        raise
    except Exception as error:
        release(pool)
        raise BackendError(f"CUDA error while {stage}: {describe_error(error)}") from error


def release(pool: BufferPool, held_before: set[int] | None = None) -> None:
    """Wait for the device, then free what was allocated since `held_before` (None: all).

    Best effort: after a CUDA error the device may be broken.
    """
    with suppress(Exception):
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
    with suppress(Exception):
        if held_before is None:
            pool.release_all()
        else:
            pool.release_new(held_before)


def describe_error(error: BaseException) -> str:
    """An error's message, saying plainly when the GPU ran out of memory."""
    text = str(error) or type(error).__name__
    if "out of memory" in text.lower() or type(error).__name__ == "OutOfMemoryError":
        return f"the GPU is out of memory ({text})"
    return text
