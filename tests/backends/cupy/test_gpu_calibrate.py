"""``overlapviz calibrate``'s measuring on a real GPU (``pytest -m gpu``); skipped cleanly without one."""

from __future__ import annotations

import time

import pytest

from overlapviz.backends.calibration import profile_values
from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.profile import load_profile
from overlapviz.backends.sim.profile_writer import nearest_profile, profile_toml
from overlapviz.core.analysis.metrics import compute_metrics
from overlapviz.core.config import PipelineConfig

pytestmark = pytest.mark.gpu


def test_calibrate_measures_this_gpu_in_under_a_minute(gpu_backend, tmp_path):
    from overlapviz.backends.cupy.calibrate import measure

    shares = []
    started = time.perf_counter()
    measured = measure(0, lambda share, step: shares.append(share))
    assert time.perf_counter() - started < 60
    assert shares == sorted(shares) and shares[-1] == 1.0
    base = nearest_profile(measured.gpu_name)
    values = {key: sourced.value for key, sourced in profile_values(measured, base).items()}
    peak = measured.facts.get("link_peak_gbps") or float("inf")
    for direction in ("h2d", "d2h"):
        assert 1 < values[f"{direction}_gbps"] <= peak * 1.02
        assert 0 < values[f"pageable_{direction}_gbps"] < values[f"{direction}_gbps"]
    assert 0.5 < values["bidirectional_factor"] <= 1
    assert 0 < values["copy_latency_us"] < 50 and 0 < values["kernel_launch_us"] < 50
    assert values["fma_ns_per_element_iter"] > 0 and values["fma_latency_ns"] > 0
    assert 0 < values["memcpy_call_us"] < 100 and 0 < values["launch_call_us"] < 100
    path = tmp_path / "calibrated.toml"
    path.write_text(profile_toml(profile_values(measured, base), base, "measured by overlapviz calibrate (test)"))
    assert load_profile(str(path)).sm_count == measured.facts["sm_count"]
    assert compute_metrics(create_backend().run(PipelineConfig(), str(path))).makespan_ns > 0
