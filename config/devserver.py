"""``make run``: the web server, a Celery worker and its beat, and the strategy-table
worker, under one supervisor.

``python -m config.devserver --port 8000`` migrates the database and makes sure today's
challenge exists (in this process: one Django start-up instead of one per command), then
starts ``manage.py runserver`` and, once it listens, ``celery worker --beat`` and a
worker for the ``tables`` queue as child processes. One Ctrl-C or one SIGTERM (``make``
passes its own on) stops all of them, and so does the end of the parent process
(``make`` killed outright) or of the web server. A worker that stops on its own (a crash,
a kill) is started again, with a log line, after a delay that doubles with each stop in
quick succession, while the web server goes on serving.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.2
# A warm Celery shutdown lets the job in hand finish; after this, whatever is left is killed.
STOP_GRACE_SECONDS = 10.0
# A worker that stops is started again after 1 s, then 2, 4, ... up to 30 s while it
# keeps stopping; one that ran this long before stopping starts over at 1 s.
RESTART_FIRST_SECONDS = 1.0
RESTART_MAX_SECONDS = 30.0
RESTART_STABLE_SECONDS = 60.0

# With its beat embedded: exactly one beat runs, and it ends with the worker.
WORKER_ARGS = ["-A", "config", "worker", "--beat", "--pool=solo", "--loglevel=INFO"]
# Strategy tables take seconds (Yatzy, Yahtzee) to minutes (Maxi): their own worker, so
# board updates and day closes never wait behind a build. It builds the missing default
# tables as soon as it starts, the fast ones first. It also analyses revealed days
# (games.skill, the `analysis` queue), which waits for the Maxi table anyway.
TABLES_WORKER_ARGS = [
    "-A", "config", "worker", "-Q", "tables,analysis", "--pool=solo", "--loglevel=INFO",
    "-n", "tables@%h",
]  # fmt: skip

_signals: list[int] = []


def _on_signal(signum: int, _frame: object) -> None:
    _signals.append(signum)


def _die_with_parent(signum: int) -> Callable[[], None] | None:
    """A pre-exec hook that has Linux send the child ``signum`` when this process dies,
    even by SIGKILL, so no server or worker outlives its supervisor. None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    pr_set_pdeathsig = 1

    def hook() -> None:
        prctl(pr_set_pdeathsig, signum)

    return hook


# pg_advisory_lock's key for the migrations of `make run` (any fixed number).
_PG_MIGRATE_LOCK = 0x6D617869


@contextlib.contextmanager
def _migrate_lock() -> Iterator[None]:
    """One ``make run`` at a time migrates a database: a second one started beside the
    first on the same fresh database (another port, another terminal) applied the same
    migrations at once and stopped on ``table ... already exists``. The next waits here
    and then finds them applied. SQLite: a lock on a file beside the database;
    PostgreSQL: a session advisory lock."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [_PG_MIGRATE_LOCK])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [_PG_MIGRATE_LOCK])
        return
    name = str(connection.settings_dict["NAME"])
    if connection.vendor != "sqlite" or name == ":memory:" or name.startswith("file:"):
        yield
        return
    with open(f"{name}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def _prepare() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    with _migrate_lock():
        call_command("migrate", interactive=False)
        call_command("challenges_ensure")
    connections.close_all()


def _start(argv: list[str], death_signal: int) -> subprocess.Popen[bytes]:
    # Its own process group: a terminal's Ctrl-C reaches only make and this supervisor,
    # which stops each child once (a second SIGINT would make Celery cut its job short),
    # and a group signal also reaches the child's own children (the worker's beat).
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        process_group=0,
        preexec_fn=_die_with_parent(death_signal),
    )


def _signal_group(child: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signum)


def restart_delay(stops: int) -> float:
    """Seconds before a worker's next start after ``stops`` stops in quick succession.

    >>> [restart_delay(n) for n in (1, 2, 3, 6, 20)]
    [1.0, 2.0, 4.0, 30.0, 30.0]
    """
    return min(RESTART_MAX_SECONDS, RESTART_FIRST_SECONDS * (1 << min(stops - 1, 16)))


def _how(returncode: int) -> str:
    if returncode < 0:
        return f"killed by {signal.Signals(-returncode).name}"
    return f"exit status {returncode}"


@dataclass
class Child:
    """One supervised process: the web server (its end ends the run) or a worker (started
    again when it stops)."""

    name: str
    argv: list[str]
    restart: bool = False
    # What it gets when the supervisor dies without stopping it (killed outright): the
    # web server and the worker SIGTERM, whose warm shutdown also ends the worker's
    # beat; the tables worker SIGKILL, since its warm shutdown would first finish the
    # build in hand (minutes). Its next start resumes that build at once.
    death_signal: int = signal.SIGTERM
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    stops: int = 0  # stops in quick succession, for the backoff
    restart_at: float | None = None

    def start(self) -> None:
        self.process = _start(self.argv, self.death_signal)
        self.started_at = time.monotonic()
        self.restart_at = None

    def ended(self) -> bool:
        """Whether it has stopped and is not yet due to start again."""
        return (
            self.process is not None and self.restart_at is None and self.process.poll() is not None
        )

    def schedule_restart(self) -> None:
        assert self.process is not None
        # What it left behind dies with it: the worker's beat, were it still running,
        # would be a second beat beside the new worker's.
        _signal_group(self.process, signal.SIGKILL)
        ran = time.monotonic() - self.started_at
        self.stops = 1 if ran >= RESTART_STABLE_SECONDS else self.stops + 1
        delay = restart_delay(self.stops)
        self.restart_at = time.monotonic() + delay
        print(
            f"devserver: the {self.name} stopped ({_how(self.process.returncode)}) after "
            f"{ran:.0f} s; starting it again in {delay:.0f} s.",
            file=sys.stderr,
            flush=True,
        )

    def restart_if_due(self) -> None:
        if self.restart_at is not None and time.monotonic() >= self.restart_at:
            self.start()
            assert self.process is not None
            print(
                f"devserver: started the {self.name} again (pid {self.process.pid}).",
                file=sys.stderr,
                flush=True,
            )


def _listening(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(POLL_SECONDS)
        return sock.connect_ex((host, port)) == 0


def _banner(url: str, seconds: float) -> str:
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(ROOT)
    return "\n".join(
        [
            "",
            f"Maxi Yatzy Daily on {url}  (answering {seconds:.1f} s after start)",
            f"  API docs (Swagger UI): {url}api/docs/",
            f"  OpenAPI schema:        {url}api/schema/",
            f"  Admin:                 {url}admin/",
            f"  Health:                {url}health/",
            f"  Create an admin:       {python} manage.py createsuperuser",
            "Starting the Celery workers and the beat; Ctrl-C stops them all.",
            "",
        ]
    )


def _watch(
    children: list[Child],
    parent: int,
    ready: Callable[[], bool] = lambda: False,
) -> tuple[str, int] | None:
    """Poll until ``ready()`` (None) or a reason to stop: a signal, the parent gone (make
    killed outright), the web server ended; a worker that ends is started again. Then
    why, and the exit status to end with."""
    while True:
        if _signals:
            return signal.Signals(_signals[0]).name, 0
        if os.getppid() != parent:
            return "the parent process has gone", 0
        for child in children:
            if child.ended():
                assert child.process is not None
                if not child.restart:
                    status = child.process.returncode
                    # As a shell reports it: 128 + the signal that killed it.
                    code = 128 - status if status < 0 else status or 1
                    return f"the {child.name} stopped ({_how(status)})", code
                child.schedule_restart()
            child.restart_if_due()
        if ready():
            return None
        time.sleep(POLL_SECONDS)


def _stop(children: list[Child]) -> None:
    """SIGTERM to each child's group, a grace period (cut short by another signal), then
    SIGKILL to whatever is left of each group, its leader or the worker's beat."""
    processes = [child.process for child in children if child.process is not None]
    for process in processes:
        _signal_group(process, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    signals_seen = len(_signals)
    while (
        any(process.poll() is None for process in processes)
        and time.monotonic() < deadline
        and len(_signals) == signals_seen
    ):
        time.sleep(0.05)
    for process in processes:
        _signal_group(process, signal.SIGKILL)
        process.wait()


def supervise(web: Child, workers: list[Child], ready: Callable[[], bool]) -> int:
    """Start ``web``; once ``ready()``, the ``workers``; watch them all until a signal,
    the parent's end or the web server's; stop them all. Returns the exit status."""
    parent = os.getppid()
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    children = [web]
    try:
        web.start()
        # The workers start once the web server listens: on a small machine the
        # start-ups compete for the CPU, and the first answer is what a person waits for.
        stop = _watch(children, parent, ready=ready)
        if stop is None:
            for worker in workers:
                worker.start()
                children.append(worker)
            stop = _watch(children, parent)
        assert stop is not None  # _watch without ready() returns only to stop
        why, status = stop
        names = " and ".join(child.name for child in children)
        print(f"devserver: {why}; stopping {names}.", file=sys.stderr)
    finally:
        _stop(children)
    return status


def _port(raw: str) -> int:
    """A TCP port, 1-65535: beyond it the port-in-use check stopped on a bare
    OverflowError, and 0 had runserver pick a port the readiness check never found."""
    try:
        port = int(raw)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"PORT must be a number from 1 to 65535, not {raw!r}")
    return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.devserver")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=_port, default=8000)
    args = parser.parse_args(argv)
    started = time.monotonic()
    if _listening(args.host, args.port):
        # Else that server's answers would read as this one being ready.
        print(
            f"devserver: {args.host}:{args.port} is in use (PORT=... picks another)",
            file=sys.stderr,
        )
        return 1

    try:
        _prepare()
    except KeyboardInterrupt:  # Ctrl-C while migrating: nothing started yet
        return 130
    python = sys.executable
    address = f"{args.host}:{args.port}"
    # --nostatic: WhiteNoise (settings.MIDDLEWARE) serves the static files, from the
    # apps' folders while DEBUG is on, as it does in production; runserver's own static
    # handler answered a path with ".." in it (/static/../manage.py) with a 500.
    web = Child(
        "web server",
        [python, "manage.py", "runserver", "--noreload", "--skip-checks", "--nostatic", address],
    )
    workers = [
        Child("worker", [python, "-m", "celery", *WORKER_ARGS], restart=True),
        Child(
            "tables worker",
            [python, "-m", "celery", *TABLES_WORKER_ARGS],
            restart=True,
            death_signal=signal.SIGKILL,
        ),
    ]

    def ready() -> bool:
        if not _listening(args.host, args.port):
            return False
        print(_banner(f"http://{args.host}:{args.port}/", time.monotonic() - started))
        sys.stdout.flush()
        return True

    return supervise(web, workers, ready)


if __name__ == "__main__":
    sys.exit(main())
