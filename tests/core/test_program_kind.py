"""Advice in the words of the program a trace is of: overlapviz's own, a compiled CUDA program, a Python one."""

import pytest
from tracefactory import pipeline_trace

from overlapviz.core.analysis.program_kind import Advice, Program
from overlapviz.core.findings import find_findings
from overlapviz.core.trace.meta import TraceMeta

WORDS = Advice(cuda="cudaMallocHost", python="pin_memory()", overlapviz="as ever")


@pytest.mark.parametrize(
    ("meta", "program", "words"),
    [
        (TraceMeta(backend="sim"), Program.OVERLAPVIZ, "as ever"),
        (TraceMeta(backend="file", tool="Nsight Systems", process="./a.out"), Program.CUDA, "cudaMallocHost"),
        (TraceMeta(backend="file", tool="Nsight Systems"), Program.CUDA, "cudaMallocHost"),
        (TraceMeta(backend="file", tool="Nsight Systems", process="python3"), Program.PYTHON, "pin_memory()"),
        (TraceMeta(backend="file", tool="PyTorch profiler"), Program.PYTHON, "pin_memory()"),
        (TraceMeta(backend="file", tool="overlapviz profile (CUPTI)"), Program.PYTHON, "pin_memory()"),
    ],
)
def test_the_program_and_its_words_come_from_the_traces_metadata(meta, program, words):
    assert Program.of(meta) is program
    assert WORDS.words(pipeline_trace(2, 2).with_meta(**meta.to_dict())) == words


def test_advice_without_words_of_its_own_for_overlapviz_runs_takes_the_cuda_words():
    assert Advice(cuda="cuda", python="python").words(pipeline_trace(2, 2)) == "cuda"


def test_overlapviz_runs_keep_their_advice():
    message = next(f.message for f in find_findings(pipeline_trace(8, 4, memory="pageable")))
    assert message.endswith("Pinned memory (cudaMallocHost) lets the call return at once.")
