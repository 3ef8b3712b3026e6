"""The engine is pure Python: its tests opt out of the Django fixtures of tests/conftest.py.

Overriding the project's autouse fixtures by name lets ``pytest -p no:django tests/engine``
run where Django settings are unavailable, and keeps these tests free of any setup.
"""

import pytest


@pytest.fixture(autouse=True)
def _eager_celery() -> None:
    """No Celery here."""


@pytest.fixture(autouse=True)
def _daily_settings() -> None:
    """No Django settings here."""
