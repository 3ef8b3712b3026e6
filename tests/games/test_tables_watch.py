"""A web process has the strategy tables in memory before a player's hint needs them:
``games.tables.tables_watch`` warms at start and loads a table the moment a worker
finishes it (issue #23: the first hint in a fresh process took seconds)."""

from __future__ import annotations

import os
import shutil

import yatzy
from games import tables
from yatzy.strategy import tables as strategy_tables
from yatzy.strategy._rules import rules_of
from yatzy.strategy.tables import ENV_DIR, table_path


def test_a_table_finished_after_the_process_started_is_loaded_without_a_request(
    yahtzee_table, tmp_path, monkeypatch
):
    monkeypatch.setenv(ENV_DIR, str(tmp_path))  # this process's tables: none yet
    monkeypatch.setattr(tables, "DEFAULT_RULESETS", ("yahtzee",))
    monkeypatch.setattr(tables, "_watchers", {})
    rules = rules_of(yatzy.get_ruleset("yahtzee"))
    path = table_path(rules)
    assert path.parent == tmp_path and path not in strategy_tables._LOADED

    watch = tables.tables_watch(every=0.05)
    assert tables.tables_watch() is watch  # one per process
    watch.join(timeout=0.5)
    assert watch.is_alive()  # waiting for the table
    # A worker finishes the table: its file appears whole (written aside, then renamed).
    shutil.copy(yahtzee_table.path, tmp_path / "partial")
    os.replace(tmp_path / "partial", path)
    watch.join(timeout=60)
    assert not watch.is_alive()
    assert strategy_tables._LOADED[path].rules.key == rules.key


def test_the_warm_loads_every_built_default_table_and_asks_it_once(yahtzee_table, monkeypatch):
    asked = []
    real = tables._warm_table

    def warm(rs: yatzy.Ruleset) -> bool:
        asked.append(rs.name)
        return real(rs)

    monkeypatch.setattr(tables, "_warm_table", warm)
    loaded = tables.tables_warm()
    assert "yahtzee" in loaded and asked == list(tables.DEFAULT_RULESETS)
    assert "maxi" not in loaded  # never built in the tests' own folder: nothing to load
