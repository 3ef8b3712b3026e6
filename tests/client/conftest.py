"""The client's live tests run on the live-stack fixtures of tests/live."""

import pytest

from client import i18n
from tests.live.conftest import (  # noqa: F401  (fixtures, used by name)
    live_stack,
    live_stack_factory,
    settings_override_for_live,
)


@pytest.fixture(autouse=True)
def _client_back_to_english():
    """A test that made the client speak another language (its locale, or a server
    answering in one) leaves it speaking English for the next."""
    yield
    i18n.activate("en")
