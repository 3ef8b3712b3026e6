"""The first hint in a fresh web process against the tenth (issue #23, item 6).

``python -m bench.first_hint`` prepares a scratch SQLite database with a solo round per
ruleset, rolled once, then starts a fresh Python process per case and times ten
``GET /play/{round}/?hint=1`` through Django's test client, one after the other (the
page and everything behind it: the round, the table, the best move, the render), after
one plain ``GET /play/{round}/`` (the process's first request, as a player opens the
page before asking; timed too):

- ``no numba cache``: a process of a fresh checkout or image, whose numba cache is
  empty (``NUMBA_CACHE_DIR`` on an empty folder), nothing warmed;
- ``numba cache, not warmed``: what ``make run``'s server did before this issue;
- ``warmed at start``: what the web processes do now (``games.tables.tables_warm``, run
  by gunicorn's master before forking and by ``config/wsgi.py`` in the development
  server, in the background); its own time is printed beside.

The tables come from ``$YATZY_TABLES_DIR`` (else ``var/tables``); a ruleset whose default
table is missing is skipped (``python -m yatzy.strategy solve maxi`` builds it, minutes).
Figures go to docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HINTS = 10
CASES = ("no numba cache", "numba cache, not warmed", "warmed at start")


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def prepare(rulesets: list[str]) -> dict[str, str]:
    """The scratch database's player and one rolled solo round per ruleset."""
    _django()
    from django.core.management import call_command

    from accounts.models import User
    from games import services

    call_command("migrate", interactive=False, verbosity=0)
    user = User.objects.create_user(username="bench", password="bench-password-123")
    rounds = {}
    for ruleset in rulesets:
        rnd = services.game_start(player=user, mode="solo", ruleset=ruleset)
        services.round_roll(round_id=rnd.id, player=user, hold=(), turn=0, roll=0)
        rounds[ruleset] = str(rnd.id)
    return rounds


def measure(round_id: str, warm: bool) -> dict[str, float | None]:
    """In this (fresh) process: warm if asked, then time the hints (milliseconds)."""
    started = time.perf_counter()
    _django()
    from django.test import Client

    from accounts.models import User
    from games.tables import tables_warm

    setup_s = time.perf_counter() - started
    warm_s = None
    if warm:
        started = time.perf_counter()
        tables_warm()
        warm_s = time.perf_counter() - started
    client = Client()
    client.force_login(User.objects.get(username="bench"))
    # The player opens the round's page before asking: the process's first request
    # (URLs, templates, catalogues loaded) is this one, not the hint's.
    started = time.perf_counter()
    assert client.get(f"/play/{round_id}/").status_code == 200
    page_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(HINTS):
        started = time.perf_counter()
        response = client.get(f"/play/{round_id}/", {"hint": 1})
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200 and b"data-hint-best" in response.content
    return {
        "setup_s": setup_s,
        "warm_s": warm_s,
        "page_ms": page_ms,
        "first_ms": times[0],
        "tenth_ms": times[-1],
    }


def child(case: str, round_id: str, env: dict[str, str]) -> dict[str, float | None]:
    env = dict(env)
    with tempfile.TemporaryDirectory() as empty:
        if case == "no numba cache":
            env["NUMBA_CACHE_DIR"] = empty
        code = (
            "import json, sys; from bench.first_hint import measure; "
            f"print(json.dumps(measure({round_id!r}, warm={case == 'warmed at start'})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True
        )
    result: dict[str, float | None] = json.loads(out.stdout.decode().strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_hint")
    parser.add_argument("--rulesets", default="yatzy,maxi")
    args = parser.parse_args(argv)
    import yatzy
    from yatzy.strategy import table_exists

    rulesets = []
    for name in args.rulesets.split(","):
        if table_exists(yatzy.get_ruleset(name)):
            rulesets.append(name)
        else:
            print(f"{name}: no table built, skipped (python -m yatzy.strategy solve {name})")
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{scratch}/bench.sqlite3",
            "VAR_DIR": scratch,
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        code = (
            "import json; from bench.first_hint import prepare; "
            f"print(json.dumps(prepare({rulesets!r})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True
        )
        rounds = json.loads(out.stdout.decode().strip().splitlines()[-1])
        print(
            f"{'ruleset':8} {'case':26} {'warm-up':>9} {'1st page':>10} {'1st hint':>10} "
            f"{'10th hint':>10}"
        )
        for ruleset in rulesets:
            for case in CASES:
                r = child(case, rounds[ruleset], env)
                warm = f"{r['warm_s']:.1f} s" if r["warm_s"] is not None else "-"
                print(
                    f"{ruleset:8} {case:26} {warm:>9} {r['page_ms']:>7.0f} ms "
                    f"{r['first_ms']:>7.0f} ms {r['tenth_ms']:>7.0f} ms",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
