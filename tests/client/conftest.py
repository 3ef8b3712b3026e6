"""The client's live tests run on the live-stack fixtures of tests/live."""

from tests.live.conftest import (  # noqa: F401  (fixtures, used by name)
    live_stack,
    live_stack_factory,
    settings_override_for_live,
)
