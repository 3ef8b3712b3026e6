"""gunicorn settings for the web process. Everything can be overridden from the
environment (``GUNICORN_CMD_ARGS`` or the variables below)."""

import logging.config
import multiprocessing
import os
from typing import Any

from gunicorn import glogging, util


def _whole(name: str, default: int, minimum: int) -> int:
    """A whole number of at least ``minimum``. WEB_CONCURRENCY=0 listened and started no
    worker, so every request waited until the client gave up, and the start looked fine;
    GUNICORN_TIMEOUT=30s stopped the start with a bare traceback."""
    raw = os.environ.get(name, "").strip() or str(default)
    if not raw.isdigit() or int(raw) < minimum:
        raise SystemExit(f"{name} must be a whole number of at least {minimum}, not {raw!r}.")
    return int(raw)


def _loglevel() -> str:
    """gunicorn took any other word (``verbose``, ``warn``) as ``info`` without a word."""
    raw = os.environ.get("GUNICORN_LOGLEVEL", "").strip() or "info"
    if raw.lower() not in {"debug", "info", "warning", "error", "critical"}:
        raise SystemExit(
            f"GUNICORN_LOGLEVEL must be debug, info, warning, error or critical, not {raw!r}."
        )
    return raw.lower()


def _bind() -> str:
    """gunicorn stopped on a bare traceback for a port out of range or not a number
    (OverflowError, RuntimeError), and port 0 listened on a port nobody knew."""
    raw = os.environ.get("GUNICORN_BIND", "").strip() or "0.0.0.0:8000"
    try:
        address = util.parse_address(raw)
    except RuntimeError:
        address = None
    if address is None or (isinstance(address, tuple) and not 0 < address[1] <= 65535):
        raise SystemExit(
            "GUNICORN_BIND must be HOST:PORT with a port from 1 to 65535, unix:PATH or "
            f"fd://N, not {raw!r}."
        )
    return raw


bind = _bind()
# Sync workers: each request holds one database connection for its whole life, and the
# work per request is short (a few queries and the engine), so 2 x cores + 1 keeps the
# CPUs busy while some workers wait on PostgreSQL.
workers = _whole("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1, minimum=1)
# gunicorn's sync worker, whose own error answers (a request it cannot parse, one its
# worker timeout ended) are the API's JSON error shape under /api/.
worker_class = "config.gunicorn_worker.ApiErrorsWorker"
# 0: gunicorn never restarts a worker stuck in one request.
timeout = _whole("GUNICORN_TIMEOUT", 30, minimum=0)
graceful_timeout = 30
keepalive = 5
# Import the app once in the master: workers fork ready to serve, so the periodic
# recycling below costs milliseconds instead of a second of imports per worker.
preload_app = True
# No control socket (gunicorn 25+ opens one for gunicornc at $XDG_RUNTIME_DIR/gunicorn.ctl
# or ~/.gunicorn/gunicorn.ctl, from a thread in the master): nothing here uses it, and
# masters under one user on one host (bench.api --processes, the tests' stacks) shared
# that one path, each taking it from the one before and removing it at its stop.
control_socket_disable = True
max_requests = 5000
max_requests_jitter = 500
accesslog = os.environ.get("GUNICORN_ACCESSLOG", None)
errorlog = "-"
loglevel = _loglevel()
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


class ServiceLogger(glogging.Logger):
    """gunicorn's own lines (its start, each worker booted, a worker timed out or
    exiting) through the service's log handler (config/settings.py, LOGGING), so with
    LOG_FORMAT=json they are JSON lines like every other: in gunicorn's text format they
    broke a JSON log pipeline (docs/operations.md, Logs). Access lines, when
    GUNICORN_ACCESSLOG is ``-``, go the same way (to stderr); either log to a file keeps
    gunicorn's handler, and with GUNICORN_ACCESSLOG unset there are no access lines.
    (gunicorn's ``logconfig_dict`` would do the first part, but turns access lines on for
    every request whatever GUNICORN_ACCESSLOG says.)"""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        from django.conf import settings

        logging.config.dictConfig(settings.LOGGING)
        # A log to a file (GUNICORN_CMD_ARGS' --error-logfile, GUNICORN_ACCESSLOG=path)
        # keeps gunicorn's handler and format.
        logs = [(self.error_log, cfg.errorlog), (self.access_log, cfg.accesslog)]
        for log in [log for log, output in logs if output == "-"]:
            for handler in [h for h in log.handlers if getattr(h, "_gunicorn", False)]:
                log.removeHandler(handler)
            log.propagate = True


logger_class = ServiceLogger


def when_ready(server: object) -> None:
    """Before the workers fork (the app is preloaded): load the strategy machinery once
    in the master, so every worker shares it instead of loading its own ~90 MB."""
    import gc

    from games.tables import tables_warm

    tables_warm()
    # Everything the master holds now is shared with the workers it forks. A worker's
    # full garbage collection writes to every object it scans, copying those pages into
    # the worker (about 40 MB each); frozen objects are never scanned (docs/benchmarks.md).
    gc.freeze()


def post_worker_init(worker: object) -> None:
    """In each worker: load the default tables built since the master warmed (a worker
    process builds Maxi minutes after start), before a player's hint needs them."""
    from games.tables import tables_watch

    tables_watch()
