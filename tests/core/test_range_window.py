import pytest

from overlapviz.core.analysis.time_window import Window, WindowError, is_time_range
from overlapviz.core.analysis.time_window_names import range_names, range_window
from overlapviz.core.trace.meta import TraceMeta
from overlapviz.core.trace.spans import OpKind, TraceBuilder, Unit


def stepped_trace():
    """Three steps as ranges, ``ProfilerStep#7`` twice, kernels inside."""
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 100, name="k", stream=0)
    for step, (start, end) in enumerate([(10, 40), (40, 70), (70, 95)]):
        b.add(OpKind.ANNOTATION, Unit.HOST, start, end, name="step", device=-1)
        b.add(OpKind.ANNOTATION, Unit.HOST, start + 1, start + 5, name=f"inner {step}", device=-1)
    b.add(OpKind.ANNOTATION, Unit.HOST, 20, 30, name="ProfilerStep#7", device=-1)
    b.add(OpKind.ANNOTATION, Unit.HOST, 60, 65, name="ProfilerStep#7", device=-1)
    return b.build(TraceMeta(), origin_ns=0)


def test_a_name_is_its_first_range_and_name_hash_k_its_kth():
    trace = stepped_trace()
    assert range_window(trace, "step") == Window(10, 40)
    assert range_window(trace, "step#1") == Window(10, 40)
    assert range_window(trace, "step#3") == Window(70, 95)
    assert range_window(trace, "inner 1") == Window(41, 45)


def test_a_name_that_holds_a_hash_is_taken_whole_first():
    trace = stepped_trace()
    assert range_window(trace, "ProfilerStep#7") == Window(20, 30)
    assert range_window(trace, "ProfilerStep#7#2") == Window(60, 65)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("nothing", "no range is named 'nothing'; the trace has 'step', 'inner 0', 'ProfilerStep#7', 'inner 1',"
                    " 'inner 2'"),
        ("step#4", "there are 3 ranges named 'step', so none is #4 (count from 1)"),
        ("step#0", "so none is #0"),
        ("inner 0#2", "there is 1 range named 'inner 0', so none is #2"),
        ("ProfilerStep#8", "no range is named 'ProfilerStep#8'"),
    ],
)
def test_no_match_says_which_names_exist(text, words):
    with pytest.raises(WindowError) as caught:
        range_window(stepped_trace(), text)
    assert words in str(caught.value)


def test_more_names_than_shown_are_counted():
    b = TraceBuilder()
    for i in range(8):
        b.add(OpKind.ANNOTATION, Unit.HOST, i, i + 1, name=f"r{i}")
    with pytest.raises(WindowError, match=r"'r4' and 3 more$"):
        range_window(b.build(TraceMeta()), "x")


def test_a_trace_without_ranges_says_so():
    b = TraceBuilder()
    b.add(OpKind.KERNEL, Unit.COMPUTE, 0, 10, name="step", stream=0)  # a kernel of that name is no range
    with pytest.raises(WindowError, match="this trace has no named ranges"):
        range_window(b.build(TraceMeta()), "step")
    assert range_names(b.build(TraceMeta())) == ()


@pytest.mark.parametrize(("text", "times"), [("2:4.5", True), (":3", True), ("10:", True), (":", False),
                                             ("ProfilerStep#2", False), ("step 1", False)])
def test_times_are_told_from_names(text, times):
    assert is_time_range(text) is times
