"""Pageable times measured on real H200 hosts, and the sentence a pageable model run carries."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from overlapviz.backends.sim.pageable_note import pageable_spread_note
from overlapviz.backends.sim.pageable_spread import MEASURED_DIR, measured_pageable_spread, read_pageable_spread
from overlapviz.core.config import MIB, PipelineConfig
from overlapviz.core.trace.spans import Trace
from tests.backends.simrun import SIM

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
H200_FILE = MEASURED_DIR / "h200.toml"
MEASURED = tomllib.loads(H200_FILE.read_text())["pageable_spread"]


def table(**changes: object) -> dict[str, object]:
    """The shipped h200 table with some values changed (None: the key removed)."""
    values = {**MEASURED, "measured": [dict(entry) for entry in MEASURED["measured"]], **changes}
    return {key: value for key, value in values.items() if value is not None}


def model_run(device: str = "h200", **config: object) -> Trace:
    return SIM.run(PipelineConfig(**config), device)  # type: ignore[arg-type]


# --- what was measured ------------------------------------------------------------------------


def test_the_h200_profile_holds_more_than_one_measured_host_each_with_its_source() -> None:
    spread = SIM.profile("h200").pageable_spread
    assert spread is not None
    assert len(spread.measurements) >= 2 and len(spread.dates) >= 2
    assert all(len(m.source) > 20 and re.fullmatch(r"\d{4}-\d{2}-\d{2}", m.date) for m in spread.measurements)
    assert spread.pipeline == PipelineConfig(memory="pageable")  # the default pipeline from pageable memory
    assert spread.copy_bytes == 16 * MIB


def test_the_ranges_span_every_measurement() -> None:
    spread = SIM.profile("h200").pageable_spread
    assert spread is not None
    entries = MEASURED["measured"]
    assert spread.pipeline_ms == (min(e["pipeline_ms"][0] for e in entries), max(e["pipeline_ms"][1] for e in entries))
    assert spread.h2d_gbps == (min(e["h2d_gbps"] for e in entries), max(e["h2d_gbps"] for e in entries))
    assert spread.d2h_gbps == (min(e["d2h_gbps"] for e in entries), max(e["d2h_gbps"] for e in entries))
    assert spread.pipeline_ms == (48.0, 84.86)
    assert spread.dates == ("2026-11-30", "2026-12-01")


def test_the_model_falls_inside_what_real_hosts_measured() -> None:
    spread = SIM.profile("h200").pageable_spread
    assert spread is not None
    makespan = model_run(memory="pageable")
    device = makespan.device_mask
    ms = (makespan["end_ns"][device].max() - makespan["start_ns"][device].min()) / 1e6
    assert spread.pipeline_ms[0] < ms < spread.pipeline_ms[1]


@pytest.mark.parametrize("name", ["h200_pageable_20261201T0840.json", "h200_pageable_20261201T0842.json"])
def test_each_measurement_with_a_result_file_matches_it(name: str) -> None:
    result = json.loads((RESULTS / name).read_text())
    entry = next(e for e in MEASURED["measured"] if name in e["source"])
    makespans = result["default_pipeline"]["pageable"]["makespans_ms"]
    assert entry["pipeline_ms"] == [round(min(makespans), 2), round(max(makespans), 2)]  # the file keeps 2 decimals
    assert result["date_utc"].startswith(entry["date"])
    rates = {p["direction"]: round(p["gbps"], 2) for p in result["bandwidth"]
             if p["memory"] == "pageable" and p["size"] == 16 * MIB}  # fmt: skip
    assert (entry["h2d_gbps"], entry["d2h_gbps"]) == (rates["h2d"], rates["d2h"])


def test_the_first_days_measurement_matches_its_result_files() -> None:
    entry = next(e for e in MEASURED["measured"] if "h200_model_check.json" in e["source"])
    runs = json.loads((RESULTS / "h200_model_check.json").read_text())["runs"]
    default = PipelineConfig(memory="pageable").to_dict()
    pageable = [run for run in runs if {**default, **run["config"], "host_alloc": "reuse"} == default]
    makespans = [ms for run in pageable for ms in run["makespans_ms"]]
    assert len(makespans) == 6
    assert entry["pipeline_ms"] == [round(min(makespans), 2), round(max(makespans), 2)]
    points = json.loads((RESULTS / "h200_bandwidth.json").read_text())["points"]
    rates = {p["direction"]: round(p["gbps"], 2) for p in points
             if p["memory"] == "pageable" and p["size_bytes"] == 16 * MIB}  # fmt: skip
    assert (entry["h2d_gbps"], entry["d2h_gbps"]) == (rates["h2d"], rates["d2h"])


def test_every_number_in_the_measurement_file_names_its_source() -> None:
    for line in H200_FILE.read_text().splitlines():
        if re.match(r"^\w+\s*=\s*[-\d.e\[]", line):
            assert "#" in line and len(line.split("#", 1)[1].strip()) > 5, line


@pytest.mark.parametrize("key", ["tesla-c1060", "tesla-c2050", "tesla-k20c", "h200-one-copy-engine"])
def test_profiles_without_measurements_have_no_spread(key: str) -> None:
    assert SIM.profile(key).pageable_spread is None


@pytest.mark.parametrize("key", ["../measured/h200", "/tmp/h200", "H200", ""])
def test_only_a_shipped_profile_name_is_looked_up(key: str) -> None:
    assert measured_pageable_spread(key) is None


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"machines": None}, "machines is missing"),
        ({"pipeline": {"memory": "cheap"}}, "pipeline: memory: 'cheap' is not one of"),
        ({"pipeline": "default"}, "pipeline must be a table"),
        ({"copy_bytes": 0}, "copy_bytes must be a whole number of bytes above zero"),
        ({"measured": []}, "measured must list at least one measurement"),
        ({"colour": "red"}, "unknown colour"),
        ({"measured": [{"date": "2026-12-01", "source": "x", "pipeline_ms": [50, 48], "h2d_gbps": 9.0,
                        "d2h_gbps": 14.4}]}, r"measurement 1: pipeline_ms must be \[fastest, slowest\]"),
        ({"measured": [{"date": "2026-12-01", "source": "x", "pipeline_ms": [48, 50], "h2d_gbps": -9.0,
                        "d2h_gbps": 14.4}]}, "measurement 1: h2d_gbps must be a number above zero"),
        ({"measured": [{"date": "2026-12-01", "pipeline_ms": [48, 50], "h2d_gbps": 9.0,
                        "d2h_gbps": 14.4}]}, "measurement 1: source is missing"),
    ],
)  # fmt: skip
def test_a_malformed_table_is_refused_with_what_is_wrong(changes: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        read_pageable_spread(table(**changes))


# --- the sentence -----------------------------------------------------------------------------


@pytest.mark.parametrize("host_alloc", ["reuse", "per-run"])
def test_the_measured_pipeline_gets_the_measured_makespans(host_alloc: str) -> None:
    note = pageable_spread_note(model_run(memory="pageable", host_alloc=host_alloc), SIM.profile("h200"))
    assert note == (
        "Real pageable times vary with the host's memory system:"
        " this pipeline measured 48.0-84.9 ms on H200 hosts (2026-11-30 and 2026-12-01)."
    )


def test_another_pageable_pipeline_gets_the_measured_rates_beside_the_models() -> None:
    note = pageable_spread_note(model_run(memory="pageable", chunks=8, streams=2), SIM.profile("h200"))
    assert note == (
        "Real pageable copies vary with the host's memory system: single copies of 16 MiB measured"
        " 9.00-13.3 GB/s H2D and 10.2-14.6 GB/s D2H on H200 hosts (2026-11-30 and 2026-12-01);"
        " the model copies at 7.03 and 11.2 GB/s."
    )


@pytest.mark.parametrize("memory", ["pinned", "registered"])
def test_no_sentence_for_pinned_or_registered_memory(memory: str) -> None:
    assert pageable_spread_note(model_run(memory=memory), SIM.profile("h200")) is None


def test_no_sentence_for_a_profile_without_measurements() -> None:
    trace = model_run("tesla-c2050", memory="pageable")
    assert pageable_spread_note(trace, SIM.profile("tesla-c2050")) is None


@pytest.mark.parametrize(
    "meta_changes",
    [{"simulated": False, "timing": "cupti", "backend": "cupy"}, {"config": None}, {"config": {"chunks": "many"}}],
    ids=["real-gpu", "no-config", "bad-config"],
)
def test_no_sentence_for_a_run_the_model_did_not_draw_or_cannot_name(meta_changes: dict[str, object]) -> None:
    trace = model_run(memory="pageable")
    other = trace.with_meta(**meta_changes)
    assert pageable_spread_note(other, SIM.profile("h200")) is None
