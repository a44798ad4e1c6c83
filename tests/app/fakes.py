"""Plain stand-ins for what the controller talks to: an executor, the window's messages, a timer, settings."""

from __future__ import annotations

from overlapviz.app.executor import outcome_of
from overlapviz.app.run_targets import RunTarget, target_title
from overlapviz.backends.sim.backend import SimBackend
from overlapviz.core.cancel import CancelToken

SIM_TARGETS = [RunTarget("sim", d.key, target_title(d.name, "sim", True), True) for d in SimBackend().devices()]
H200 = next(t for t in SIM_TARGETS if t.device == "h200")


class QueuedExecutor:
    """Holds submitted jobs until `run_all`; like the app's, only the newest job's outcome is reported."""

    def __init__(self):
        self.pending = []
        self.submitted = 0

    def submit(self, job, done):
        for _job, token, _done in self.pending:
            token.cancel()
        self.pending = [(job, CancelToken(), done)]
        self.submitted += 1

    def cancel(self):
        for _job, token, _done in self.pending:
            token.cancel()
        self.pending = []

    def run_all(self):
        pending, self.pending = self.pending, []
        for job, token, done in pending:
            outcome = outcome_of(job, token)
            if not outcome.cancelled:
                done(outcome)


class Messages:
    def __init__(self):
        self.errors, self.notices = [], []
        self.error = ""

    def show_error(self, text):
        self.errors.append(text)
        self.error = text

    def clear_error(self):
        self.error = ""

    def show_notice(self, text):
        self.notices.append(text)


class ManualTimer:
    def __init__(self):
        self.callback = None

    def start(self, callback):
        self.callback = callback

    def stop(self):
        self.callback = None

    def is_active(self):
        return self.callback is not None

    def fire(self):
        callback, self.callback = self.callback, None
        callback()


class DictSettings(dict):
    def get(self, key):
        return super().get(key)

    def put(self, key, value):
        self[key] = value

    def remove(self, key):
        self.pop(key, None)
