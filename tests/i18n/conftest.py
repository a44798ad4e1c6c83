from collections.abc import Iterator

import pytest

from overlapviz.core.i18n import set_language


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """A test that switches the language leaves English for the tests after it."""
    yield
    set_language("en")
