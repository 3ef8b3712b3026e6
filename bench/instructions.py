"""The API's requests counted in CPU instructions: a figure other machines' load cannot move.

    DATABASE_URL=postgres://…/yatzy_bench REDIS_URL=redis://… python -m bench.instructions

``bench.api`` measures requests per second under wrk, as the issue's targets are set;
on a shared virtual machine those figures move by a fifth from one minute to the next
with nothing changed. This counts what the web process itself executes per request:
the same three requests (the plain Django JSON view, ``GET accounts/me/``, and play:
roll, roll, roll, score through ``play.lua``'s moves) served in one process by Django's
WSGI handler, exactly as gunicorn calls it (``DEBUG`` off, the whole middleware stack,
PostgreSQL and Redis as deployed), run under valgrind's callgrind, which counts the
instructions executed, whatever else the machine is doing. Each kind runs inside its own
call of libc's ``qsort`` on two elements, whose one comparison calls back into Python:
callgrind collects only inside glibc's ``qsort_r``, where ``qsort`` does its work
(``--toggle-collect``), and writes one count as each call returns (``--dump-after``);
the three kinds' counts are the last large ones (the interpreter's start and exit sort
a few small things too).

Not counted: the kernel's part of each system call, the time a request waits, and
PostgreSQL's and Redis's own work (``bench.api`` reports PostgreSQL's CPU), so the
ratios here are the web process's share of the story. Python's own allocator is off
under valgrind (``PYTHONMALLOC=malloc``), which makes allocation look dearer than it is;
both sides of each ratio pay it. Needs ``valgrind`` (Debian package) and a scratch
database, which it migrates and empties; a run takes a few minutes.
"""

from __future__ import annotations

import argparse
import ctypes
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.api import ME, PLAIN, SERVER_ENV, setup_players
from bench.machine import describe

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("plain", "me", "play")


def _measured_run(requests: int, warm_up: int) -> None:
    """In the process valgrind runs: set up, warm up, then each kind inside ``qsort``."""
    import django

    os.environ.update(SERVER_ENV, DJANGO_SETTINGS_MODULE="config.settings")
    django.setup()
    from django.core.handlers.wsgi import WSGIHandler

    from daily import clock

    day = clock.today()
    ((token, round_id),), _version = setup_players(1, day)
    client = _Client(WSGIHandler(), token)
    player = _Player(client, round_id, day)
    steps: dict[str, Callable[[], Any]] = {
        "plain": lambda: client.call("GET", PLAIN, auth=False),
        "me": lambda: client.call("GET", ME),
        "play": player.step,
    }
    for step in steps.values():
        for _ in range(warm_up):
            step()
    libc = ctypes.CDLL("libc.so.6")
    compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    for kind in KINDS:
        ran: list[bool] = []

        def run(_a: Any, _b: Any, kind: str = kind, ran: list[bool] = ran) -> int:
            if not ran:  # one comparison for two elements; run the kind then
                ran.append(True)
                for _ in range(requests):
                    steps[kind]()
            return 0

        pair = (ctypes.c_int * 2)(1, 2)
        libc.qsort(pair, 2, ctypes.sizeof(ctypes.c_int), compare(run))
        assert ran == [True], kind


class _Client:
    """WSGI requests to the handler, as gunicorn makes them."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.token = app, token

    def call(self, method: str, path: str, body: bytes = b"", *, auth: bool = True) -> Any:
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8765",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "127.0.0.1:8765",
            "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/json",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if auth:
            environ["HTTP_AUTHORIZATION"] = f"Token {self.token}"
        statuses: list[str] = []
        answer = self.app(environ, lambda status, headers, exc_info=None: statuses.append(status))
        data = b"".join(answer)
        answer.close()
        if not statuses[0].startswith("2"):
            raise RuntimeError(f"{method} {path}: {statuses[0]} {data[:300]!r}")
        return json.loads(data)


class _Player:
    """``bench/wrk/play.lua``'s moves: roll, roll holding dice 0 and 1, the same, then
    the open box worth most; a new practice round when one ends."""

    def __init__(self, client: _Client, round_id: str, day: Any) -> None:
        self.client, self.day = client, day
        self.state = client.call("GET", f"/api/v1/rounds/{round_id}/")

    def step(self) -> None:
        state = self.state
        path = f"/api/v1/rounds/{state['id']}/"
        if state["status"] != "in_progress":
            self.state = self.client.call("POST", f"/api/v1/daily/{self.day}/rounds/")
        elif state["roll"] < 3:
            hold = [] if state["roll"] == 0 else [0, 1]
            body = {"hold": hold, "turn": state["turn"], "roll": state["roll"]}
            self.state = self.client.call("POST", path + "roll/", json.dumps(body).encode())
        else:
            options = state["options"]
            body = {"category": max(options, key=options.get), "turn": state["turn"]}
            self.state = self.client.call("POST", path + "score/", json.dumps(body).encode())


def count(requests: int, warm_up: int) -> dict[str, float]:
    """Instructions per request of each kind, from one run under callgrind."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=qsort_r",
                "--dump-after=qsort_r",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                "bench.instructions",
                "--measured-run",
                str(requests),
                "--warm-up",
                str(warm_up),
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONMALLOC": "malloc"},
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"the measured run failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
        # One dump per qsort call, in order (out.1, out.2, …). The kinds' are the last
        # large ones: a few small sorts come before them (the interpreter's start) and
        # after (its exit).
        dumps = sorted(Path(scratch).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        counts = []
        for part in dumps:
            found = re.search(r"^(?:summary|totals): (\d+)", part.read_text(), re.M)
            counts.append(int(found.group(1)) if found else 0)
        totals = [total for total in counts if total >= 100_000 * requests][-len(KINDS) :]
    if len(totals) != len(KINDS):
        sys.exit(f"expected {len(KINDS)} counts from callgrind, got {counts}")
    return {kind: total / requests for kind, total in zip(KINDS, totals, strict=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="counted requests of each kind")
    parser.add_argument("--warm-up", type=int, default=150, help="uncounted requests of each kind")
    parser.add_argument("--measured-run", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measured_run is not None:
        _measured_run(args.measured_run, args.warm_up)
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL to a scratch PostgreSQL database (it is migrated and emptied).")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind).")
    per_request = count(args.requests, args.warm_up)
    print(f"Machine: {describe()}")
    cache = "Redis" if os.environ.get("REDIS_URL") else "memory"
    print(
        f"Instructions per request in the web process (callgrind, {args.requests} of each kind "
        f"after {args.warm_up} uncounted; cache: {cache})"
    )
    plain = per_request["plain"]
    print(f"  {'request':<28} {'instructions':>14} {'/ plain':>9}")
    labels = {
        "plain": "plain Django JSON view",
        "me": "DRF GET accounts/me/",
        "play": "play: roll/roll/roll/score",
    }
    for kind in KINDS:
        print(f"  {labels[kind]:<28} {per_request[kind]:>14,.0f} {per_request[kind] / plain:>9.2f}")
    print(
        f"\n  plain / play (the instruction count's counterpart of play / plain in requests "
        f"per second): {plain / per_request['play']:.3f}"
    )


if __name__ == "__main__":
    main()
