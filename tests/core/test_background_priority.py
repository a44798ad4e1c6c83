"""Background work runs below the GUI thread's priority: the thread that is lowered, and what it starts."""

import multiprocessing
import os
import sys
import threading

import pytest

from overlapviz.core.background_priority import BACKGROUND_NICE, lower_this_process, lower_this_thread

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="nice values per thread are Linux's")


def _nice_of(thread_id=0):
    return os.getpriority(os.PRIO_PROCESS, thread_id)


def _in_a_thread(work):
    found = []
    thread = threading.Thread(target=lambda: found.append(work()))
    thread.start()
    thread.join()
    return found[0]


@linux_only
def test_a_lowered_thread_runs_at_the_background_nice_and_the_others_do_not():
    before = _nice_of()

    def lowered():
        lower_this_thread()
        return _nice_of(threading.get_native_id())

    assert before < BACKGROUND_NICE
    assert _in_a_thread(lowered) == BACKGROUND_NICE
    assert _nice_of() == before  # the calling (GUI) thread keeps its own


@linux_only
def test_what_a_lowered_thread_starts_is_lowered_too():
    def started_from_a_lowered_thread():
        lower_this_thread()
        return _in_a_thread(lambda: _nice_of(threading.get_native_id()))

    assert _in_a_thread(started_from_a_lowered_thread) == BACKGROUND_NICE


@linux_only
def test_a_thread_already_lower_is_not_raised():
    def lower_still():
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, BACKGROUND_NICE + 5)
        lower_this_thread()
        return _nice_of(me)

    assert _in_a_thread(lower_still) == BACKGROUND_NICE + 5


def _report_nice(queue):
    lower_this_process()
    queue.put(os.getpriority(os.PRIO_PROCESS, 0))


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no nice values here")
def test_a_child_process_lowers_itself():
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_report_nice, args=(queue,))
    child.start()
    try:
        assert queue.get(timeout=60) == max(BACKGROUND_NICE, _nice_of())
    finally:
        child.join(timeout=60)
