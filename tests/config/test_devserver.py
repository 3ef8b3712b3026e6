"""``make run`` (config/devserver.py) as a newcomer runs it, on a database and a broker
of its own: the front page and /health/ answer, the worker included, each 4xx is one log
line; one signal stops the web server, the worker and the beat, whoever gets it; a port
in use is refused up front; a worker or tables worker that stops is started again with
a growing delay while the web server serves, and a tables worker killed in the middle of
a build has it resumed at once; the web server's end ends the run, and so does the
supervisor's, even in the middle of a build."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from reliability.embedded import descendants as _descendants
from reliability.embedded import embedded_env
from reliability.embedded import running as _running
from tests.live.conftest import ROOT, free_port, wait_for

pytestmark = [
    pytest.mark.live,
    pytest.mark.embedded_stack,
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)"),
]


@dataclass
class MakeRun:
    make: subprocess.Popen[bytes]
    url: str
    log: Path
    var: Path
    processes: dict[int, str] = field(default_factory=dict)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_healthy(self) -> dict:
        """Wait for /health/ to pass, the worker included; note the processes then."""

        def healthy():
            assert self.make.poll() is None, self.output()[-3000:]
            try:
                response = httpx.get(f"{self.url}/health/?format=json", timeout=5)
            except httpx.TransportError:
                return None
            return response.json() if response.status_code == 200 else None

        body = wait_for(healthy, timeout=90, interval=0.25)
        self.processes = _descendants(self.make.pid)
        return body


@pytest.fixture
def make_run(tmp_path, request) -> Iterator[MakeRun]:
    # Only the test of the table builds lets them run (a Maxi build is minutes of CPU).
    build = getattr(request, "param", "false")
    env = embedded_env(os.environ, tmp_path, STRATEGY_TABLES_BUILD_AT_START=build)
    port = free_port()
    log = tmp_path / "make-run.log"
    with log.open("wb") as out:
        make = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, like a terminal's job
        )
    run = MakeRun(make=make, url=f"http://127.0.0.1:{port}", log=log, var=tmp_path / "var")
    yield run
    # Whatever a failed test left behind.
    for pid in [make.pid, *run.processes]:
        if _running(pid):
            os.kill(pid, signal.SIGKILL)
    make.wait()


def test_make_run_serves_the_front_page_and_reports_a_healthy_worker(make_run):
    body = make_run.wait_until_healthy()
    assert body["WorkerHeartbeat()"] == "OK"  # the embedded broker's worker check
    assert all(value == "OK" for value in body.values()), body

    page = httpx.get(f"{make_run.url}/")
    assert page.status_code == 200
    assert 'data-status="anonymous"' in page.text  # today's daily, for a visitor
    stylesheet = re.search(r'<link rel="stylesheet" href="(/static/[^"]+)"', page.text)
    assert stylesheet is not None
    css = httpx.get(f"{make_run.url}{stylesheet.group(1)}")  # static files are served
    assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css")
    # A path a browser would have normalised, sent as it is: runserver's own static
    # handler raised SuspiciousFileOperation on it (a 500); WhiteNoise refuses it.
    assert _raw_status(make_run.url, "/static/../manage.py") in (400, 404)

    assert httpx.get(f"{make_run.url}/api/v1/nothing/").status_code == 404
    # The next request's access line comes after any line the 404 would have had.
    httpx.get(f"{make_run.url}/?after-the-404")
    wait_for(lambda: "GET /?after-the-404" in make_run.output())
    output = make_run.output()
    lines = [line for line in output.splitlines() if "/api/v1/nothing/" in line]
    assert len(lines) == 1 and "WARNING django.request" in lines[0], lines
    assert "No hostname was supplied" not in output


def _raw_status(url: str, path: str) -> int:
    """The status of a GET of ``path`` exactly as written (httpx would remove ``..``)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        status_line = connection.makefile("rb").readline()
    return int(status_line.split()[1])


def _signal_make(run: MakeRun, how: str) -> None:
    match how:
        case "SIGTERM to make":
            os.kill(run.make.pid, signal.SIGTERM)
        case "SIGINT to its process group":  # what Ctrl-C in a terminal does
            os.killpg(run.make.pid, signal.SIGINT)
        case "SIGKILL to make":  # nothing is forwarded: the supervisor sees its parent go
            os.kill(run.make.pid, signal.SIGKILL)


@pytest.mark.parametrize(
    "how", ["SIGTERM to make", "SIGINT to its process group", "SIGKILL to make"]
)
def test_one_signal_stops_the_server_the_worker_and_the_beat(make_run, how):
    make_run.wait_until_healthy()
    commands = list(make_run.processes.values())
    assert any("manage.py runserver" in command for command in commands), commands
    # The worker and its beat (titled "[celeryd: …]" and "[celery beat]" with setproctitle).
    assert sum("celery" in command for command in commands) >= 2, commands

    _signal_make(make_run, how)
    # A warm Celery shutdown takes a few seconds: the worker notices at its next poll.
    wait_for(lambda: not any(_running(pid) for pid in make_run.processes), timeout=20)
    make_run.make.wait(timeout=5)


@pytest.mark.parametrize("make_run", ["true"], indirect=True)
def test_make_run_builds_the_fast_tables_at_once_and_maxi_in_the_background(make_run, tmp_path):
    make_run.wait_until_healthy()
    tables = tmp_path / "tables"

    def built(name: str) -> bool:
        return len(list(tables.glob(f"{name}-*.v1.table"))) == 1

    wait_for(lambda: built("yatzy") and built("yahtzee"), timeout=180, interval=1)
    # Then Maxi's (minutes): its partial file shows the build under way.
    wait_for(lambda: list(tables.glob("maxi-*.partial")), timeout=120, interval=1)
    assert httpx.get(f"{make_run.url}/health/?format=json").status_code == 200

    # The tables worker killed in the middle of it: the one started again resumes the
    # build at once, not STALE_BUILD (5 minutes) later.
    [killed] = _find(make_run, "celeryd: tables@")
    status, builder = _maxi_build(tmp_path)
    assert status == "building" and builder.split("/")[2] == str(killed)
    os.kill(killed, signal.SIGKILL)
    [new] = wait_for(lambda: [pid for pid in _find(make_run, "celeryd: tables@") if pid != killed])
    wait_for(lambda: _maxi_build(tmp_path)[1].split("/")[2] == str(new), timeout=60, interval=1)
    assert _maxi_build(tmp_path)[0] == "building"
    assert "its builder" in make_run.output() and "is gone; queued again" in make_run.output()

    # The supervisor killed outright, in the middle of the build: nothing outlives it.
    # (The tables worker got SIGTERM, whose warm shutdown finished the build first: it
    # ran on for minutes.)
    processes = _descendants(make_run.make.pid)
    [supervisor] = [pid for pid, command in processes.items() if "config.devserver" in command]
    os.kill(supervisor, signal.SIGKILL)
    wait_for(lambda: not any(_running(pid) for pid in processes), timeout=20)
    assert _maxi_build(tmp_path)[0] == "building"  # resumed by the next run's worker


def _maxi_build(tmp_path: Path) -> tuple[str, str]:
    """The Maxi table's build state and builder, read from the run's database."""
    with contextlib.closing(sqlite3.connect(tmp_path / "db.sqlite3", timeout=20)) as db:
        return db.execute(
            "SELECT status, builder FROM games_strategytable WHERE ruleset = 'maxi'"
        ).fetchone()


def test_a_port_in_use_is_refused_before_anything_starts():
    # Else the other server's answers would read as this one being ready.
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "config.devserver", "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert f"127.0.0.1:{port} is in use" in result.stderr


@pytest.mark.parametrize("port", ["99999", "-1", "0", "abc"])
def test_a_port_outside_1_to_65535_is_refused_naming_it(port):
    """PORT=99999 or PORT=-1 stopped ``make run`` with a bare OverflowError traceback
    from the port-in-use check; PORT=0 had runserver pick a port the readiness check
    never found."""
    result = subprocess.run(
        [sys.executable, "-m", "config.devserver", "--port", port],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert "argument --port" in result.stderr
    assert "Traceback" not in result.stderr


def test_two_runs_started_at_once_on_a_fresh_database_both_migrate_it(tmp_path):
    """A second ``make run`` started beside the first on the same fresh SQLite file (a
    second terminal, another port) stopped on a migration traceback, ``table
    "django_admin_log" already exists``: both applied the same migrations at once. The
    second now waits for the first's migrations and finds them applied."""
    env = embedded_env(os.environ, tmp_path)
    prepare = "import config.devserver as d; d._prepare()"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", prepare],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=180)[0].decode(errors="replace") for run in runs]
    for run, output in zip(runs, outputs, strict=True):
        assert run.returncode == 0, output[-3000:]
        assert "Daily challenges ready" in output


# A supervisor over stand-in children (no Django): a web server that serves and a worker
# that fails as soon as it starts.
SUPERVISED = """
import sys
from config import devserver
port = int(sys.argv[1])
serve = [sys.executable, "-m", "http.server", "-b", "127.0.0.1", str(port)]
web = devserver.Child("web server", serve)
worker = devserver.Child("worker", [sys.executable, "-c", sys.argv[2]], restart=True)
sys.exit(devserver.supervise(web, [worker], lambda: devserver._listening("127.0.0.1", port)))
"""


@dataclass
class Supervised:
    process: subprocess.Popen[bytes]
    url: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def supervised(tmp_path) -> Iterator[Callable[[str], Supervised]]:
    started: list[Supervised] = []

    def start(worker_code: str) -> Supervised:
        port = free_port()
        log = tmp_path / f"supervised-{len(started)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-c", SUPERVISED, str(port), worker_code],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started.append(Supervised(process, f"http://127.0.0.1:{port}", log))
        return started[-1]

    yield start
    for run in started:
        if run.process.poll() is None:
            os.killpg(run.process.pid, signal.SIGKILL)
            run.process.wait()


def test_a_worker_that_keeps_failing_is_restarted_with_a_growing_delay(supervised):
    run = supervised("import sys; sys.exit(3)")
    wait_for(lambda: run.output().count("starting it again") >= 4, timeout=60)
    delays = re.findall(
        r"the worker stopped \(exit status 3\) after \d+ s; starting it again in (\d+) s",
        run.output(),
    )
    assert delays[:4] == ["1", "2", "4", "8"], run.output()
    # Meanwhile the web server serves, and the run goes on.
    assert httpx.get(run.url).status_code == 200
    assert run.process.poll() is None
    os.kill(run.process.pid, signal.SIGTERM)
    assert run.process.wait(timeout=20) == 0


def test_the_end_of_the_web_server_ends_the_run_and_stops_the_worker(supervised):
    run = supervised("import time; time.sleep(600)")
    wait_for(lambda: httpx.get(run.url).status_code == 200 if _answers(run.url) else None)

    def running(marker: str) -> list[int]:
        return [p for p, command in _descendants(run.process.pid).items() if marker in command]

    # The supervisor starts the worker once the web server listens, so it may come later.
    workers = wait_for(lambda: running("sleep(600)"))
    web = running("http.server")
    assert len(workers) == 1 and len(web) == 1
    os.kill(web[0], signal.SIGKILL)
    assert run.process.wait(timeout=20) == 128 + signal.SIGKILL
    assert (
        "the web server stopped (killed by SIGKILL); stopping web server and worker" in run.output()
    )
    assert not _running(workers[0])


def _answers(url: str) -> bool:
    try:
        httpx.get(url, timeout=2)
    except httpx.TransportError:
        return False
    return True


def _find(run: MakeRun, title: str) -> list[int]:
    """The processes under ``make run`` whose command line (or title) has ``title``."""
    return [pid for pid, command in _descendants(run.make.pid).items() if title in command]


def _one(run: MakeRun, title: str, besides: int | None = None) -> list[int] | None:
    """The one process titled ``title`` (other than ``besides``), or None while there
    is none or more than one."""
    found = [pid for pid in _find(run, title) if pid != besides]
    return found if len(found) == 1 else None


@pytest.mark.parametrize(
    ("child", "title"), [("worker", "celeryd: celery@"), ("tables worker", "celeryd: tables@")]
)
def test_a_killed_worker_is_started_again_while_the_web_server_serves(make_run, child, title):
    make_run.wait_until_healthy()
    # A worker is healthy before the other one has set its title, and the embedded beat's
    # process carries its worker's title from the fork until it sets its own: wait until
    # each title names exactly one process.
    [old] = wait_for(lambda: _one(make_run, title), timeout=60)
    beats = wait_for(lambda: _one(make_run, "celery beat"), timeout=60)
    os.kill(old, signal.SIGKILL)
    wait_for(lambda: f"the {child} stopped (killed by SIGKILL)" in make_run.output(), timeout=20)
    # The web server answers all the while.
    assert httpx.get(f"{make_run.url}/").status_code == 200
    new = wait_for(lambda: _one(make_run, title, besides=old), timeout=60)
    assert len(new) == 1 and f"started the {child} again" in make_run.output()
    if child == "worker":
        # Jobs run again: the heartbeat, which only this worker runs, is fresh after the
        # kill; the killed worker's beat went with it, and the new worker's is the one.
        heartbeat = make_run.var / "celery-broker" / "worker-heartbeat"
        killed_at = time.time()
        wait_for(lambda: heartbeat.stat().st_mtime > killed_at, timeout=90, interval=0.5)
        wait_for(lambda: _find(make_run, "celery beat") not in ([], beats), timeout=30)
    else:
        # The new tables worker takes the table builds' job at once.
        restarted = make_run.output().index("started the tables worker again")
        wait_for(
            lambda: re.search(
                r"games.tasks.tables_build_due\[[^]]+\] succeeded", make_run.output()[restarted:]
            ),
            timeout=60,
        )
    assert len(_find(make_run, "celery beat")) == 1
    assert make_run.make.poll() is None
