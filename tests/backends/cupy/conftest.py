"""The GPU fixture: a real CuPy backend, or a clean skip where there is no usable GPU."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def gpu_backend():
    cupy = pytest.importorskip("cupy", exc_type=ImportError)
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # CuPy installed but no driver or no device
        pytest.skip(f"no usable CUDA device: {error}")
    if count == 0:
        pytest.skip("no CUDA device")
    from overlapviz.backends.cupy import CupyBackend

    backend = CupyBackend()
    yield backend
    backend.close()
