"""Command line: ``python -m yatzy.strategy solve yatzy [--forced-order] [--dir DIR]``.

``solve`` builds (or resumes, or confirms) a table; ``value`` prints a built table's
expected score of a new game.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import yatzy
from yatzy.strategy.tables import TableMissing, load_table, solve


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m yatzy.strategy", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("solve", "build a strategy table"), ("value", "print a table's value")):
        command = commands.add_parser(name, help=text)
        command.add_argument("ruleset", choices=sorted(yatzy.RULESETS))
        command.add_argument("--forced-order", action="store_true", help="fill boxes in order")
        command.add_argument("--dir", type=Path, help="table directory ($YATZY_TABLES_DIR)")
    args = parser.parse_args(argv)
    rs = yatzy.get_ruleset(args.ruleset, forced_order=args.forced_order)
    if args.command == "solve":
        started = time.perf_counter()
        path = solve(rs, directory=args.dir, progress=True)
        elapsed = time.perf_counter() - started
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB, {elapsed:.1f} s)")
    try:
        table = load_table(rs, directory=args.dir)
    except TableMissing as error:
        print(error, file=sys.stderr)
        return 1
    print(f"expected score {table.start_value:.7f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
