"""Skill and luck at scale: the analysis job's throughput with one Celery worker and
with two, beside the analysis alone in this process, and the sum for a million rounds.

    python -m bench.skill                        # 10,000 rounds, 1 then 2 workers
    python -m bench.skill --rounds 2000 --workers 1 2 4

Needs PostgreSQL (``BENCH_DATABASE_URL``, default a separate ``yatzy_bench_skill``
database on the local server, dropped and recreated each run), a broker (``REDIS_URL``
or ``CELERY_BROKER_URL``; its queues are purged) and the Maxi table in
``YATZY_TABLES_DIR`` (built first if missing: minutes).

1. Generates one revealed day of ``--rounds`` completed ranked Maxi rounds on the day's
   dice, each played by the easy bot with a share of random decisions (so the games
   differ), stored with COPY.
2. Baseline: ``yatzy.strategy.analyse`` of 200 of those rounds in this process.
3. For each worker count: clears every analysis, starts that many ``celery worker -Q
   analysis --pool=solo`` processes, plans the day (``games.skill.day_plan``) and sends
   the relays, and times the analysis from the first chunk's claim to the last chunk's
   end (the chunks' own timestamps: worker start-up is not counted). Then one worker on
   the default queue runs the board updates the analysis owes, timed likewise.
4. Prints rounds per second per run, the ratio, and the workers a million rounds need
   to be analysed within an hour of the reveal.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.leaderboards import _setup, copy_players
from bench.machine import describe

ROOT = Path(__file__).resolve().parents[1]
MILLION = 1_000_000


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f})"


def _game(rs, seed: bytes, rng: random.Random):  # type: ignore[no-untyped-def]
    """A finished game: the easy bot, with about a third of its decisions random."""
    import yatzy
    from yatzy.strategy import bot_move

    game = yatzy.Game(rs, seed)
    while not game.is_over:
        move = bot_move(game, "easy")
        if game.rolls_used and rng.random() < 0.35:
            if game.rolls_left and rng.random() < 0.5:
                game.roll(tuple(i for i in range(len(game.dice)) if rng.random() < 0.5))
            else:
                game.score(rng.choice(sorted(game.options())))
        elif move.category is not None:
            game.score(move.category)
        else:
            game.roll(move.hold)
    return game


def _generate(count: int, rng: random.Random) -> dt.date:
    """A revealed day with ``count`` completed ranked rounds, one player each (COPY)."""
    from django.db import connection

    import yatzy
    from daily import clock
    from daily.services import challenge_get_or_create

    day = clock.today() - dt.timedelta(days=2)
    challenge = challenge_get_or_create(day=day)
    rs = yatzy.get_ruleset(challenge.ruleset, **challenge.options)
    seed = bytes(challenge.seed)
    raw = connection.cursor().connection
    done = clock.opens_at(day) + dt.timedelta(hours=12)
    with raw.cursor() as cur:
        low, _ = copy_players(cur, count, "s")
        with cur.copy(
            "COPY games_round (id, player_id, mode, challenge_id, ranked, status, ruleset,"
            " options, seed, snapshot, total, started_at, updated_at, completed_at)"
            " FROM STDIN"
        ) as copy:
            for i in range(count):
                game = _game(rs, seed, rng)
                at = done + dt.timedelta(seconds=i)
                copy.write_row(
                    (
                        uuid.uuid4(),
                        low + i,
                        "daily",
                        challenge.id,
                        True,
                        "completed",
                        rs.name,
                        json.dumps(rs.options),
                        seed,
                        json.dumps(game.snapshot()),
                        game.total,
                        at,
                        at,
                        at,
                    )
                )
    raw.commit()
    with connection.cursor() as cur:
        cur.execute("VACUUM (ANALYZE)")
    return day


def _reset() -> None:
    """Every round unanalysed again, no chunk, no owed board update, empty queues."""
    from config.celery import app
    from games.models import AnalysisChunk, Round
    from leaderboards.models import BoardEntry, BoardHistogram, PendingBoardUpdate

    Round.objects.update(loss=None, luck=None, analysed_at=None)
    AnalysisChunk.objects.all().delete()
    PendingBoardUpdate.objects.all().delete()
    BoardEntry.objects.all().delete()
    BoardHistogram.objects.all().delete()
    with app.connection_for_write() as broker:
        for queue in ("celery", "analysis"):
            broker.default_channel.queue_purge(queue)


@contextmanager
def _workers(count: int, queue: str) -> Iterator[None]:
    env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "STRATEGY_TABLES_BUILD_AT_START": "false",
        "CONN_MAX_AGE": "60",
    }
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    processes = [
        subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue),
                *("--pool=solo", "--loglevel=WARNING", "-n", f"bench{n}-{queue}@%h"),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for n in range(count)
    ]
    try:
        yield
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait(done, timeout: float) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError("timed out")
        time.sleep(0.5)


def _analyse(day: dt.date, workers: int, rounds: int) -> float:
    """Seconds the workers took to analyse the day (first claim to last chunk done)."""
    from django.conf import settings
    from django.db.models import Max, Min

    from games import skill, tasks
    from games.models import AnalysisChunk

    _reset()
    with _workers(workers, "analysis"):
        chunks = skill.day_plan(day=day)
        for _ in range(max(settings.SKILL_RELAYS, workers)):
            tasks.skill_analyse_next.delay()
        _wait(lambda: not skill.rounds_unanalysed().exists(), timeout=6 * 3600)
        _wait(lambda: not AnalysisChunk.objects.exclude(status="done").exists(), timeout=600)
    span = AnalysisChunk.objects.aggregate(first=Min("claimed_at"), last=Max("updated_at"))
    assert sum(AnalysisChunk.objects.values_list("analysed", flat=True)) == rounds
    print(f"  {chunks} chunks of {settings.SKILL_CHUNK_ROUNDS}")
    return (span["last"] - span["first"]).total_seconds()


def _boards(rounds: int) -> float:
    """Board updates per second one default-queue worker runs of those owed."""
    from leaderboards.models import BoardEntry, PendingBoardUpdate

    owed = PendingBoardUpdate.objects.count()
    assert owed == rounds, owed
    with _workers(1, "celery"):
        # Timed from the first update the worker ran, so its start-up is not counted.
        _wait(lambda: PendingBoardUpdate.objects.count() < owed, timeout=600)
        started, left = time.perf_counter(), PendingBoardUpdate.objects.count()
        _wait(lambda: not PendingBoardUpdate.objects.exists(), timeout=3600)
        elapsed = time.perf_counter() - started
    assert BoardEntry.objects.filter(board__startswith="decisions:").count() == rounds
    return left / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    # A SIGTERM unwinds like an error, so the worker processes started are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/yatzy_bench_skill"
    )
    rng = random.Random(args.seed)
    _setup(url)
    os.environ["DATABASE_URL"] = url  # for the workers

    from django.conf import settings
    from django.db import connection

    import yatzy
    from games.models import Round
    from yatzy.strategy import analyse, load_table

    print(
        f"machine: {describe()} | PostgreSQL {connection.cursor().connection.info.server_version}"
        f" | broker {settings.CELERY_BROKER_URL.split(':')[0]} | {_load()}"
    )
    rs = yatzy.get_ruleset("maxi")
    table = load_table(rs, build=True)
    started = time.perf_counter()
    day = _generate(args.rounds, rng)
    print(
        f"generated {args.rounds:,} ranked rounds of {day} in {time.perf_counter() - started:.1f}s"
    )

    sample = list(Round.objects.order_by("?")[:200])
    started = time.perf_counter()
    losses = [analyse(rs, bytes(r.seed), r.actions, table=table).loss for r in sample]
    alone = len(sample) / (time.perf_counter() - started)
    print(
        f"analyse() alone, in this process: {alone:.1f} rounds/s "
        f"(mean loss {sum(losses) / len(losses):.1f} points) | {_load()}"
    )

    rates = {}
    board_rate = None
    for workers in args.workers:
        print(f"{workers} worker(s), {_load()} before:")
        elapsed = _analyse(day, workers, args.rounds)
        rates[workers] = args.rounds / elapsed
        print(
            f"  {args.rounds:,} rounds in {elapsed:.1f}s: {rates[workers]:.1f} rounds/s "
            f"({rates[workers] / workers:.1f} per worker) | {_load()} after"
        )
        if board_rate is None:
            board_rate = _boards(args.rounds)
            print(f"  board updates they owe, one default-queue worker: {board_rate:.0f}/s")
    one = rates.get(1)
    for workers, rate in rates.items():
        if one and workers > 1:
            print(f"ratio {workers} workers / 1: {rate / one:.2f}")
    per_worker = min(rate / workers for workers, rate in rates.items())
    needed = math.ceil(MILLION / (per_worker * 3600))
    print(
        f"a million rounds: {MILLION / per_worker / 3600:.1f} worker-hours at "
        f"{per_worker:.1f} rounds/s per worker (the slowest run's): {needed} workers, one "
        f"core each, finish within an hour of the reveal"
    )
    if board_rate:
        print(
            f"their board updates: {MILLION / board_rate / 3600:.2f} worker-hours at "
            f"{board_rate:.0f}/s on the default queue"
        )


if __name__ == "__main__":
    main()
