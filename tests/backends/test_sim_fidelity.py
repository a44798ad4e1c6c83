"""The h200 model against every pipeline measured on a real H200 (tests/backends/data)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from overlapviz.core.analysis.metrics import compute_metrics
from tests.backends.simrun import makespan_ms, simulate

DATA = Path(__file__).with_name("data") / "h200_pipelines.json"
SHARED_REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "h200" / "pipelines.json"
PIPELINES = json.loads(DATA.read_text())["pipelines"]


def model_config(measured: dict[str, object]) -> dict[str, object]:
    """The PipelineConfig keywords for one measured configuration."""
    config = dict(measured)
    variant = config.pop("variant")
    config["stream_kind"] = "legacy" if variant == "legacy" else "nonblocking"
    config["fresh_output"] = variant == "first-touch"
    return config


def label(pipeline: dict[str, object]) -> str:
    c = pipeline["config"]
    assert isinstance(c, dict)
    return f"{c['memory']}-{c['streams']}x{c['chunks']}-{c['order']}-iters{c['iters']}-{c['variant'] or 'plain'}"


@pytest.mark.parametrize("pipeline", [p for p in PIPELINES if p["config"]["memory"] == "pinned"], ids=label)
def test_pinned_makespan_within_10_percent(pipeline: dict) -> None:
    model = makespan_ms(simulate(**model_config(pipeline["config"])))
    assert model == pytest.approx(pipeline["makespan_ms"], rel=0.10)


@pytest.mark.parametrize("pipeline", [p for p in PIPELINES if p["config"]["memory"] == "pageable"], ids=label)
def test_pageable_makespan_within_35_percent_and_host_blocked(pipeline: dict) -> None:
    trace = simulate(**model_config(pipeline["config"]))
    model = makespan_ms(trace)
    assert model == pytest.approx(pipeline["makespan_ms"], rel=0.35)
    metrics = compute_metrics(trace)
    assert metrics.host_blocked_ns > 0.8 * metrics.makespan_ns, "the host should sit in pageable copies"


def test_legacy_stream_serialises_everything() -> None:
    legacy = next(p for p in PIPELINES if p["config"]["variant"] == "legacy")
    metrics = compute_metrics(simulate(**model_config(legacy["config"])))
    assert metrics.makespan_ns >= 0.98 * metrics.serial_ns


def test_committed_summary_matches_the_reference_when_present() -> None:
    if not SHARED_REFERENCE.is_file():
        pytest.skip("the shared reference measurements are not beside this checkout")
    full = json.loads(SHARED_REFERENCE.read_text())
    assert [p["config"] for p in full] == [p["config"] for p in PIPELINES]
    assert [round(p["makespan_ms"], 6) for p in full] == [p["makespan_ms"] for p in PIPELINES]
