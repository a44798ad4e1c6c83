"""What kind of program a trace is of, so that a finding's advice speaks its language.

A finding's numbers are the same for every program; what to do about them is not: a
PyTorch program pins memory with ``pin_memory()`` and makes streams with
``torch.cuda.Stream()``, a CUDA C++ program with ``cudaMallocHost`` and
``cudaStreamCreateWithFlags``. This module decides once, from the trace's metadata, which
words to use:

- overlapviz's own runs (the model, CuPy): the words they have always had (`Program.OVERLAPVIZ`);
- a PyTorch profiler trace, a Python script recorded by ``overlapviz profile``, or an Nsight
  Systems export of a Python process (the process or its main thread named ``python...``,
  or ``pt_main_thread`` as PyTorch renames it): PyTorch's words (`Program.PYTHON`);
- any other tool's trace, such as an Nsight Systems export of a compiled program: the CUDA
  runtime's words (`Program.CUDA`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from overlapviz.core.i18n import _
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import Trace

# The tools whose traces are always of a Python program.
PYTHON_TOOLS = frozenset({"PyTorch profiler", "overlapviz profile (CUPTI)"})
# A process as Linux names it (its main thread's name, 15 characters at most): the
# interpreter, or PyTorch's main thread once it renamed itself.
_PYTHON_PROCESS = re.compile(r"(^|/)(python[\d.]*|pt_main_thread)$", re.IGNORECASE)


class Program(Enum):
    """The kind of program a trace is of, as far as advice goes."""

    OVERLAPVIZ = "overlapviz"  # overlapviz's own pipeline, on the model or through CuPy
    PYTHON = "python"  # a Python program: PyTorch's words
    CUDA = "cuda"  # a compiled program calling the CUDA runtime: its words

    @classmethod
    def of(cls, meta: TraceMeta) -> Program:
        """The kind of program `meta` describes (see the module docstring)."""
        if not meta.tool:
            return cls.OVERLAPVIZ  # only another tool's trace names the tool that made it
        if meta.tool in PYTHON_TOOLS or is_python_process(meta.process):
            return cls.PYTHON
        return cls.CUDA


def is_python_process(names: str | None) -> bool:
    """Whether any of the process names (comma-separated, as `TraceMeta.process` holds them) is Python's."""
    return any(_PYTHON_PROCESS.search(name.strip()) for name in (names or "").split(","))


@dataclass(frozen=True, slots=True)
class Advice:
    """One piece of advice in each program's words: what a finding tells the program to do.

    The words are marked with ``N_`` where the advice is declared and translated as they are said.
    """

    cuda: str  # a compiled program's: the CUDA runtime's calls
    python: str  # a Python program's: PyTorch's
    overlapviz: str | None = None  # overlapviz's own runs' (the model, CuPy); None: the CUDA words

    def words(self, trace: Trace) -> str:
        """The advice in the words of `trace`'s kind of program (`Program.of` its metadata)."""
        program = Program.of(trace.meta)
        if program is Program.PYTHON:
            return _(self.python)
        if program is Program.OVERLAPVIZ and self.overlapviz is not None:
            return _(self.overlapviz)
        return _(self.cuda)
