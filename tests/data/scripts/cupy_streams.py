"""A CuPy loop a user might write: chunks copied in, worked on and copied back on two streams.

``python cupy_streams.py [pinned|pageable]``: the host buffers are pinned (the copies run
beside the kernels) or plain NumPy arrays (each copy holds the host until it is done).
"""

import sys

import cupy
import numpy as np

CHUNKS = 8
REPEATS = 4  # the loop, several times: most of the recording, beside the warm-up
ELEMENTS = 4 * 1024 * 1024  # 16 MiB of float32 per chunk


def host_buffer(pinned: bool) -> np.ndarray:
    if not pinned:
        return np.zeros(ELEMENTS, dtype=np.float32)
    memory = cupy.cuda.alloc_pinned_memory(ELEMENTS * 4)
    buffer = np.frombuffer(memory, dtype=np.float32, count=ELEMENTS)
    buffer[:] = 0
    return buffer


# One kernel, compiled at its first call, before its first launch: with a chain of CuPy's
# elementwise operators each would compile at its own first call, between the GPU's first ops.
_WORK = cupy.ElementwiseKernel(
    "float32 x", "float32 y", "float v = x; for (int i = 0; i < 4; ++i) { v = sinf(v) * 0.5f + 0.25f; } y = v;",
    "four_sines",
)


def work(x: cupy.ndarray) -> cupy.ndarray:
    return _WORK(x)


def host_work(x: np.ndarray) -> np.ndarray:
    for _ in range(4):
        x = np.sin(x) * np.float32(0.5) + np.float32(0.25)
    return x


def main(memory: str) -> None:
    pinned = memory == "pinned"
    streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(2)]
    inputs = [host_buffer(pinned) for _ in range(CHUNKS)]
    outputs = [host_buffer(pinned) for _ in range(CHUNKS)]
    for c, chunk in enumerate(inputs):
        chunk[:] = c
    device = [cupy.empty(ELEMENTS, dtype=cupy.float32) for _ in range(CHUNKS)]
    work(device[0])  # compile the kernels before the loop
    cupy.cuda.Device().synchronize()
    for _ in range(REPEATS):
        for c in range(CHUNKS):
            stream = streams[c % 2]
            with stream:
                device[c].set(inputs[c], stream=stream)
                work(device[c]).get(stream=stream, out=outputs[c], blocking=False)
        cupy.cuda.Device().synchronize()
    expected = host_work(np.full(4, CHUNKS - 1, dtype=np.float32))  # on the host: no new kernel to compile
    if not np.allclose(outputs[-1][:4], expected, rtol=1e-5):
        raise SystemExit(f"wrong result: {outputs[-1][:4]} instead of {expected}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pinned")
