"""API benchmark: roll and score under gunicorn + PostgreSQL, beside a trivial endpoint.

    DATABASE_URL=postgres://user:pass@127.0.0.1:5432/yatzy_bench python -m bench.api

Starts gunicorn (``deploy/gunicorn.conf.py``) on a scratch database, creates players with
rounds, then runs, for the same duration and the same number of concurrent clients:

1. the baseline: ``GET /api/v1/accounts/me/``, a trivial authenticated DRF endpoint
   (token lookup + serialise one row);
2. play: each client plays rounds (roll, roll, roll, score per turn, new round at the
   end) as fast as it can.

Closed-loop clients with no think time measure capacity; latency there is queueing
(``clients / throughput``). A third phase measures latency at a fixed offered load
(each client paced to ``--paced-rate`` requests/s), the figure a player feels.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import httpx

from bench.machine import describe

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def setup_players(count: int) -> list[str]:
    """Create a fresh schema and ``count`` players; returns their tokens."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from games.models import Round

    Round.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    tokens = []
    for i in range(count):
        user = User.objects.create_user(f"bench-{i}", password="bench-password-123")
        tokens.append(Token.objects.create(user=user).key)
    return tokens


async def run_clients(url, tokens, duration, client_loop):
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    deadline = time.perf_counter() + duration
    limits = httpx.Limits(max_connections=len(tokens), max_keepalive_connections=len(tokens))
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:

        async def timed(kind, method, path, token, body=None):
            started = time.perf_counter()
            response = await http.request(
                method, path, json=body, headers={"Authorization": f"Token {token}"}
            )
            latencies[kind].append(time.perf_counter() - started)
            if response.status_code >= 400:
                errors[f"{kind} {response.status_code}"] += 1
            return response

        started = time.perf_counter()
        await asyncio.gather(*(client_loop(timed, token, deadline) for token in tokens))
        elapsed = time.perf_counter() - started
    return latencies, errors, elapsed


async def stagger(pace: float | None) -> None:
    """Paced clients start at random offsets, so their requests spread over each period
    instead of arriving as one burst."""
    if pace:
        await asyncio.sleep(random.uniform(0, 1 / pace))


def trivial_loop(pace: float | None = None):
    async def loop(timed, token, deadline):
        await stagger(pace)
        while time.perf_counter() < deadline:
            tick = time.perf_counter()
            await timed("me", "GET", "/api/v1/accounts/me/", token)
            if pace:
                await asyncio.sleep(max(0.0, 1 / pace - (time.perf_counter() - tick)))

    return loop


def play_loop(day: str, pace: float | None = None):
    async def loop(timed, token, deadline):
        await stagger(pace)
        state = None
        while time.perf_counter() < deadline:
            tick = time.perf_counter()
            if state is None or state["status"] != "in_progress":
                state = (await timed("start", "POST", f"/api/v1/daily/{day}/rounds/", token)).json()
            elif state["rolls_left"] > 0 and state["roll"] < 3:
                body = {
                    "hold": [0, 1] if state["roll"] else [],
                    "turn": state["turn"],
                    "roll": state["roll"],
                }
                state = (
                    await timed("roll", "POST", f"/api/v1/rounds/{state['id']}/roll/", token, body)
                ).json()
            else:
                body = {"category": next(iter(state["options"])), "turn": state["turn"]}
                state = (
                    await timed(
                        "score", "POST", f"/api/v1/rounds/{state['id']}/score/", token, body
                    )
                ).json()
            if pace:
                await asyncio.sleep(max(0.0, 1 / pace - (time.perf_counter() - tick)))

    return loop


def report(title, latencies, errors, elapsed):
    total = sum(len(v) for v in latencies.values())
    print(f"\n{title}: {total} requests in {elapsed:.1f} s = {total / elapsed:.0f} req/s")
    for kind, values in sorted(latencies.items()):
        ms = [v * 1000 for v in values]
        print(
            f"  {kind:<6} n={len(ms):>6}  {len(ms) / elapsed:>6.0f}/s  "
            f"p50 {statistics.median(ms):6.1f} ms  p99 {percentile(ms, 0.99):6.1f} ms"
        )
    print(f"  errors: {dict(errors) or 0}")
    return total / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--paced-rate", type=float, default=2.0, help="requests/s per client")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a scratch PostgreSQL database (it is migrated and used).")

    tokens = setup_players(args.clients)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from daily import clock

    day = clock.today().isoformat()
    env = {**os.environ, "GUNICORN_BIND": f"127.0.0.1:{args.port}", "GUNICORN_LOGLEVEL": "warning"}
    if args.workers:
        env["WEB_CONCURRENCY"] = str(args.workers)
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "-c",
            "deploy/gunicorn.conf.py",
            "config.wsgi:application",
        ],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(f"{url}/api/schema/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        print(f"Machine: {describe()}")
        print(
            f"gunicorn workers: {env.get('WEB_CONCURRENCY', 'default (2 x cores + 1)')}, "
            f"clients: {args.clients}, {args.duration:.0f} s per phase, PostgreSQL"
        )
        asyncio.run(run_clients(url, tokens, 3, trivial_loop()))  # warm up
        base = report(
            "Baseline GET accounts/me/ (closed loop)",
            *asyncio.run(run_clients(url, tokens, args.duration, trivial_loop())),
        )
        play = report(
            "Play roll/score (closed loop)",
            *asyncio.run(run_clients(url, tokens, args.duration, play_loop(day))),
        )
        report(
            f"Baseline at {args.paced_rate:g} req/s per client",
            *asyncio.run(run_clients(url, tokens, args.duration, trivial_loop(args.paced_rate))),
        )
        report(
            f"Play at {args.paced_rate:g} req/s per client",
            *asyncio.run(run_clients(url, tokens, args.duration, play_loop(day, args.paced_rate))),
        )
        print(f"\nPlay throughput / baseline throughput: {play / base:.2f} (target >= 0.60)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
