"""Each finding for real programs fires on a real trace that shows the mistake, and not on one that does not."""

from pathlib import Path

import pytest

from overlapviz.core.findings.host import PAGEABLE_COST_SHARE, pageable_cost_ns
from overlapviz.importers.read import read_trace_file
from overlapviz.session import analyse

DATA = Path(__file__).resolve().parents[1] / "data"
WSL_WITHOUT_GPU_WORK = "ripgrep-2025.3-wsl2-no-gpu-activity.sqlite.gz"  # no copy, memset or kernel: refused


def codes(relative: str) -> set[str]:
    return {finding.code for finding in analyse(read_trace_file(DATA / relative)).findings}


@pytest.mark.parametrize(
    ("code", "fires_on", "quiet_on"),
    [
        # PyTorch .to("cuda", non_blocking=True) from a plain tensor vs from pin_memory()
        ("host-blocked-pageable", "torch/torch-pageable.json.gz", "torch/torch-pinned.json.gz"),
        # non_blocking=False: a cudaStreamSynchronize after every copy
        ("sync-after-copy", "torch/torch-blocking.json.gz", "torch/torch-pinned.json.gz"),
        # every chunk on the current stream vs spread over four streams
        ("single-stream", "torch/torch-one-stream.json.gz", "torch/torch-pinned.json.gz"),
        # a DataLoader on the main thread leaves the GPU idle; the copy loop keeps it busy
        ("gpu-idle", "torch/torch-dataloader.json.gz", "torch/torch-pinned.json.gz"),
        # cudaHostAlloc and cudaFreeHost around a short run, in a real Nsight Systems export
        ("alloc-per-run", "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz", "nsys/mordred-2021-no-enums.sqlite.gz"),
        # copies of one direction queued on one engine although issued on four streams
        ("copy-queue", "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz", "torch/torch-pinned.json.gz"),
        # pageable cudaMemcpy on the legacy default stream blocked 2% of the run; 0.2% is left alone
        ("host-blocked-pageable", "nsys/mordred-2021-no-enums.sqlite.gz",
         "nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz"),
        # either side of the hundredth: ResNet-50's pageable copies cost 11.5 of 996 ms, AlexNet's 55 of 12,920 ms
        ("host-blocked-pageable", "torch-real/kineto-2021.6-resnet50-capitalised.json.gz",
         "torch-real/hta-alexnet-stream-wait.json.gz"),
        # one stream with copies to hide (37% of the run) vs a hash join whose copies ran 0.6% of it
        ("single-stream", "torch/torch-one-stream.json.gz", "nsys/mordred-2021-no-enums.sqlite.gz"),
        # nvFuser's kernels on the legacy stream beside one copy of 0.002 ms: nothing to overlap
        ("single-stream", "torch/torch-train-step.json.gz", "nsys/nvfuser-2024.6-nvtx.sqlite.gz"),
        # the same: copies and kernels of four streams held back behind each other with an engine idle;
        # the two streams of torch-wait-stream wait for each other because the program said so
        ("false-dependency", "nsys/test-cuda-2026.1-pinned-streams.sqlite.gz", "torch/torch-wait-stream.json.gz"),
    ],
)
def test_a_finding_fires_where_the_mistake_is_and_not_elsewhere(code, fires_on, quiet_on):
    assert code in codes(fires_on)
    assert code not in codes(quiet_on)


def test_no_chunk_rule_speaks_of_another_programs_trace():
    for path in [*DATA.glob("torch/*.gz"), *DATA.glob("nsys/*.gz")]:
        if path.name == WSL_WITHOUT_GPU_WORK:
            continue
        found = analyse(read_trace_file(path)).findings
        assert not {"too-few-chunks", "too-many-chunks"} & {f.code for f in found}, path.name
        assert all(" chunks" not in f.message for f in found), path.name


def test_pageable_copies_between_a_thousandth_and_a_hundredth_of_the_run_are_left_alone():
    # balinski-gomory's pageable cudaMemcpy calls blocked the host 0.03 ms of a 13.3 ms run
    trace = read_trace_file(DATA / "nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz")
    cost = pageable_cost_ns(trace)
    makespan = analyse(trace).metrics.makespan_ns
    assert 0.001 * makespan < cost < PAGEABLE_COST_SHARE * makespan
    assert "host-blocked-pageable" not in codes("nsys/balinski-gomory-2025.5-pageable-uvm.sqlite.gz")


def test_pageable_copies_on_the_legacy_default_stream_are_found_with_their_rate():
    found = analyse(read_trace_file(DATA / "nsys/mordred-2021-no-enums.sqlite.gz")).findings
    message = next(f.message for f in found if f.code == "host-blocked-pageable")
    assert "blocked 0.298 ms (2% of the run) inside cudaMemcpy:" in message
    assert "The copies ran at 7.16 GB/s." in message


def test_no_false_dependency_for_waits_the_program_recorded_nor_on_one_stream():
    quiet = [
        "torch/torch-wait-stream.json.gz",  # 16 cudaStreamWaitEvent, the streams they join not recorded
        "torch/torch-wait-stream-sync.json.gz",  # the same with Kineto's cuda_sync events
        "torch-real/hta-alexnet-stream-wait.json.gz",  # waits Kineto resolved to the stream and event record
        "torch-real/hta-nccl-a100-rank0-of-2.json.gz",  # 84 cudaStreamWaitEvent around NCCL's stream
        "torch/torch-one-stream.json.gz",  # one stream: no other stream's op to sit behind
    ]
    assert [name for name in quiet if "false-dependency" in codes(name)] == []


def test_ops_of_several_kinds_held_back_are_counted_as_ops_with_their_kinds_listed():
    # HTA cut this rank's trace down to no recorded waits: its held-back ops stand
    found = analyse(read_trace_file(DATA / "torch-real/hta-sampled-rank0-of-128.json.gz")).findings
    message = next(f.message for f in found if f.code == "false-dependency")
    assert message.startswith("518 ops (H2D copies, kernels, memsets, D2D copies and communication kernels), ready")
