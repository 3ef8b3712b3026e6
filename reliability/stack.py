"""A private production stack for the reliability runs: its own PostgreSQL server and
Redis server on free ports under a temporary folder, gunicorn with the deploy settings,
and a real Celery worker. Nothing here touches the shared servers on 5432/6379, so the
fault runs can stop and kill their dependencies while other test runs go on."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(
    predicate: Callable[[], T | None], timeout: float, what: str, interval: float = 0.2
) -> T:
    """``predicate``'s first true value within ``timeout`` seconds (an exception counts as
    not yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            value = predicate()
            if value:
                return value
        time.sleep(interval)
    raise RuntimeError(f"{what} not ready after {timeout:.0f} s")


# The tables built before a run: seconds each (a Maxi table takes minutes).
FAST_RULESETS = ("yatzy", "yahtzee")


def build_fast_tables(env: dict[str, str]) -> None:
    """Build the Yatzy and Yahtzee tables into ``env``'s ``YATZY_TABLES_DIR``."""
    for ruleset in FAST_RULESETS:
        subprocess.run(
            [sys.executable, "manage.py", "solve", ruleset, "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


def _pg_bin() -> Path:
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: p.parts)
    if versions:
        return versions[-1].parent
    found = shutil.which("pg_ctl")
    if found is None:
        raise RuntimeError("PostgreSQL server binaries (pg_ctl, initdb) not found")
    return Path(found).parent


class Postgres:
    """A throwaway PostgreSQL server: ``initdb`` in a temporary folder, trust auth on
    127.0.0.1 only, stopped and started with ``pg_ctl``. As root it runs as ``postgres``
    (the server refuses to run as root)."""

    def __init__(self, base: Path, port: int) -> None:
        self.port = port
        self.data = base / "pg"
        self.socket_dir = base / "pg-socket"
        self.log = base / "postgres.log"
        self.bin = _pg_bin()
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/yatzy"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*self._as, *args], check=check, capture_output=True, text=True, cwd="/"
        )

    def init(self) -> None:
        self.socket_dir.mkdir()
        self.log.touch()
        if self._as:
            shutil.chown(self.data.parent, "postgres")
            shutil.chown(self.socket_dir, "postgres")
            shutil.chown(self.log, "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        self.start()
        self._run(
            str(self.bin / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "yatzy",
        )

    def start(self) -> None:
        # fsync=off only skips flushing to the disk: a killed server (the faults stop it
        # with -m immediate) loses nothing the kernel has. synchronous_commit stays on: with
        # it off, a commit acknowledged to a client can vanish in that crash, which the
        # round checks report as a lost action (they did, when it was off).
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 "
            "-c max_connections=200 -c fsync=off "
            # As deploy/docker-compose.yml: refused statements are logged without text.
            "-c log_min_error_statement=panic"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-m",
            mode,
            "-w",
            "-t",
            "60",
            "stop",
            check=False,
        )

    def is_running(self) -> bool:
        status = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "status", check=False)
        return status.returncode == 0


class Redis:
    """A throwaway Redis server without persistence: a restart starts empty, like a
    replaced cache node (queued jobs are lost; the reconcile job makes up for them)."""

    def __init__(self, base: Path, port: int) -> None:
        self.port = port
        self.log = base / "redis.log"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=self.log.open("a"),
            stderr=subprocess.STDOUT,
        )
        wait_until(self.ping, 15, "redis")

    def ping(self) -> bool:
        return (
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            ).stdout.strip()
            == "PONG"
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # no shutdown save: the data is simply gone
            self.process.wait()

    def queue_length(self) -> int:
        out = subprocess.run(
            ["redis-cli", "-p", str(self.port), "llen", "celery"], capture_output=True, text=True
        ).stdout.strip()
        return int(out or 0)


@dataclass
class Stack:
    """PostgreSQL, Redis, gunicorn, one Celery worker and the beat, all private to one
    run."""

    base: Path
    postgres: Postgres
    redis: Redis
    web_port: int
    env: dict[str, str] = field(default_factory=dict)
    web: subprocess.Popen | None = None
    worker: subprocess.Popen | None = None
    beat: subprocess.Popen | None = None
    keep: bool = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    @classmethod
    def create(cls, *, web_workers: int, keep: bool = False) -> Stack:
        base = Path(tempfile.mkdtemp(prefix="yatzy-reliability-"))
        os.chmod(base, 0o755)
        stack = cls(
            base=base,
            postgres=Postgres(base, free_port()),
            redis=Redis(base, free_port()),
            web_port=free_port(),
            keep=keep,
        )
        var = base / "var"
        var.mkdir()
        stack.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_"))},
            "DATABASE_URL": stack.postgres.url,
            "REDIS_URL": stack.redis.url,
            "CELERY_BROKER_URL": stack.redis.url,
            # Jobs of a killed worker come back after this many seconds, not an hour.
            "CELERY_BROKER_VISIBILITY_TIMEOUT": "10",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(40),
            "DAILY_SEED_SECRET": secrets.token_urlsafe(32),
            "SECURE_SSL_REDIRECT": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "VAR_DIR": str(var),
            # The Yatzy and Yahtzee tables are built before the run (seconds); the Maxi
            # table (minutes) is not, so Maxi hints answer 503 table_building here.
            "YATZY_TABLES_DIR": str(base / "tables"),
            "LOG_LEVEL": "WARNING",
            "THROTTLE_REGISTER": "100000/minute",
            "THROTTLE_LOGIN": "100000/minute",
            "THROTTLE_PLAY": "100000/minute",
            "THROTTLE_ADVICE": "100000/minute",
            "GUNICORN_BIND": f"127.0.0.1:{stack.web_port}",
            "GUNICORN_LOGLEVEL": "warning",
            "WEB_CONCURRENCY": str(web_workers),
        }
        return stack

    def log(self, name: str):
        return (self.base / f"{name}.log").open("a")

    def start(self) -> None:
        self.postgres.init()
        self.redis.start()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        build_fast_tables(self.env)
        self.start_web()
        self.start_worker()
        self.start_beat()

    def start_web(self) -> None:
        self.web = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log("web"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_web()

    def wait_web(self) -> None:
        wait_until(
            lambda: httpx.get(f"{self.url}/api/schema/", timeout=5).status_code == 200,
            60,
            "gunicorn",
        )

    def kill_web_workers(self) -> None:
        """SIGKILL every gunicorn worker (not the master, which starts new ones)."""
        assert self.web is not None
        children = subprocess.run(
            ["pgrep", "-P", str(self.web.pid)], capture_output=True, text=True
        ).stdout.split()
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)

    def start_worker(self) -> None:
        """The deploy's worker command (prefork, two children), in its own process group
        so a kill takes the whole worker like a killed container."""
        self.worker = self._celery(
            "worker",
            "--concurrency=2",
            "--loglevel=WARNING",
            "-n",
            f"reliability-{self.web_port}@%h",
        )

    def start_beat(self) -> None:
        """The deploy's beat (its periodic jobs, e.g. the board catch-up)."""
        self.beat = self._celery(
            "beat", "--loglevel=WARNING", f"--schedule={self.base / 'celerybeat-schedule'}"
        )

    def _celery(self, command: str, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [str(BIN / "celery"), "-A", "config", command, *args],
            cwd=ROOT,
            env=self.env,
            stdout=self.log(command),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill_worker(self) -> None:
        if self.worker is not None and self.worker.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait()

    def stop(self) -> None:
        """Stop everything, each part even if another one fails to stop."""
        for process in (self.web, self.worker, self.beat):
            if process is not None and process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except BaseException:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
        with contextlib.suppress(Exception):
            self.redis.stop()
        with contextlib.suppress(Exception):
            self.postgres.stop("immediate")
        if not self.keep:
            shutil.rmtree(self.base, ignore_errors=True)
