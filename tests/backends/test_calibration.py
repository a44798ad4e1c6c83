"""Calibration's fits and the profile it writes, on measurements of a GPU that is the h200 model."""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import replace

import pytest

from overlapviz.backends.base import SWEEP_SIZES
from overlapviz.backends.calibration import (
    CalibrationError,
    CopyTime,
    KernelTime,
    Measurements,
    Sourced,
    fit_fixed_and_rate,
    fit_line,
    pageable_copy_seconds,
    profile_values,
    trimmed_mean,
)
from overlapviz.backends.sim import create_backend
from overlapviz.backends.sim.profile import load_profile
from overlapviz.backends.sim.profile_writer import format_value, nearest_profile, profile_toml
from overlapviz.core.analysis.metrics import compute_metrics, host_blocked_per_row, pageable_copy_calls
from overlapviz.core.config import GIB, MIB, HostMemory, PipelineConfig
from overlapviz.core.trace.spans import OpKind

H200 = load_profile("h200")
N = 64 * MIB // 4
FMA_ITERS = (256, 1024, 1860, 4000)
SINCOS_NS = 0.004
MEASURED_BY = "measured by overlapviz calibrate (Test GPU, 2026-12-01)"


def copy_seconds(nbytes: int, gbps: float) -> float:
    return H200.copy_latency_us * 1e-6 + nbytes / (gbps * 1e9)


def measurements_of_the_model(jitter: float = 0.0, seed: int = 1) -> Measurements:
    """What calibrate would measure on a GPU that behaves exactly like the h200 model (plus noise)."""
    rng = random.Random(seed)

    def noisy(seconds: float) -> float:
        return seconds * (1 + rng.uniform(-jitter, jitter))

    rates = {("pinned", "h2d"): H200.h2d_gbps, ("pinned", "d2h"): H200.d2h_gbps,
             ("pageable", "h2d"): H200.pageable_h2d_gbps, ("pageable", "d2h"): H200.pageable_d2h_gbps}
    copies = [CopyTime(memory, direction, size, noisy(copy_seconds(size, gbps)), 4e-6)
              for (memory, direction), gbps in rates.items() for size in SWEEP_SIZES]
    launch = H200.kernel_launch_us * 1e-6
    chunks = {d: noisy(16 * copy_seconds(16 * MIB, rates[("pageable", d)])) for d in ("h2d", "d2h")}
    both = 256 * MIB
    together = 2 * both / (H200.bidirectional_factor * (H200.h2d_gbps + H200.d2h_gbps) * 1e9)
    fma = [KernelTime(N, k, noisy(launch + N * (H200.fma_base_ns_per_element + k * H200.fma_ns_per_element_iter)
                                  * 1e-9)) for k in FMA_ITERS]
    chain = [KernelTime(256, k, noisy(launch + k * H200.fma_latency_ns * 1e-9)) for k in (20_000, 80_000)]
    calls = [H200.memcpy_call_us * 1e-6] * 180 + [1e-3] * 10 + [1e-7] * 10  # a few preempted, a few odd
    return Measurements(
        gpu_name="Test GPU", date="2026-12-01",
        facts={"copy_engines": 3, "sm_count": 132, "concurrent_kernels": True, "max_threads_per_sm": 2048,
               "link": "PCIe Gen5 x16", "link_peak_gbps": 63.0},
        copies=copies, pageable_chunks_bytes=256 * MIB, pageable_chunk_bytes=16 * MIB, pageable_chunks_seconds=chunks,
        both_ways_bytes=both, both_ways_seconds=together, calls_traced=True,
        memcpy_call_seconds=calls, launch_call_seconds=[H200.launch_call_us * 1e-6] * 50,
        empty_kernel_seconds=launch, fma=fma, chain=chain,
        sincos=KernelTime(N, 0, launch + N * SINCOS_NS * 1e-9),
        kernel_memory_gbps=H200.kernel_memory_gbps,
        first_touch_bytes=256 * MIB, first_touch_seconds=256 * MIB / (H200.first_touch_gbps * 1e9),
        host_ram_bytes=int(125 * GIB),
    )  # fmt: skip


# --- the fits ------------------------------------------------------------------------------


def test_the_copy_fit_recovers_fixed_cost_and_rate_exactly():
    sizes = list(SWEEP_SIZES)
    line = fit_fixed_and_rate(sizes, [copy_seconds(s, 55.3) for s in sizes])
    assert line.intercept == pytest.approx(5e-6, rel=1e-9)
    assert 1 / line.slope == pytest.approx(55.3e9, rel=1e-9)


def test_the_copy_fit_weighs_small_copies_for_the_fixed_cost():
    rng = random.Random(7)
    sizes = list(SWEEP_SIZES)
    times = [copy_seconds(s, 55.3) * (1 + rng.uniform(-0.02, 0.02)) for s in sizes]
    line = fit_fixed_and_rate(sizes, times)
    assert 1 / line.slope == pytest.approx(55.3e9, rel=0.03)
    assert line.intercept == pytest.approx(5e-6, rel=0.25)  # a plain least-squares fit is off by far more here


def test_a_negative_fixed_cost_is_refitted_as_none():
    line = fit_fixed_and_rate([1e6, 2e6, 4e6], [0.9e-4, 2.0e-4, 4.1e-4])
    assert line.intercept == 0.0 and line.slope > 0


@pytest.mark.parametrize(("sizes", "times"), [([1e6, 1e6], [1e-4, 1e-4]), ([1e6, 2e6], [2e-4, 1e-4])])
def test_copy_times_that_cannot_be_fitted_are_refused(sizes, times):
    with pytest.raises(CalibrationError):
        fit_fixed_and_rate(sizes, times)


def test_a_line_through_kernel_times():
    line = fit_line([256, 1024, 1860], [1.0 + 2 * x for x in (256, 1024, 1860)])
    assert (line.intercept, line.slope) == (pytest.approx(1.0), pytest.approx(2.0))
    with pytest.raises(CalibrationError):
        fit_line([5, 5], [1, 2])


def test_host_costs_drop_the_odd_calls():
    assert trimmed_mean([4.0] * 18 + [1000.0, 0.001]) == pytest.approx(4.0)
    with pytest.raises(CalibrationError):
        trimmed_mean([])


# --- the values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "rel"),
    [("h2d_gbps", 1e-3), ("d2h_gbps", 1e-3), ("pageable_h2d_gbps", 1e-3), ("pageable_d2h_gbps", 1e-3),
     ("copy_latency_us", 1e-3), ("bidirectional_factor", 2e-3), ("kernel_launch_us", 1e-3),
     ("fma_base_ns_per_element", 2e-3), ("fma_ns_per_element_iter", 1e-3), ("fma_latency_ns", 1e-3),
     ("kernel_memory_gbps", 1e-3), ("memcpy_call_us", 1e-3), ("launch_call_us", 1e-3),
     ("first_touch_gbps", 1e-3), ("host_ram_gib", 1e-3), ("sm_count", 0), ("copy_engines", 0),
     ("blocks_per_sm", 0)],
)
def test_calibrating_the_model_gives_back_its_numbers(key, rel):
    values = profile_values(measurements_of_the_model(), "h200")
    assert values[key].value == pytest.approx(getattr(H200, key), rel=rel)
    assert values[key].source


def test_the_sincos_kernel_is_measured_per_element():
    assert profile_values(measurements_of_the_model(), "h200")["sincos_ns_per_element"].value == pytest.approx(
        SINCOS_NS, rel=1e-3
    )


def test_missing_copies_are_named():
    m = measurements_of_the_model()
    m = replace(m, copies=[c for c in m.copies if c.memory != "pageable"])
    with pytest.raises(CalibrationError, match="no pageable H2D copies"):
        profile_values(m, "h200")


# --- the file ------------------------------------------------------------------------------


def write(tmp_path, values, base="h200"):
    path = tmp_path / "calibrated.toml"
    path.write_text(profile_toml(values, base, MEASURED_BY, ["Test GPU, measured 2026-12-01"]))
    return path


def test_the_written_profile_loads_with_the_measured_numbers(tmp_path):
    values = profile_values(measurements_of_the_model(), "h200")
    profile = load_profile(str(write(tmp_path, values)))
    assert profile.name == "Test GPU (calibrated 2026-12-01)"
    assert profile.h2d_gbps == values["h2d_gbps"].value
    assert profile.issue_gap_us == H200.issue_gap_us  # not measured: the base's
    assert profile.alloc_sizes_mib == H200.alloc_sizes_mib


def test_every_number_says_where_it_comes_from(tmp_path):
    values = profile_values(measurements_of_the_model(), "h200")
    text = write(tmp_path, values).read_text()
    assignments = [line for line in text.splitlines() if re.match(r"^\w+\s*=", line)]
    assert len(assignments) == len(tomllib.loads(text)["link"]) + sum(
        len(t) for name, t in tomllib.loads(text).items() if name != "link")
    for line in assignments:
        key, comment = line.split("=", 1)[0].strip(), line.split("#", 1)[1].strip()
        if key in values:
            assert comment.startswith(MEASURED_BY + ": ") and len(comment) > len(MEASURED_BY) + 5, line
        else:
            assert comment.startswith("not measured: the h200 profile's value ("), line


def test_the_model_runs_the_calibrated_profile_like_the_original(tmp_path):
    path = write(tmp_path, profile_values(measurements_of_the_model(jitter=0.01), "h200"))
    sim = create_backend()
    for config in (PipelineConfig(), PipelineConfig(memory=HostMemory.PAGEABLE), PipelineConfig(chunks=256)):
        calibrated = compute_metrics(sim.run(config, str(path))).makespan_ns
        original = compute_metrics(sim.run(config, "h200")).makespan_ns
        assert calibrated == pytest.approx(original, rel=0.03), config.describe()


def test_only_fields_the_model_knows_are_written(tmp_path):
    values = {**profile_values(measurements_of_the_model(), "h200"), "warp_size": Sourced(32, "a fact")}
    text = write(tmp_path, values).read_text()
    assert "warp_size" not in text and load_profile(str(write(tmp_path, values))).sm_count == 132


@pytest.mark.parametrize(
    ("name", "key"),
    [("NVIDIA H200", "h200"), ("NVIDIA H200 NVL", "h200"), ("Tesla K20c", "tesla-k20c"), ("Tesla C2050", "tesla-c2050"),
     ("NVIDIA A100-SXM4-80GB", "h200"), ("NVIDIA GeForce RTX 4090", "h200")],
)
def test_the_nearest_shipped_profile_is_never_a_what_if(name, key):
    assert nearest_profile(name) == key


@pytest.mark.parametrize(
    ("value", "text"),
    [(True, "true"), (3, "3"), (2357.0, "2357.0"), (3.79e-05, "3.79e-05"), ('a "quoted" name', '"a \\"quoted\\" name"'),
     ((64, 256), "[64, 256]")],
)
def test_values_are_written_as_toml(value, text):
    assert format_value(value) == text
    assert tomllib.loads(f"x = {text}")["x"] == (list(value) if isinstance(value, tuple) else value)


DIRECTIONS = ((OpKind.H2D, "h2d"), (OpKind.D2H, "d2h"))


def test_pageable_copies_count_from_when_they_could_begin_until_their_call_returned():
    trace = create_backend().run(PipelineConfig(memory="pageable"), "h200")
    held = pageable_copy_seconds(trace)
    # on the model a pageable call returns when its copy ends, so the held time is at least the
    # copies' own time, and at most the host's time blocked plus each call's cost before its copy
    busy = {key: trace.duration_ns[trace.mask(kind)].sum() / 1e9 for kind, key in DIRECTIONS}
    for key in ("h2d", "d2h"):
        assert busy[key] <= held[key] <= busy[key] * 1.05
    calls = pageable_copy_calls(trace)
    assert sum(held.values()) >= host_blocked_per_row(trace)[calls].sum() / 1e9 * 0.99


def test_a_pinned_run_has_no_pageable_copy_time():
    assert pageable_copy_seconds(create_backend().run(PipelineConfig(), "h200")) == {"h2d": 0.0, "d2h": 0.0}
