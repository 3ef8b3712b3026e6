"""API benchmark: wrk, a compiled load generator, against gunicorn + PostgreSQL.

    DATABASE_URL=postgres://user:pass@127.0.0.1:5432/yatzy_bench python -m bench.api

Needs ``wrk`` (the Debian package) and a scratch PostgreSQL database, which it migrates
and empties. Starts gunicorn as deployed (``deploy/gunicorn.conf.py``, ``DEBUG`` off)
with the benchmark-only route on (``BENCH_ENDPOINTS``), creates one player with a ranked
round per connection, and runs wrk with one connection per thread, so each thread's Lua
state is one player's (``bench/wrk/*.lua``). Three phases, each for the same duration
and number of connections:

1. plain: ``GET /api/bench/plain/``, a plain Django JSON view: the framework's floor
   (Django's request cycle and middleware; no DRF, no database), requested without
   credentials (``plain.lua``), so through the whole middleware stack;
2. drf: ``GET /api/v1/accounts/me/``, a trivial authenticated DRF endpoint (token
   lookup, one row serialised);
3. play: each connection plays its own rounds, roll, roll, roll, score per turn, with
   ``turn`` and ``roll`` read back from each answer, and a new round when one ends.

Closed loop (no think time) at ``--connections`` measures capacity; its latency is
mostly queueing (connections / throughput). The three run again with one connection:
the service time of a request on an otherwise idle server. (A paced run with think
time would measure an artifact instead: gunicorn's sync workers close each connection
after answering, wrk reconnects at once and then waits, and every such idle connection
holds a worker.) Play is printed beside both baselines of the same run, as ratios;
latencies are percentiles of wrk's own distribution. ``--rounds N`` runs the closed-loop
phases N times, every other round play first, and prints each ratio's median and range.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.machine import describe

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "bench" / "wrk"
PLAIN = "/api/bench/plain/"
ME = "/api/v1/accounts/me/"
# The closed-loop phases in their usual order: (name, path, wrk script). Play's script
# finds its own paths.
PHASES = (
    ("plain Django JSON view", PLAIN, "plain.lua"),
    ("DRF GET accounts/me/", ME, "get.lua"),
    ("play: roll/roll/roll/score", "", "play.lua"),
)
# The web process's settings here: as deployed (DEBUG off), with the benchmark route.
SERVER_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
    "DAILY_SEED_SECRET": "bench-only-daily-seed-secret-" + "x" * 10,
    "SECURE_SSL_REDIRECT": "false",
    "BENCH_ENDPOINTS": "true",
    # The throttle still runs on every play request; it must not refuse the load.
    "THROTTLE_PLAY": "1000000/minute",
    # The hints and analyses of the advice phase have their own budget.
    "THROTTLE_ADVICE": "1000000/minute",
}


@dataclass
class Phase:
    """One wrk run's figures."""

    name: str
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: dict[str, int]
    answers: dict[str, int]
    wrk_cpu_s: float
    server_cpu_s: float | None
    pg_cpu_s: float | None = None

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def process_tree_cpu_s(pid: int) -> float:
    """CPU seconds used so far by a process and its children, live and exited (Linux):
    gunicorn's master and workers, including workers recycled during the run."""

    def fields(stat: str) -> list[str]:
        return stat.rsplit(")", 1)[1].split()

    tick = os.sysconf("SC_CLK_TCK")
    own = fields(Path(f"/proc/{pid}/stat").read_text())
    total = sum(int(n) for n in own[11:15])  # utime, stime, and those of reaped children
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            child = fields(stat.read_text())
        except OSError:
            continue  # exited while we looked
        if int(child[1]) == pid:
            total += int(child[11]) + int(child[12])
    return total / tick


def processes_cpu_s(pids: list[int]) -> dict[int, float]:
    """CPU seconds used so far by each of the given processes (Linux; gone ones left out)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / tick
    return used


def worker_memory(master_pids: list[int]) -> list[tuple[int, int, int, int]]:
    """(pid, RSS kB, PSS kB, private kB) of every gunicorn worker of these masters
    (Linux). Private: pages no other process shares, the worker's own growth and the
    pages it inherited from the master and then wrote to (copy on write)."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if parent not in master_pids:
                continue
            rollup = (stat.parent / "smaps_rollup").read_text()
        except (OSError, ValueError):
            continue
        sizes = {
            line.split(":")[0]: int(line.split()[1])
            for line in rollup.splitlines()[1:]
            if line.endswith("kB")
        }
        private = sizes["Private_Clean"] + sizes["Private_Dirty"]
        workers.append((int(stat.parent.name), sizes["Rss"], sizes["Pss"], private))
    return sorted(workers)


def postgres_backends() -> list[int]:
    """The pids of the PostgreSQL backends serving this database other than ours: the
    web workers' connections (the server runs on this machine)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in cursor.fetchall()]


def setup_players(count: int, day: dt.date) -> tuple[list[tuple[str, str]], str]:
    """Migrate and empty the scratch database, then create ``count`` players, each with
    an API token and a ranked round of ``day``. Returns the (token, round id) pairs and
    the PostgreSQL server version."""
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User
    from accounts.services import user_token_create
    from games.services import round_start_daily

    call_command("migrate", "--noinput", verbosity=0)
    call_command("flush", "--noinput", verbosity=0)
    players = []
    for i in range(count):
        # No password: the players use their tokens only, and hashing one costs ~0.5 s.
        user = User.objects.create_user(f"bench-{i}", password=None)
        rnd, _ = round_start_daily(player=user, day=day)
        players.append((user_token_create(user=user), str(rnd.id)))
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    return players, version


def wrk(
    name: str,
    url: str,
    script: str,
    connections: int,
    duration: int,
    env: dict[str, str],
    *,
    server_pids: list[int] | None = None,
) -> Phase:
    """Run wrk with one connection per thread; its Lua ``done()`` prints the figures.
    With ``server_pids``, also the CPU time the servers' process trees spent meanwhile,
    and that of the PostgreSQL backends serving them (those connected at the end;
    PostgreSQL's own background processes and other databases are not counted)."""
    wrk_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)

    def server_cpu_now() -> float:
        return sum(process_tree_cpu_s(pid) for pid in server_pids or [])

    server_cpu = server_cpu_now() if server_pids else None
    pg_cpu = processes_cpu_s(postgres_backends()) if server_pids else {}
    result = subprocess.run(
        [
            "wrk",
            f"--threads={connections}",
            f"--connections={connections}",
            f"--duration={duration}s",
            # Long enough that no answer falls out of the latency distribution.
            "--timeout=30s",
            f"--script={SCRIPTS / script}",
            url,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    server_cpu_s = pg_cpu_s = None
    if server_pids and server_cpu is not None:
        server_cpu_s = server_cpu_now() - server_cpu
        # A backend opened during the phase counts from its start; one closed during it
        # (CONN_MAX_AGE) is missing from the figure.
        pg_cpu_s = sum(
            used - pg_cpu.get(pid, 0.0)
            for pid, used in processes_cpu_s(postgres_backends()).items()
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu_s = after.ru_utime + after.ru_stime - wrk_cpu.ru_utime - wrk_cpu.ru_stime
    for line in result.stdout.splitlines():
        if line.startswith("BENCH-RESULT "):
            figures: dict[str, Any] = json.loads(line.removeprefix("BENCH-RESULT "))
            break
    else:
        sys.exit(f"wrk printed no result:\n{result.stdout}\n{result.stderr}")
    latency = figures["latency_us"]
    return Phase(
        name=name,
        requests=figures["requests"],
        seconds=figures["duration_us"] / 1e6,
        p50_ms=latency["p50"] / 1000,
        p99_ms=latency["p99"] / 1000,
        errors={kind: n for kind, n in figures["errors"].items() if n},
        answers=figures["answers"],
        wrk_cpu_s=wrk_cpu_s,
        server_cpu_s=server_cpu_s,
        pg_cpu_s=pg_cpu_s,
    )


def report(title: str, phases: list[Phase]) -> None:
    """One line per phase. CPU columns: milliseconds of CPU per request, spent by the
    web server's processes, by the PostgreSQL backends serving them, and by wrk."""
    print(f"\n{title}")
    print(
        f"  {'phase':<28} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'web CPU':>8} {'PG CPU':>8} {'wrk CPU':>8}  errors"
    )
    for phase in phases:
        answers = ", ".join(f"{key} {n}" for key, n in sorted(phase.answers.items()))
        web = (phase.server_cpu_s or float("nan")) * 1000 / phase.requests
        pg = (phase.pg_cpu_s if phase.pg_cpu_s is not None else float("nan")) * 1000
        load = phase.wrk_cpu_s * 1000 / phase.requests
        print(
            f"  {phase.name:<28} {phase.rate:>7.0f} {phase.p50_ms:>8.1f} {phase.p99_ms:>8.1f} "
            f"{web:>8.2f} {pg / phase.requests:>8.2f} {load:>8.2f}"
            f"  {phase.errors or 0}" + (f"  ({answers})" if answers else "")
        )


def per_cpu_s(phase: Phase) -> float:
    """Requests per CPU-second of the web server during the phase."""
    return phase.requests / phase.server_cpu_s if phase.server_cpu_s else float("nan")


def ratios(plain: Phase, drf: Phase, play: Phase) -> None:
    """Each pair as throughput ratios and as ratios of requests per CPU-second of the web
    server: the second is what other processes on the machine disturb least."""
    print(f"\n  {'ratios (same run)':<28} {'req/s':>7} {'req/web CPU-s':>14}")
    for label, a, b in (
        ("play / DRF trivial", play, drf),
        ("play / plain Django", play, plain),
        ("DRF trivial / plain Django", drf, plain),
    ):
        print(f"  {label:<28} {a.rate / b.rate:>7.2f} {per_cpu_s(a) / per_cpu_s(b):>14.2f}")


def phases(
    url: str,
    env: dict[str, str],
    *,
    connections: int,
    duration: int,
    server_pids: list[int],
    backwards: bool = False,
) -> list[Phase]:
    """The three phases (plain, DRF, play), each for the same duration and connection
    count; run in that order, or the other way round with ``backwards``, and returned in
    that order either way."""
    done = {
        name: wrk(name, url + path, script, connections, duration, env, server_pids=server_pids)
        for name, path, script in (PHASES[::-1] if backwards else PHASES)
    }
    return [done[name] for name, _path, _script in PHASES]


def ratios_over_rounds(rounds: list[list[Phase]]) -> None:
    """Each ratio's median and range over rounds of the three phases. A shared virtual
    machine's speed drifts by a fifth from one minute to the next; rounds that alternate
    the phases' order let both sides of a ratio see the same minutes."""
    print(
        f"\n  {'ratios over ' + str(len(rounds)) + ' rounds':<28} {'req/s: median (range)':>24}"
        f" {'req/web CPU-s: median (range)':>31}"
    )
    for label, a, b in (("play / plain Django", 2, 0), ("DRF trivial / plain Django", 1, 0)):
        by_rate = [phases[a].rate / phases[b].rate for phases in rounds]
        by_cpu = [per_cpu_s(phases[a]) / per_cpu_s(phases[b]) for phases in rounds]
        print(f"  {label:<28} {_median_range(by_rate):>24} {_median_range(by_cpu):>31}")


def _median_range(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


@contextmanager
def gunicorns(
    port: int, workers: int | None, *, processes: int = 1, cpus: str | None = None
) -> Iterator[tuple[str, list[int]]]:
    """``processes`` gunicorn masters on ``port``, ``port + 1``, …, each with its own
    workers (as two web machines' processes would be, on one host), pinned to ``cpus``
    (``taskset -c``) when given; yields the first one's URL and the masters' pids."""
    with ExitStack() as stack:
        servers = [
            stack.enter_context(gunicorn(port + i, workers, cpus=cpus)) for i in range(processes)
        ]
        yield servers[0][0], [pid for _url, pid in servers]


@contextmanager
def gunicorn(
    port: int, workers: int | None, *, cpus: str | None = None
) -> Iterator[tuple[str, int]]:
    """gunicorn as deployed (DEBUG off) with the benchmark route on; yields its URL and
    the master's pid."""
    env = {
        **os.environ,
        **SERVER_ENV,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_LOGLEVEL": "warning",
    }
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    gunicorn_bin = str(Path(sys.executable).parent / "gunicorn")
    pin = ["taskset", "-c", cpus] if cpus else []
    server = subprocess.Popen(
        [*pin, gunicorn_bin, "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                sys.exit("gunicorn exited at start")
            try:
                if httpx.get(url + PLAIN, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                sys.exit("gunicorn did not answer in 30 s")
            time.sleep(0.2)
        yield url, server.pid
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=32, help="one wrk thread each")
    parser.add_argument("--duration", type=int, default=20, help="seconds per phase")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="gunicorn masters (each with --workers) on --port, --port + 1, ...; wrk's "
        "connections are spread over them",
    )
    parser.add_argument("--closed-only", action="store_true", help="skip the one-connection phases")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="closed-loop rounds of the three phases, every other one in reverse order; "
        "with more than one, each ratio's median and range",
    )
    parser.add_argument(
        "--cpus", default=None, help="pin the gunicorn processes to these CPUs (taskset -c)"
    )
    parser.add_argument(
        "--advice",
        type=int,
        default=4,
        metavar="GAMES",
        help="Maxi solo (with hints) and expert games for the strategy-table figures "
        "(needs the Maxi table in YATZY_TABLES_DIR: python manage.py solve maxi); 0: skip",
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a scratch PostgreSQL database (it is migrated and emptied).")
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (Debian: apt-get install wrk).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from daily import clock

    day = clock.today()
    players, pg_version = setup_players(args.connections, day)
    wrk_version = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout
    server = gunicorns(args.port, args.workers, processes=args.processes, cpus=args.cpus)
    with tempfile.TemporaryDirectory() as scratch, server as (url, server_pids):
        players_file = Path(scratch) / "players.txt"
        players_file.write_text("".join(f"{token} {round_id}\n" for token, round_id in players))
        env = {**os.environ, "BENCH_PLAYERS": str(players_file), "BENCH_DAY": day.isoformat()}
        if args.processes > 1:
            env["BENCH_PORTS"] = ",".join(str(args.port + i) for i in range(args.processes))
        print(f"Machine: {describe()}")
        print(
            f"PostgreSQL {pg_version}; gunicorn processes: {args.processes}"
            f"{f' pinned to CPUs {args.cpus}' if args.cpus else ''}, sync workers each: "
            f"{args.workers or 'default (2 x cores + 1)'}; "
            f"{wrk_version.split(' Copyright')[0].strip()}; {args.duration} s per phase"
        )
        # Other processes on the machine skew every figure; the load says how much.
        print(f"Load average before: {os.getloadavg()[0]:.2f}")
        # Warm up: every worker opens its database connection.
        for _name, path, script in PHASES[:2]:
            wrk("warm-up", url + path, script, args.connections, 3, env)
        rounds = []
        for number in range(args.rounds):
            backwards = number % 2 == 1
            closed = phases(
                url,
                env,
                connections=args.connections,
                duration=args.duration,
                server_pids=server_pids,
                backwards=backwards,
            )
            rounds.append(closed)
            title = f"Closed loop, {args.connections} connections (capacity)"
            if args.rounds > 1:
                order = "play first" if backwards else "plain first"
                title += f", round {number + 1} of {args.rounds} ({order})"
            report(title, closed)
            ratios(*closed)
        if args.rounds > 1:
            ratios_over_rounds(rounds)
        served = sum(phase.requests for closed in rounds for phase in closed) + 6 * args.connections
        print(f"\n  memory per web worker after about {served:,} requests in all (mixed):")
        for pid, rss, pss, private in worker_memory(server_pids):
            print(
                f"    worker {pid}: RSS {rss / 1024:.0f} MB, PSS {pss / 1024:.0f} MB, "
                f"private {private / 1024:.0f} MB"
            )
        if not args.closed_only:
            single = phases(
                url, env, connections=1, duration=args.duration, server_pids=server_pids
            )
            report("One connection (service time on an otherwise idle server)", single)
            ratios(*single)
        if args.advice:
            import yatzy
            from bench import advice
            from yatzy.strategy import table_exists

            if table_exists(yatzy.get_ruleset("maxi")):
                advice.report(advice.run(url, players[0][0], server_pids[0], games=args.advice))
            else:  # the hints would be 503 table_building until it is built
                print(
                    "\nStrategy tables: skipped, no Maxi table built "
                    "(python -m yatzy.strategy solve maxi, or --advice 0)"
                )
        print(f"\nLoad average after: {os.getloadavg()[0]:.2f} (1 min, the bench's own load in it)")


if __name__ == "__main__":
    main()
