"""The embedded-stack phase: ``make run``'s supervisor (``config.devserver``: runserver,
a Celery worker with its beat and a tables worker, on SQLite and the filesystem broker)
under concurrent play, then a worker killed with SIGKILL.

What must hold: no server error and no retry while the players play; no child of the
supervisor stops (no restart, the same worker processes at the end, no exception in any
log); the worker's jobs keep the daily board equal to the ranked rounds played; after the
kill, the supervisor starts the worker again, exactly one beat runs, and a round played
then reaches the board; one SIGTERM stops everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from reliability.player import API, Player, Tally, run_players
from reliability.stack import FAST_RULESETS, ROOT, build_fast_tables, free_port, wait_until

# The surrounding run's parts never reach the embedded stack: it has its own SQLite
# database and broker folder, as `make run` on a fresh clone (nor make's own flags).
NOT_PASSED_ON = (
    "DATABASE_URL", "REDIS_URL", "CELERY_", "DJANGO_", "DEBUG", "SECRET_KEY", "MAKE", "MFLAGS",
)  # fmt: skip
WORKER = "celeryd: celery@"  # the process titles Celery gives (setproctitle)
TABLES_WORKER = "celeryd: tables@"
BEAT = "celery beat"
# Lines of the supervisor and the workers that mean something went wrong.
TROUBLE = re.compile(
    r"Traceback|JSONDecodeError|devserver: the .* stopped|^(\w+\.)*\w+(Error|Exception): "
)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name, or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has stopped; only its parent's wait is missing)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, with its command line (as the process shows it)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))):
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            found[child] = command.decode(errors="replace")
            todo.append(child)
    return found


def embedded_env(environ: Mapping[str, str], folder: Path, **settings: str) -> dict[str, str]:
    """The environment of ``make run`` on a fresh clone with its files in ``folder``:
    ``environ`` without any database, Redis, broker, Django or make setting, a SQLite
    database, ``VAR_DIR`` and the tables under ``folder``, no table build at start (a
    Maxi build is minutes of CPU); then ``settings``."""
    env = {name: value for name, value in environ.items() if not name.startswith(NOT_PASSED_ON)}
    env.update(
        VAR_DIR=str(folder / "var"),
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        YATZY_TABLES_DIR=str(folder / "tables"),
        STRATEGY_TABLES_BUILD_AT_START="false",
    )
    env.update(settings)
    return env


@dataclass
class EmbeddedStack:
    """``python -m config.devserver`` in a folder of its own."""

    base: Path
    port: int
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    keep: bool = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.base / "devserver.log"

    @classmethod
    def create(cls, base_env: dict[str, str], *, keep: bool = False) -> EmbeddedStack:
        base = Path(tempfile.mkdtemp(prefix="yatzy-embedded-"))
        env = embedded_env(
            base_env,
            base,
            THROTTLE_REGISTER="100000/minute",
            THROTTLE_LOGIN="100000/minute",
            THROTTLE_PLAY="100000/minute",
            THROTTLE_ADVICE="100000/minute",
        )
        return cls(base=base, port=free_port(), env=env, keep=keep)

    def start(self, tables_from: Path | None) -> None:
        tables = self.base / "tables"
        tables.mkdir()
        # One built file per ruleset, copied from the private stack's tables if it has them.
        found = [
            sorted(tables_from.glob(f"{r}-*.table"))[:1] if tables_from else []
            for r in FAST_RULESETS
        ]
        if all(found):
            for (path,) in found:
                shutil.copy(path, tables)
        else:
            build_fast_tables(self.env)
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "config.devserver", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(self.healthy, 180, "make run's /health/ (the worker included)", 0.5)

    def healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"the devserver stopped: {self.output()[-2000:]}")
        return httpx.get(f"{self.url}/health/?format=json", timeout=5).status_code == 200

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def find(self, title: str) -> list[int]:
        assert self.process is not None
        return sorted(p for p, command in descendants(self.process.pid).items() if title in command)

    def settled(self, titles: tuple[str, ...], besides: int | None = None) -> dict[str, list[int]]:
        """The one process of each title (other than ``besides``), once there is exactly
        one: a worker answers before the other has set its title, and the embedded beat's
        process carries its worker's title from the fork until it sets its own."""

        def one_each() -> dict[str, list[int]] | None:
            found = {t: [p for p in self.find(t) if p != besides] for t in titles}
            return found if all(len(pids) == 1 for pids in found.values()) else None

        return wait_until(one_each, 60, f"one process each of {titles}")

    def stop(self) -> tuple[int | None, int]:
        """SIGTERM, as Ctrl-C or make would; SIGKILL to whatever is left after 30 s.
        Returns the supervisor's exit status (None if it had to be killed) and how many
        of its processes outlived it."""
        status, left = None, 0
        if self.process is not None:
            children = descendants(self.process.pid)
            if self.process.poll() is None:
                self.process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    status = self.process.wait(timeout=30)
            for pid in [self.process.pid, *children]:
                if running(pid):
                    left += 1
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            self.process.wait()
        if not self.keep:
            shutil.rmtree(self.base, ignore_errors=True)
        return status, left


@dataclass
class BoardCheck:
    """The API's daily board against the ranked rounds the players completed."""

    url: str
    token: str
    entries: int = 0
    differences: list[str] = field(default_factory=list)

    def matches(self, tally: Tally) -> bool:
        """Whether the boards of the days played hold exactly the players' completed
        ranked rounds (a run may cross midnight: each day's board has its own)."""
        ranked = [r for r in tally.rounds if r.ranked and r.status == "completed"]
        want = {(r.day, r.username, r.total) for r in ranked}
        got: set[tuple[str | None, str, int]] = set()
        with httpx.Client(headers={"Authorization": f"Token {self.token}"}, timeout=30) as http:
            for day in sorted({r.day for r in ranked if r.day}):
                path: str | None = f"{self.url}{API}/leaderboards/daily/{day}/"
                while path:
                    body = http.get(path).raise_for_status().json()
                    got |= {(day, e["username"], e["value"]) for e in body["results"]}
                    path = body["next"]
        self.entries = len(got)
        self.differences = [
            f"on the board, not played: {sorted(got - want)[:5]}",
            f"played, not on the board: {sorted(want - got)[:5]}",
        ]
        return got == want and bool(want)


def _wait_for_board(check: BoardCheck, tally: Tally, timeout: float) -> float | None:
    """Seconds until the board matched, or None."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check.matches(tally):
            return round(time.monotonic() - started, 1)
        time.sleep(1)
    return None


async def _one_ranked_round(url: str, tally: Tally, name: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        player = Player(http, tally, name=name, rng=random.Random(7), strict=True)
        await player.register()
        day = (await player.get(f"{API}/daily/"))["date"]
        response, _ = await player.call("POST", f"{API}/daily/{day}/rounds/")
        await player.play_round(response.json())


def run(
    base_env: dict[str, str],
    *,
    clients: int,
    seconds: float,
    short: bool,
    seed: int,
    tables_from: Path | None,
    keep: bool,
) -> dict[str, Any]:
    """The phase; its figures and ``failures``."""
    from reliability.schema import register_token

    stack = EmbeddedStack.create(base_env, keep=keep)
    result: dict[str, Any] = {"folder": str(stack.base)}
    failures: list[str] = []
    started = time.monotonic()
    try:
        stack.start(tables_from)
        result["start_s"] = round(time.monotonic() - started, 1)
        # From here on (the health checks failed, logged, until the worker was up).
        healthy_from = len(stack.output())
        before = stack.settled((WORKER, TABLES_WORKER, BEAT))
        token = register_token(stack.url, "embedded-observer", "observer passphrase 2026")

        # Concurrent play for ``seconds``: every request must succeed the first time.
        tally = Tally()

        async def play() -> float:
            stop = asyncio.Event()
            asyncio.get_running_loop().call_later(seconds, stop.set)
            return await run_players(
                stack.url,
                tally,
                clients=clients,
                rounds=1,
                run_id="embedded",
                seed=seed,
                strict=True,
                until=stop,
                short=short,
            )

        result.update(tally.figures(asyncio.run(play())))
        failures += tally.failures
        if tally.errors():
            failures.append(f"{tally.errors()} server errors")
        board = BoardCheck(stack.url, token)
        result["board_converged_after_s"] = _wait_for_board(board, tally, 90)
        result["board_entries_checked"] = board.entries
        if result["board_converged_after_s"] is None:
            failures += [f"daily board: {d}" for d in board.differences]
        after = {title: stack.find(title) for title in before}
        if after != before:
            failures.append(f"processes changed under load: {before} -> {after}")
        trouble = [
            line for line in stack.output()[healthy_from:].splitlines() if TROUBLE.search(line)
        ]
        result["crashes_and_exceptions"] = len(trouble)
        failures += [f"log: {line[:200]}" for line in trouble[:20]]

        # The worker killed outright: started again, and jobs run after it.
        mark = len(stack.output())
        [worker] = before[WORKER]
        killed = time.monotonic()
        os.kill(worker, signal.SIGKILL)
        stack.settled((WORKER,), besides=worker)
        result["worker_restarted_after_s"] = round(time.monotonic() - killed, 1)
        if "the worker stopped (killed by SIGKILL)" not in stack.output():
            failures.append("the supervisor did not report the killed worker")

        def new_beat() -> bool:
            beats = stack.find(BEAT)
            return len(beats) == 1 and beats != before[BEAT]

        wait_until(new_beat, 60, "the new worker's beat")
        seen = len(tally.failures)
        asyncio.run(_one_ranked_round(stack.url, tally, "embedded-after-kill"))
        failures += tally.failures[seen:]
        converged = _wait_for_board(board, tally, 90)
        result["round_after_kill_on_board_after_s"] = converged
        if converged is None:
            failures += [f"after the kill, daily board: {d}" for d in board.differences]
        result["board_entries_checked"] = board.entries
        result["beats_after_kill"] = len(stack.find(BEAT))
        if result["beats_after_kill"] != 1:
            failures.append(f"{result['beats_after_kill']} beats after the kill")
        expected = "the worker stopped (killed by SIGKILL)"
        trouble = [
            line
            for line in stack.output()[mark:].splitlines()
            if TROUBLE.search(line) and expected not in line
        ]
        failures += [f"log after the kill: {line[:200]}" for line in trouble[:20]]
    except Exception as exc:
        failures.append(f"the phase stopped: {type(exc).__name__}: {exc}")
    finally:
        status, left = stack.stop()
        result["phase_s"] = round(time.monotonic() - started, 1)
        result["stopped_with_status"] = status
        if status != 0 or left:
            failures.append(f"SIGTERM: the devserver ended with {status}, {left} processes left")
    result["failures"] = failures
    return result
