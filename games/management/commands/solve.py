"""``python manage.py solve RULESET [--forced-order]``: build a strategy table."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

import yatzy
from yatzy.strategy import load_table, solve


class Command(BaseCommand):
    help = (
        "Build the exact strategy table of a ruleset (hints, analysis, the expert bot) "
        "unless a valid one exists; an interrupted build resumes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ruleset", choices=sorted(yatzy.RULESETS))
        parser.add_argument("--forced-order", action="store_true", help="boxes in order")

    def handle(self, *args: Any, **options: Any) -> None:
        rs = yatzy.get_ruleset(options["ruleset"], forced_order=options["forced_order"])
        started = time.perf_counter()
        path = solve(rs, progress=options["verbosity"] > 0)
        table = load_table(rs)
        self.stdout.write(
            f"{path} ({path.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - started:.1f} s): "
            f"expected score {table.start_value:.7f}"
        )
