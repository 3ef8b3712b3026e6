"""The Maxi strategy table for tests, built at most once per machine and engine.

A daily is always Maxi, so every test of hints and analysis on a daily round needs the
Maxi table (~3.5 min and ~430 MB to build, a 268 MB file). It is built into a shared
cache directory, outside any test's temporary directory, keyed by the source its values
come from (the rules and the solver, :data:`TABLE_SOURCES`: a change there gets a table
of its own, a change elsewhere in the engine reuses the file) and, through the file
name, by the table's key. ``yatzy.strategy.solve`` holds a file lock while it
builds, so xdist workers and the two suites of a CI run that ask at once wait for one
build and then reuse it.

``YATZY_TEST_TABLES_CACHE`` names another base directory (default: the user cache
directory, ``$XDG_CACHE_HOME``/``~/.cache``, so every checkout on a machine shares it).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import platformdirs

import yatzy
from yatzy.strategy import solve

ENV_CACHE = "YATZY_TEST_TABLES_CACHE"
ENGINE = Path(yatzy.__file__).resolve().parent
# What a table's values depend on: the rulesets and their scoring, and the solver.
TABLE_SOURCES = (
    "rules.py",
    "strategy/_kernel.py",
    "strategy/_layout.py",
    "strategy/_multisets.py",
    "strategy/_rules.py",
    "strategy/tables.py",
)


def sources_digest() -> str:
    """A digest of :data:`TABLE_SOURCES`: tables built by other code are not reused."""
    digest = hashlib.sha256()
    for name in TABLE_SOURCES:
        digest.update(name.encode())
        digest.update((ENGINE / name).read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get(ENV_CACHE) or platformdirs.user_cache_dir("maxi-yatzy-daily")
    return Path(base) / "tables" / sources_digest()


def cached_table(rs: yatzy.Ruleset) -> Path:
    """The path of ``rs``'s table in the shared cache, built first if it is not there
    (waiting for a build another process has under way)."""
    return solve(rs, directory=cache_dir(), progress=False)


if __name__ == "__main__":  # build it ahead of a test run: python -m tests.shared_tables
    print(cached_table(yatzy.get_ruleset("maxi")))
