"""Which program a real trace is of, from the names its file gives the processes, and the words its advice takes."""

from pathlib import Path

import pytest
from nsys_files import NAMES, NVTX, OLD, STREAMS, UVM, activities_of, changed

from overlapviz.core.analysis.program_kind import Program, is_python_process
from overlapviz.importers.nsys import read_nsys
from overlapviz.importers.read import read_trace_file
from overlapviz.importers.to_trace import activities_to_trace
from overlapviz.session import analyse

DATA = Path(__file__).resolve().parents[1] / "data"


def findings_of(trace):
    return {finding.code: finding.message for finding in analyse(trace).findings}


@pytest.mark.parametrize(
    ("name", "process"),
    [
        (NVTX, "./bin/test_matmul"),  # PROCESSES
        (UVM, "build/test1"),
        (STREAMS, "/home/hangyudu/tmp/async.out"),
        (OLD, "testqo"),  # no PROCESSES table: the main thread's name in ThreadNames
    ],
)
def test_an_export_names_the_process_that_called_cuda(name, process):
    trace = activities_to_trace(activities_of(name))
    assert trace.meta.process == process
    assert Program.of(trace.meta) is Program.CUDA


@pytest.mark.parametrize("name", NAMES)
def test_an_export_of_a_python_process_is_a_python_program(name):
    renamed = changed(
        name,
        "UPDATE StringIds SET value = 'python3.11' WHERE id IN (SELECT nameId FROM ThreadNames)",
        *(["UPDATE PROCESSES SET name = '/usr/bin/python3.11'"] if name != OLD else []),
    )
    trace = activities_to_trace(read_nsys(renamed, name))
    assert Program.of(trace.meta) is Program.PYTHON


@pytest.mark.parametrize(
    ("names", "python"),
    [("python", True), ("/usr/bin/python3.11", True), ("pt_main_thread", True), ("a.out, python3", True),
     ("./bin/test_matmul", False), ("pythonic_tool", False), (None, False), ("", False)],
)
def test_python_processes_are_known_by_their_names(names, python):
    assert is_python_process(names) is python


def test_a_pytorch_trace_is_a_python_program():
    assert Program.of(read_trace_file(DATA / "torch/torch-pinned.json.gz").meta) is Program.PYTHON


def test_a_compiled_programs_idle_gpu_gets_the_cuda_runtimes_words():
    # nvFuser's C++ matmul test: the GPU busy 0.39 of 503.6 ms
    message = findings_of(activities_to_trace(activities_of(NVTX)))["gpu-idle"]
    assert "cudaMemcpyAsync" in message and "the program's own code" in message
    assert "DataLoader" not in message and "Python" not in message and "PyTorch" not in message


def test_the_same_export_of_a_python_process_gets_pytorchs_words():
    renamed = changed(NVTX, "UPDATE PROCESSES SET name = 'python3'")
    message = findings_of(activities_to_trace(read_nsys(renamed, NVTX)))["gpu-idle"]
    assert "DataLoader(num_workers=...)" in message and "cudaMemcpyAsync" not in message


def test_a_pytorch_programs_idle_gpu_gets_pytorchs_words():
    message = findings_of(read_trace_file(DATA / "torch/torch-dataloader.json.gz"))["gpu-idle"]
    assert "DataLoader(num_workers=...)" in message


@pytest.mark.parametrize(
    ("path", "code", "words", "not_words"),
    [
        ("nsys/mordred-2021-no-enums.sqlite.gz", "host-blocked-pageable", "cudaMallocHost", "pin_memory"),
        ("torch/torch-pageable.json.gz", "host-blocked-pageable", "pin_memory()", "cudaMallocHost"),
        ("torch/torch-blocking.json.gz", "sync-after-copy", "non_blocking=True", "cudaMemcpyAsync"),
        ("nsys/test-cuda-2026.1-pinned-streams.sqlite.gz", "alloc-per-run", "cudaMallocHost", "pin_memory"),
        ("torch/torch-one-stream.json.gz", "single-stream", "torch.cuda.Stream()", "cudaStreamCreate"),
        ("nsys/mordred-2021-no-enums.sqlite.gz", "small-copies", "cudaMemcpyAsync", "torch"),
    ],
)
def test_advice_speaks_the_language_of_the_program(path, code, words, not_words):
    message = findings_of(read_trace_file(DATA / path))[code]
    assert words in message and not_words not in message


def test_the_python_tools_are_the_ones_the_importers_name():
    from overlapviz.backends.cupy.cupti_recording import TOOL as PROFILE_TOOL
    from overlapviz.core.analysis.program_kind import PYTHON_TOOLS
    from overlapviz.importers.kineto import TOOL as KINETO_TOOL

    assert {KINETO_TOOL, PROFILE_TOOL} == PYTHON_TOOLS
