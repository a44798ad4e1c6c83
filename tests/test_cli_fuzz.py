"""Generated argument vectors through `main`, in-process: a summary or one line on stderr, never a traceback."""

import json

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from overlapviz.backends import registry
from overlapviz.commands.main import main

pytestmark = pytest.mark.fuzz

# Values a careless or hostile user might type: valid ones, out of range ones, other scripts'
# digits, huge numbers, fractions, empty strings, control characters.
_ODD = st.sampled_from([
    "", " ", "-1", "0", "+3", "1e3", "0x10", "１６", "٣٤", "四", "9" * 40, "9" * 400, "nan", "inf",
    "1.0000000000000001GiB", "1.5", "\x00", "\u202e4", "4 4", "--", "-", "256MiB", "64k", "4KiB",
])
_COUNT = st.one_of(st.integers(-3, 40).map(str), _ODD)
_SIZE = st.one_of(st.sampled_from(["4KiB", "1MiB", "16MiB", "256MiB", "3MB", "1000000"]), _ODD)
_CHOICE = st.one_of(st.sampled_from(["pinned", "pageable", "registered", "depth", "breadth", "legacy",
                                     "nonblocking", "fma", "sincos", "reuse", "per-run"]), _ODD)
_FLAGS = {
    "--chunks": _COUNT,
    "--streams": _COUNT,
    "--kernel-iters": st.one_of(st.integers(0, 3000).map(str), _ODD),
    "--size": _SIZE,
    "--memory": _CHOICE,
    "--order": _CHOICE,
    "--stream-kind": _CHOICE,
    "--kernel": _CHOICE,
    "--host-alloc": _CHOICE,
    "--device": st.one_of(st.sampled_from(["h200", "tesla-c1060", "tesla-c2050", "tesla-k20c"]), _ODD),
    "--preset": st.one_of(st.sampled_from(["default", "chunks-too-few", "harris-c2050-v2"]), _ODD),
}


@st.composite
def argument_vectors(draw):
    argv = ["run", "--backend", "sim"]
    for flag in draw(st.lists(st.sampled_from(sorted(_FLAGS)), max_size=5, unique=True)):
        argv += [flag, draw(_FLAGS[flag])]
    if draw(st.booleans()):
        argv.append(draw(st.sampled_from(["--fresh-output", "--no-fresh-output", "--bogus", "extra"])))
    return [*argv, "--json"]


@fuzz_settings(1000)
@given(argv=argument_vectors())
def test_any_argument_vector_gives_a_summary_or_one_line(argv, capsys, monkeypatch):
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    code = main(argv)
    out, err = capsys.readouterr()
    if code == 0:
        report = json.loads(out)
        assert err == ""
        for run in report.get("runs", [report]):  # a comparison preset runs two pipelines
            assert run["makespan_ms"] > 0
            for key in ("copy_hidden_pct", "engines_together_pct", "efficiency_pct"):
                assert run[key] is None or 0 <= run[key] <= 100
    else:
        # 2: bad input; 1: a refusal by the run itself (the RAM guard)
        assert code in (1, 2), (argv, code, err)
        assert out == "" and err.count("\n") == 1 and err.startswith("overlapviz"), (argv, err)
        assert "Traceback" not in err
