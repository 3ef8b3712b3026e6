"""Server-side render time of the web pages on the leaderboard benchmark's data, beside a
plain template page measured in the same run.

    python -m bench.pages                        # 1,000,000 players over 7 days
    python -m bench.pages --players 100000 --samples 100

Needs PostgreSQL (``BENCH_DATABASE_URL``, default a separate ``yatzy_bench_pages``
database on the local server, dropped and recreated each run). Generates the players and
their ranked rounds like ``bench.leaderboards`` (COPY), rebuilds every board, lets one
player play today's daily and a practice round of yesterday through the services, then
renders each page through Django's test client as that player, with ``DEBUG`` off and
the whole middleware stack: wall-clock p50 and p95 per page, the CPU time of the web
process (PostgreSQL's own not included), the time spent waiting for SQL, the queries per
page, and the ratio to the plain page (``bench/views.py``: a small template, no database).
Target: every page's p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import tempfile
import time
from html import unescape

TARGET_P95_MS = 50.0


def _environment(var_dir: str) -> None:
    """Production-like settings: DEBUG off (no query log, compressed static manifest),
    jobs run inline so the boards follow the bench player's rounds at once."""
    os.environ.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        DAILY_SEED_SECRET="bench-pages-only-daily-seed-secret-" + "x" * 10,
        SECURE_SSL_REDIRECT="false",
        BENCH_ENDPOINTS="true",
        CELERY_TASK_ALWAYS_EAGER="true",
        STRATEGY_TABLES_BUILD_AT_START="false",
        VAR_DIR=var_dir,
        LOG_LEVEL="WARNING",
    )


class _Queries:
    """The SQL statements of a request and the time spent waiting for them (Django's
    query log is reset per request and off with DEBUG off)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _play_through(player, rnd) -> None:
    """Finish a round: one roll a turn, the first open box."""
    from games import selectors, services

    game = selectors.round_game(rnd)
    while not game.is_over:
        _, game = services.round_roll(
            round_id=rnd.id, player=player, hold=[], turn=game.turn, roll=game.rolls_used
        )
        _, game = services.round_score(
            round_id=rnd.id, player=player, category=next(iter(game.options())), turn=game.turn
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--samples", type=int, default=200, help="renders per page")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument(
        "--keep",
        action="store_true",
        help="measure on the data a previous run left (no drop, generation or rebuild)",
    )
    args = parser.parse_args()
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/yatzy_bench_pages"
    )
    var_dir = tempfile.mkdtemp(prefix="bench-pages-")
    _environment(var_dir)

    from bench.leaderboards import _generate, _setup
    from bench.machine import describe

    if args.keep:
        os.environ["DATABASE_URL"] = url
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
    else:
        _setup(url)

    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from daily import clock
    from games import services as game_services
    from games.models import Round
    from leaderboards import services as board_services

    call_command("collectstatic", interactive=False, verbosity=0)
    print(
        f"machine: {describe()} | PostgreSQL {connection.cursor().connection.info.server_version}"
    )
    if not args.keep:
        rng = random.Random(args.seed)
        started = time.perf_counter()
        dates, rounds = _generate(args.players, args.days, rng)
        print(
            f"generated {args.players:,} players, {rounds:,} ranked rounds over {args.days}"
            f" days in {time.perf_counter() - started:.1f}s"
        )
        started = time.perf_counter()
        board_services.boards_reconcile()
        with connection.cursor() as cur:
            cur.execute("VACUUM (ANALYZE)")
            cur.execute("CHECKPOINT")
        print(f"boards rebuilt in {time.perf_counter() - started:.1f}s")
    player = User.objects.order_by("id").first()
    assert player is not None
    if not args.keep:
        today = clock.today()  # after the generation, which may have crossed midnight
        playing, _ = game_services.round_start_daily(player=player, day=today)
        game_services.round_roll(round_id=playing.id, player=player, hold=[], turn=0, roll=0)
        practice, _ = game_services.round_start_daily(player=player, day=dates[-1])
        _play_through(player, practice)
    # The bench player's generated rounds are all ranked and completed, so these two are
    # the ones played above, whatever the date is now (a run may cross midnight, and
    # --keep runs on a later day).
    rounds_of = Round.objects.filter(player=player)
    playing = rounds_of.get(status=Round.Status.IN_PROGRESS)
    practice = rounds_of.get(status=Round.Status.COMPLETED, ranked=False)
    assert practice.challenge is not None
    yesterday = practice.challenge.date
    print(f"players: {User.objects.count():,}; rendering as {player.username}")

    client = Client()
    client.force_login(player)
    year = clock.today().year
    pages = {
        "plain template page (baseline)": "/bench/page/",
        "/ (today's daily)": "/",
        "/play/ (a roll made)": f"/play/{playing.id}/",
        "/play/ (practice finished, distribution)": f"/play/{practice.id}/",
        "/boards/daily/ (yesterday, page 1)": f"/boards/daily/{yesterday}/",
        "/boards/daily/ (next page, by cursor)": None,
        "/boards/daily/ ?around=me": f"/boards/daily/{yesterday}/?around=me",
        "/boards/best-day/": "/boards/best-day/",
        "/boards/streaks/": "/boards/streaks/",
        "/boards/streaks/ ?around=me": "/boards/streaks/?around=me",
        "/boards/advent/": f"/boards/advent/{year}/",
        "/advent/": f"/advent/{year}/",
        "/players/ (own record)": f"/players/{player.username}/",
        "/rules/maxi/": "/rules/maxi/",
        "/settings/": "/settings/",
    }
    first = client.get(pages["/boards/daily/ (yesterday, page 1)"]).content.decode()
    pages["/boards/daily/ (next page, by cursor)"] = unescape(
        re.search(r'href="([^"]+)" rel="next"', first).group(1)  # type: ignore[union-attr]
    )

    results: dict[str, tuple[float, float, float, float, int]] = {}
    print(f"load average before the renders: {os.getloadavg()[0]:.1f}")
    for label, path in pages.items():
        assert path is not None
        for _ in range(10):  # warm-up: templates compiled, connections open
            assert client.get(path).status_code == 200, path
        samples, cpu, db = [], [], []
        queries = _Queries()
        with connection.execute_wrapper(queries):
            for _ in range(args.samples):
                queries.count, queries.seconds = 0, 0.0
                started, started_cpu = time.perf_counter(), time.process_time()
                response = client.get(path)
                samples.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                db.append(queries.seconds)
                assert response.status_code == 200, path
        ordered = sorted(samples)
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        results[label] = (
            _ms(statistics.median(ordered)),
            _ms(p95),
            _ms(statistics.median(cpu)),
            _ms(statistics.median(db)),
            queries.count,
        )
    print(f"load average after the renders: {os.getloadavg()[0]:.1f}")

    plain_p95 = results["plain template page (baseline)"][1]
    header = ["p50 ms", "p95 ms", "x plain", "CPU p50", "SQL p50", "queries"]
    print(f"\n{'page':44} " + " ".join(f"{h:>8}" for h in header))
    for label, (p50, p95, cpu_p50, db_p50, count) in results.items():
        figures = f"{p50:8.2f} {p95:8.2f} {p95 / plain_p95:8.1f} {cpu_p50:8.2f} {db_p50:8.2f}"
        print(f"{label:44} {figures} {count:8d}")
    worst = max(v[1] for label, v in results.items() if "baseline" not in label)
    verdict = "PASS" if worst <= TARGET_P95_MS else "MISS"
    print(f"{verdict} every page p95 <= {TARGET_P95_MS:.0f} ms (worst {worst:.2f} ms)")


if __name__ == "__main__":
    main()
