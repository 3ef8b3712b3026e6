"""The solver reproduces the published optima and stores tables it can trust."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

import yatzy
from yatzy.strategy import Table, TableMissing, UnsupportedRules, load_table, solve, tables
from yatzy.strategy.__main__ import main
from yatzy.strategy._rules import rules_of
from yatzy.strategy.tables import table_path


def test_yatzy_expected_score_matches_the_published_optimum(yatzy_table: Table) -> None:
    assert yatzy_table.start_value == pytest.approx(248.4399894, abs=1e-6)


def test_yahtzee_with_forced_joker_matches_the_published_optimum(yahtzee_table: Table) -> None:
    assert yahtzee_table.start_value == pytest.approx(254.5877287, abs=1e-6)


def test_table_is_a_read_only_memory_map(yatzy_table: Table) -> None:
    assert isinstance(yatzy_table.values, np.memmap)
    assert not yatzy_table.values.flags.writeable


def test_forced_order_is_worth_less_than_free_order(yatzy_table: Table, tmp_path: Path) -> None:
    forced = load_table(
        yatzy.get_ruleset("yatzy", forced_order=True), directory=tmp_path, build=True
    )
    assert 0 < forced.start_value < yatzy_table.start_value - 50


def test_a_lower_bonus_threshold_is_worth_more(yatzy_table: Table, tmp_path: Path) -> None:
    easier = yatzy.get_ruleset("yatzy", upper_bonus=(42, 50), forced_order=True)
    harder = yatzy.get_ruleset("yatzy", upper_bonus=(84, 50), forced_order=True)
    low = load_table(easier, directory=tmp_path, build=True).start_value
    high = load_table(harder, directory=tmp_path, build=True).start_value
    assert low > high


def test_missing_table_raises_with_the_command_to_build_it(tmp_path: Path) -> None:
    command = "python -m yatzy.strategy solve yahtzee --forced-order"
    with pytest.raises(TableMissing, match=re.escape(command)):
        load_table(yatzy.get_ruleset("yahtzee", forced_order=True), directory=tmp_path)


def test_saved_rolls_have_no_table() -> None:
    with pytest.raises(UnsupportedRules):
        rules_of(yatzy.get_ruleset("maxi", saved_rolls=True))


def test_interrupted_build_resumes_and_matches_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rs = yatzy.get_ruleset("yahtzee", forced_order=True)
    clean = load_table(rs, directory=tmp_path / "clean", build=True).start_value
    calls = 0
    real = tables._kernel.solve_layer

    def failing(*args: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 6:
            raise KeyboardInterrupt
        real(*args)

    monkeypatch.setattr(tables._kernel, "solve_layer", failing)
    with pytest.raises(KeyboardInterrupt):
        solve(rs, directory=tmp_path / "resumed", progress=False)
    path = table_path(rules_of(rs), tmp_path / "resumed")
    journal = json.loads(path.with_name(path.name + ".progress").read_text())
    assert not path.exists() and len(journal["done"]) == 6  # terminal layer + 5 turns
    monkeypatch.setattr(tables._kernel, "solve_layer", real)
    solve(rs, directory=tmp_path / "resumed", progress=False)
    assert load_table(rs, directory=tmp_path / "resumed").start_value == clean
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".lock"]


def test_damaged_table_is_not_trusted_and_is_rebuilt(tmp_path: Path) -> None:
    rs = yatzy.get_ruleset("yahtzee", forced_order=True)
    path = solve(rs, directory=tmp_path, progress=False)
    tables._LOADED.clear()
    good = path.read_bytes()
    with open(path, "r+b") as f:
        f.seek(tables.DATA_OFFSET + 8)
        f.write(b"\x01" * 8)
    with pytest.raises(TableMissing):
        load_table(rs, directory=tmp_path)
    solve(rs, directory=tmp_path, progress=False)
    assert path.read_bytes() == good


def test_table_of_other_options_is_not_trusted(tmp_path: Path) -> None:
    rs = yatzy.get_ruleset("yahtzee", forced_order=True)
    other = yatzy.get_ruleset("yahtzee", forced_order=True, five_of_a_kind_full_house=True)
    path = solve(rs, directory=tmp_path, progress=False)
    path.rename(table_path(rules_of(other), tmp_path))
    with pytest.raises(TableMissing):
        load_table(other, directory=tmp_path)


def test_command_line_builds_and_prints_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "yahtzee", "--forced-order", "--dir", str(tmp_path)]) == 0
    assert "expected score" in capsys.readouterr().out
    assert main(["value", "yatzy", "--forced-order", "--dir", str(tmp_path)]) == 1


def test_manage_py_solve_builds_a_table_the_engine_loads(tmp_path, monkeypatch):
    from io import StringIO

    from django.core.management import call_command

    monkeypatch.setenv("YATZY_TABLES_DIR", str(tmp_path))
    out = StringIO()
    call_command("solve", "yatzy", "--forced-order", verbosity=0, stdout=out)
    table = load_table(yatzy.get_ruleset("yatzy", forced_order=True))
    assert table.path.parent == tmp_path
    assert f"expected score {table.start_value:.7f}" in out.getvalue()


def test_a_build_reports_its_progress_up_to_every_state(tmp_path):
    seen: list[tuple[int, int]] = []
    solve(
        yatzy.get_ruleset("yahtzee", forced_order=True),
        directory=tmp_path,
        progress=False,
        on_progress=lambda done, total: seen.append((done, total)),
    )
    assert len(seen) > 1
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == seen[-1][1]


def test_an_unreachable_bonus_threshold_keeps_the_state_layout_small():
    from yatzy.strategy._layout import Layout

    unreachable = rules_of(yatzy.get_ruleset("yatzy", upper_bonus=(10_000, 50)))
    just_above = rules_of(yatzy.get_ruleset("yatzy", upper_bonus=(106, 50)))  # 5 dice: 105 max
    assert unreachable.threshold == just_above.threshold == 106
    assert Layout.of(unreachable).size == Layout.of(just_above).size
