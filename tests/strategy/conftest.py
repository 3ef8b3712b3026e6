"""Shared fixtures: one table directory per test session, built on first use."""

from collections.abc import Iterator
from pathlib import Path

import pytest

import yatzy
from yatzy.strategy import Table, load_table
from yatzy.strategy.tables import ENV_DIR


@pytest.fixture(scope="session", autouse=True)
def tables_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``YATZY_TABLES_DIR`` at a fresh directory, so tests never see stale files."""
    directory = tmp_path_factory.mktemp("tables")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_DIR, str(directory))
        yield directory


@pytest.fixture(scope="session")
def yatzy_table(tables_dir: Path) -> Table:
    return load_table(yatzy.get_ruleset("yatzy"), build=True)


@pytest.fixture(scope="session")
def yahtzee_table(tables_dir: Path) -> Table:
    return load_table(yatzy.get_ruleset("yahtzee"), build=True)
