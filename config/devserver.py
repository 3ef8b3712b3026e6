"""``make run``: the web server, a Celery worker and its beat, and the strategy-table
worker, under one supervisor.

``python -m config.devserver --port 8000`` migrates the database and makes sure today's
challenge exists (in this process: one Django start-up instead of one per command), then
starts ``manage.py runserver`` and, once it listens, ``celery worker --beat`` and a
worker for the ``tables`` queue as child processes. One Ctrl-C or one SIGTERM (``make``
passes its own on) stops all of them, and so does the end of the parent process
(``make`` killed outright) or of any child.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.2
# A warm Celery shutdown lets the job in hand finish; after this, whatever is left is killed.
STOP_GRACE_SECONDS = 10.0

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


def _die_with_parent() -> Callable[[], None] | None:
    """A pre-exec hook that has Linux send the child SIGTERM when this process dies, even
    by SIGKILL, so no server or worker outlives its supervisor. None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    pr_set_pdeathsig = 1

    def hook() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM)

    return hook


def _prepare() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    call_command("migrate", interactive=False)
    call_command("challenges_ensure")
    connections.close_all()


def _start(argv: list[str]) -> subprocess.Popen[bytes]:
    # Its own process group: a terminal's Ctrl-C reaches only make and this supervisor,
    # which stops each child once (a second SIGINT would make Celery cut its job short),
    # and a group signal also reaches the child's own children (the worker's beat).
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        process_group=0,
        preexec_fn=_die_with_parent(),
    )


def _signal_group(child: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signum)


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
            "Starting the Celery worker and its beat; Ctrl-C stops all three.",
            "",
        ]
    )


def _watch(
    children: dict[str, subprocess.Popen[bytes]],
    parent: int,
    ready: Callable[[], bool] = lambda: False,
) -> tuple[str, int] | None:
    """Poll until ``ready()`` (None) or a reason to stop: a signal, the parent gone (make
    killed outright), a child ended. Then why, and the exit status to end with."""
    while True:
        if _signals:
            return signal.Signals(_signals[0]).name, 0
        if os.getppid() != parent:
            return "the parent process has gone", 0
        for name, child in children.items():
            if child.poll() is not None:
                return f"the {name} stopped (exit status {child.returncode})", child.returncode or 1
        if ready():
            return None
        time.sleep(POLL_SECONDS)


def _stop(children: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each child's group, a grace period (cut short by another signal), then
    SIGKILL to whatever is left of each group, its leader or the worker's beat."""
    for child in children.values():
        _signal_group(child, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    signals_seen = len(_signals)
    while (
        any(child.poll() is None for child in children.values())
        and time.monotonic() < deadline
        and len(_signals) == signals_seen
    ):
        time.sleep(0.05)
    for child in children.values():
        _signal_group(child, signal.SIGKILL)
        child.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.devserver")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    started = time.monotonic()
    parent = os.getppid()
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
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    python = sys.executable
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        address = f"{args.host}:{args.port}"
        children["web server"] = _start(
            [python, "manage.py", "runserver", "--noreload", "--skip-checks", address]
        )
        # The worker starts once the web server listens: on a small machine the two
        # start-ups compete for the CPU, and the first answer is what a person waits for.
        stop = _watch(children, parent, ready=lambda: _listening(args.host, args.port))
        if stop is None:
            print(_banner(f"http://{args.host}:{args.port}/", time.monotonic() - started))
            sys.stdout.flush()
            children["worker"] = _start([python, "-m", "celery", *WORKER_ARGS])
            children["tables worker"] = _start([python, "-m", "celery", *TABLES_WORKER_ARGS])
            stop = _watch(children, parent)
        assert stop is not None  # _watch without ready() returns only to stop
        why, status = stop
        print(f"devserver: {why}; stopping {' and '.join(children)}.", file=sys.stderr)
    finally:
        _stop(children)
    return status


if __name__ == "__main__":
    sys.exit(main())
