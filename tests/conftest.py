"""Fixtures shared by the session and command-line tests."""

import os

import pytest
from fake_backend import FakeBackend, fake_loader

from overlapviz.backends import registry

# The tests read English output whatever language the machine's locale asks for (LANGUAGE
# comes first when gettext picks one); the tests of other languages ask for them explicitly.
os.environ["LANGUAGE"] = "en"


@pytest.fixture
def backends(monkeypatch):
    """A fake `sim` backend; `cupy` is not installed."""
    monkeypatch.delenv(registry.BACKEND_ENV, raising=False)
    fakes = {"sim": FakeBackend("sim")}
    monkeypatch.setattr(registry, "load_backend", fake_loader(fakes))
    return fakes
