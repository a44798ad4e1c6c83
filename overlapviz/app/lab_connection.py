"""The class's lab GPU as a place to run: its target in "Run on", its address and join code, its runs.

The lab server is one more `RunTarget` (backend ``lab``); the app's run function runs every
other target here and sends the lab's runs to the server (`lab.client_wait`), telling who
listens the user's place in the queue while a run waits. The address, the join code and
the user's id are remembered in the app's settings store; the id is made once per user, so
that the server shares its GPU fairly between learners across launches.
"""

from __future__ import annotations

from dataclasses import dataclass

from overlapviz.app.events import Event
from overlapviz.app.executor import RunFunction
from overlapviz.app.ports import SettingsStore
from overlapviz.app.run_targets import RunTarget
from overlapviz.core.cancel import CancelToken
from overlapviz.core.config import PipelineConfig
from overlapviz.core.i18n import N_, _
from overlapviz.core.run_errors import RunCancelled
from overlapviz.lab.client import LabClient, LabError, LabUnreachable, new_client_id
from overlapviz.lab.client_result import lab_run
from overlapviz.lab.client_wait import run_waiting
from overlapviz.session import RunResult

LAB_BACKEND = "lab"
LAB_TARGET = RunTarget(LAB_BACKEND, "", N_("Lab GPU\u2026"), simulated=False)
URL_KEY, CODE_KEY, CLIENT_KEY = "lab/url", "lab/code", "lab/client"
NOT_SET = N_("no lab server is set: choose Run \u25b8 Lab GPU\u2026 and give its address and your join code")


class LabNotReached(RunCancelled):
    """The server could not be reached: the window says so itself, with the model one click away."""


@dataclass(frozen=True)
class LabSettings:
    """Where the lab server is and the code that joins its class."""

    url: str
    code: str


def with_lab(targets: list[RunTarget]) -> list[RunTarget]:
    """The targets offered in "Run on": the ones here, then the lab GPU."""
    return [*targets, LAB_TARGET]


def is_lab(target: RunTarget | None) -> bool:
    """Whether `target` is the lab server."""
    return target is not None and target.backend == LAB_BACKEND


class LabConnection:
    """The lab server the app runs on and follows; `position_changed` and `unreachable` fire on the run's thread."""

    def __init__(self, store: SettingsStore | None) -> None:
        self._store = store
        url, code = (store.get(URL_KEY), store.get(CODE_KEY)) if store is not None else (None, None)
        self.settings = LabSettings(url, code) if url and code else None
        self.client_id = (store.get(CLIENT_KEY) if store is not None else None) or new_client_id()
        if store is not None:
            store.put(CLIENT_KEY, self.client_id)
        self.position_changed: Event[int] = Event()
        self.unreachable: Event[str] = Event()
        self.settings_changed: Event[LabSettings | None] = Event()

    def set(self, settings: LabSettings) -> None:
        """Use (and remember) the server at `settings.url` with `settings.code` from now on."""
        self.settings = settings
        if self._store is not None:
            self._store.put(URL_KEY, settings.url)
            self._store.put(CODE_KEY, settings.code)
        self.settings_changed.emit(settings)

    def client(self) -> LabClient:
        """A client of the server set.

        Raises
        ------
        LabError
            None is set, or its address is no address.
        """
        if self.settings is None:
            raise LabError(_(NOT_SET))
        return LabClient(self.settings.url, self.settings.code, self.client_id)

    def run_function(self, local: RunFunction) -> RunFunction:
        """Run the lab's target on the server and every other with `local`."""

        def run(config: PipelineConfig, backend: str, device: str | None, cancel: CancelToken) -> RunResult:
            if backend != LAB_BACKEND:
                return local(config, backend, device, cancel)
            return self.run_on_server(config, cancel)

        return run

    def run_on_server(self, config: PipelineConfig, cancel: CancelToken) -> RunResult:
        """Run `config` on the lab server, its queue position told as it waits.

        Raises
        ------
        LabNotReached
            No answer: `unreachable` was told why first.
        LabError
            Refused, or the run failed there.
        """
        client = self.client()
        try:
            answer = run_waiting(client, config.to_dict(), cancel, self.position_changed.emit)
        except LabUnreachable as error:
            self.unreachable.emit(str(error))
            raise LabNotReached(str(error)) from None
        return lab_run(answer, client.url).result
