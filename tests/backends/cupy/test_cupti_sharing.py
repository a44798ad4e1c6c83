"""The decisions on whether CUPTI's records are ours alone (pure: no CUDA imported)."""

import dataclasses

import pytest

from overlapviz.backends.cupy.cupti_records import DeviceRecord
from overlapviz.backends.cupy.cupti_sharing import (
    Delivery,
    after_run_reason,
    before_run_reason,
    duplicated_ops,
    fallback_note,
    foreign_reason,
    merge,
    probe_returned,
    should_rearm,
    subscriber_reason,
)
from overlapviz.backends.cupy.cupti_trace import run_device_records
from overlapviz.core.config import PipelineConfig
from overlapviz.core.trace.spans import OpKind
from tests.backends.cupy.fakes import fake_records, planned_ops

MIB = 1 << 20
CONFIG = PipelineConfig(size_bytes=8 * MIB, chunks=4, streams=2)


def run_ops():
    plan = planned_ops(CONFIG)
    apis, devices = fake_records(plan, chunk_bytes=CONFIG.chunk_bytes)
    return plan, run_device_records(devices, apis)


@pytest.mark.parametrize("status", ["ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", "cuptiError: multiple subscribers"])
def test_a_refused_subscription_names_the_other_client(status):
    reason = subscriber_reason(status)
    assert "torch.profiler" in reason and "Nsight Systems" in reason and status in reason


@pytest.mark.parametrize("status", ["", "ERROR_NOT_INITIALIZED", "ERROR_INSUFFICIENT_PRIVILEGES"])
def test_other_subscription_failures_say_nothing_about_sharing(status):
    assert subscriber_reason(status) == ""


def test_foreign_kinds_are_listed_with_their_counts():
    reason = foreign_reason({"OVERHEAD": 3, "MEMSET": 1, "EXTERNAL_CORRELATION": 0})
    assert reason.startswith("another CUPTI client is tracing")
    assert "MEMSET x1, OVERHEAD x3" in reason and "EXTERNAL" not in reason
    assert foreign_reason({}) == foreign_reason({"OVERHEAD": 0}) == ""


def copy(kind, start, nbytes):
    return DeviceRecord(kind, start, start + 10, correlation_id=1, stream_id=7, nbytes=nbytes)


def test_the_probe_is_the_small_h2d_issued_after_the_mark():
    assert probe_returned([copy(OpKind.H2D, 500, 4)], since_ns=400, nbytes=4)
    assert not probe_returned([copy(OpKind.H2D, 300, 4)], since_ns=400, nbytes=4)  # an earlier one
    assert not probe_returned([copy(OpKind.D2H, 500, 4)], since_ns=400, nbytes=4)
    assert not probe_returned([copy(OpKind.H2D, 500, 1 << 20)], since_ns=400, nbytes=4)
    assert not probe_returned([], since_ns=0, nbytes=4)


def test_callbacks_are_taken_back_only_when_no_client_is_seen():
    assert should_rearm("", {}, returned=False)
    assert not should_rearm("", {}, returned=True)  # nothing to repair
    assert not should_rearm("another profiler ... attached", {}, returned=False)
    assert not should_rearm("", {"OVERHEAD": 2}, returned=False)


def test_before_the_run_the_first_sign_of_another_client_is_the_reason():
    assert before_run_reason("", {}, returned=True) == ""
    assert before_run_reason("held", {"OVERHEAD": 1}, returned=False) == "held"
    assert before_run_reason("", {"OVERHEAD": 1}, returned=False).startswith("another CUPTI client is tracing")
    assert before_run_reason("", {}, returned=False).startswith("CUPTI did not hand back the probe copy")


def test_a_run_whose_ops_all_came_back_once_is_ours():
    plan, ops = run_ops()
    assert after_run_reason(plan, ops, {}) == ""


def test_a_missing_op_means_the_records_went_elsewhere():
    plan, ops = run_ops()
    reason = after_run_reason(plan, ops[:-2], {})
    assert f"{len(plan) - 2} copies and kernels for {len(plan)} issued ops" in reason and "another client" in reason


def test_an_op_handed_back_twice_means_shared_records():
    plan, ops = run_ops()
    assert duplicated_ops(ops) == []
    doubled = sorted([*ops, ops[3]], key=lambda d: d.correlation_id)
    assert duplicated_ops(doubled) == [ops[3].correlation_id]
    assert "more than once" in after_run_reason(plan, doubled, {})


def test_records_of_another_kind_in_the_plan_position_are_not_ours():
    plan, ops = run_ops()
    swapped = [dataclasses.replace(ops[0], kind=OpKind.D2H), *ops[1:]]
    assert "op 0 was issued as h2d but CUPTI recorded d2h" in after_run_reason(plan, swapped, {})


def test_foreign_kinds_during_the_run_win_over_complete_records():
    plan, ops = run_ops()
    assert after_run_reason(plan, ops, {"MEMSET": 2}).startswith("another CUPTI client is tracing")


def test_merge_keeps_every_record_and_sums_the_counts():
    _, ops = run_ops()
    merged = merge([Delivery([], ops[:2], {"OVERHEAD": 1}), Delivery([], ops[2:], {"OVERHEAD": 2, "MEMSET": 1})])
    assert merged.devices == ops and dict(merged.foreign) == {"OVERHEAD": 3, "MEMSET": 1}


def test_the_timing_note_is_one_line_starting_with_the_fallback():
    note = fallback_note(subscriber_reason("ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"))
    assert note.startswith("CUPTI is not used for this run: another profiler") and "\n" not in note
