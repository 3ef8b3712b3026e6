"""Strategy tables in the service: the exact tables behind hints, analysis and the
expert, built by the worker and never in a request.

A request that needs a table gets it memory-mapped (one copy in the page cache for every
process on the machine). If the file is missing, the request records the need (a
``StrategyTable`` row, ``queued``) and answers 503 ``table_building`` with a
``Retry-After``; the beat job ``tables_build_due`` claims queued rows one at a time
(``UPDATE … WHERE status = 'queued'``), builds them with ``yatzy.strategy.solve`` (which
resumes an interrupted build) and records the progress as it goes, for ``/health/`` and
the admin. A worker starting queues the tables of the three rulesets' default options,
Yatzy and Yahtzee first (seconds), Maxi last (minutes).

A claim records the process that builds (``builder``: host, boot, pid and start time).
A build whose process is gone from this machine (a tables worker killed or restarted) is
queued again by the next ``tables_build_due``, which a tables worker also sends itself
when it starts, so the build resumes at once; one whose process ran elsewhere waits for
``STALE_BUILD``.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import yatzy
from accounts.models import User
from config.api_errors import ServiceError
from games.models import Round, StrategyTable
from yatzy.strategy import (
    Table,
    TableMissing,
    UnsupportedRules,
    load_table,
    solve,
    table_exists,
)
from yatzy.strategy._rules import rules_of
from yatzy.strategy.tables import table_path

logger = logging.getLogger(__name__)

# The tables a worker builds at start, in this order (the fast ones first).
DEFAULT_RULESETS = ("yatzy", "yahtzee", "maxi")
# A build whose row has not moved for this long lost its worker; it is queued again
# (sooner when its worker ran on this machine and is known to be gone).
STALE_BUILD = dt.timedelta(minutes=5)
# How often a build writes its progress to its row.
PROGRESS_EVERY_S = 2.0


class TableBuilding(ServiceError):
    """503: the table this needs is being built; retry after ``retry_after`` seconds."""

    status_code = 503
    code = "table_building"

    def __init__(
        self, message: str | Promise, *, retry_after: int, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message, params=params)
        self.retry_after = retry_after


def table_key(rs: yatzy.Ruleset) -> str:
    """The identity of a ruleset's table: its name and every option (the file's key)."""
    return rules_of(rs).key


def table_get(rs: yatzy.Ruleset) -> Table:
    """The table of ``rs``, loaded (one memory map per process); until it is built,
    503 ``table_building`` with how far its build has come. Games queue their tables
    when they start (:func:`table_request`), a worker the default ones; a table that
    nothing is building (its build failed, its file is gone, a default one never
    queued) is queued again here, so the 503 is never a wait for nothing.

    Rulesets no exact table models (``saved_rolls``), and options whose table the
    service no longer builds (``STRATEGY_TABLES_MAX_CUSTOM``), are 400 ``hint_unsupported``.
    """
    try:
        if not _is_default(rs) and not table_path(rules_of(rs)).exists():
            # A custom table an operator deleted (its file with it): this process may
            # still have it mapped, but no longer serves it.
            raise TableMissing(table_key(rs))
        return load_table(rs)
    except UnsupportedRules as exc:
        raise _unsupported() from exc
    except TableMissing:
        row = StrategyTable.objects.filter(key=table_key(rs)).first()
        if row is None and not _is_default(rs):
            # Every game queues its table when it starts: a custom table without a row
            # was removed by an operator (or refused by the quota), and nothing builds it.
            raise _customs_refused() from None
        if row is None or row.status in (StrategyTable.Status.FAILED, StrategyTable.Status.READY):
            # Nothing builds it: queue it again (a custom table's own row, so no quota).
            row = table_request(rs)
        if row is not None and row.progress:
            raise TableBuilding(
                _(
                    "The strategy table for %(ruleset)s with these options is being built "
                    "(%(percent)d%% done); try again shortly."
                ),
                params={"ruleset": rs.name, "percent": int(row.progress * 100)},
                retry_after=_retry_after(row),
            ) from None
        raise TableBuilding(
            _(
                "The strategy table for %(ruleset)s with these options is being built; "
                "try again shortly."
            ),
            params={"ruleset": rs.name},
            retry_after=_retry_after(row),
        ) from None


def _customs_refused() -> ServiceError:
    return ServiceError(
        _(
            "The server keeps no more strategy tables for other options; hints are "
            "available with the rulesets' usual options."
        ),
        code="hint_unsupported",
    )


@functools.cache
def _default_keys() -> frozenset[str]:
    return frozenset(table_key(yatzy.get_ruleset(name)) for name in DEFAULT_RULESETS)


def _is_default(rs: yatzy.Ruleset) -> bool:
    """Whether ``rs`` has a ruleset's default options (its table is always kept)."""
    return table_key(rs) in _default_keys()


def _customs() -> Any:
    """The rows of tables for other than default options."""
    return StrategyTable.objects.exclude(key__in=_default_keys())


def _unsupported() -> ServiceError:
    return ServiceError(
        _("No exact strategy exists for games with saved rolls."), code="hint_unsupported"
    )


def table_request(rs: yatzy.Ruleset, *, player: User | None = None) -> StrategyTable | None:
    """Make sure the table of ``rs`` exists or is queued; returns its row (``None`` for
    rulesets no table models: saved rolls).

    A table for other than default options counts against two quotas, checked and
    queued atomically (:func:`_customs_lock`), so concurrent requests cannot pass them:
    the player's own (``STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER`` tables first needed by
    their games; 400 ``custom_tables_quota``) and the service's
    (``STRATEGY_TABLES_MAX_CUSTOM`` in all, a Maxi table being 268 MB; 400
    ``custom_tables_full``). A table already there or queued costs no quota."""
    try:
        key = table_key(rs)
    except UnsupportedRules:
        return None
    row = StrategyTable.objects.filter(key=key).first()
    if row is None and key not in _default_keys():
        row = _custom_queue(rs, key=key, player=player)
    elif row is None:
        try:
            with transaction.atomic():
                row = StrategyTable.objects.create(key=key, ruleset=rs.name, options=rs.options)
        except IntegrityError:  # a concurrent request queued it
            row = StrategyTable.objects.get(key=key)
    elif row.status == StrategyTable.Status.FAILED or (
        row.status == StrategyTable.Status.READY and not table_exists(rs)
    ):
        # The build failed, or the file went missing: build it again.
        StrategyTable.objects.filter(pk=row.pk, status=row.status).update(
            status=StrategyTable.Status.QUEUED, states_done=0, error=""
        )
        row.refresh_from_db()
    return row


# The key of the PostgreSQL advisory lock that serialises queuing custom tables
# (an arbitrary constant: "yatzy-ct").
_CUSTOMS_LOCK = 0x7961747A792D6374


def _customs_lock() -> None:
    """Inside a transaction: hold the lock that makes counting the custom tables and
    queuing one atomic. PostgreSQL: a transaction-level advisory lock (counting rows
    under ``FOR UPDATE`` could not stop a concurrent insert); SQLite: every
    transaction already holds the database's write lock from its start (IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_CUSTOMS_LOCK])


def _custom_queue(rs: yatzy.Ruleset, *, key: str, player: User | None) -> StrategyTable:
    with transaction.atomic():
        _customs_lock()
        row = StrategyTable.objects.filter(key=key).first()
        if row is not None:  # queued by a concurrent request while we waited
            return row
        per_player: int = settings.STRATEGY_TABLES_MAX_CUSTOM_PER_PLAYER
        # Counted by who asked first, a game started or not: a new game refused with 503
        # table_building while its table is built starts on it when sent again.
        if player is not None and _customs().filter(requested_by=player).count() >= per_player:
            raise ServiceError(
                ngettext_lazy(
                    "You have already asked for %(count)d strategy table for other "
                    "options, the most one player may ask for; play with options you have "
                    "used before, or the ruleset's usual ones.",
                    "You have already asked for %(count)d strategy tables for other "
                    "options, the most one player may ask for; play with options you have "
                    "used before, or the ruleset's usual ones.",
                    "count",
                ),
                code="custom_tables_quota",
                params={"count": per_player},
            )
        limit: int = settings.STRATEGY_TABLES_MAX_CUSTOM
        if _customs().count() >= limit:
            raise ServiceError(
                _(
                    "The server keeps no more strategy tables for other options, so a game "
                    "with these options would have no hints; play with the ruleset's usual "
                    "options."
                ),
                code="custom_tables_full",
            )
        return StrategyTable.objects.create(
            key=key, ruleset=rs.name, options=rs.options, requested_by=player
        )


def table_delete(*, row: StrategyTable) -> None:
    """An operator removes a custom table: its row (the quotas count one fewer) and its
    file with its build's leftovers, so no process serves it again (:func:`table_get`
    looks for the file). Games with those options have no hints from then on (400
    ``hint_unsupported``); a new game with them queues the table again."""
    rs = yatzy.get_ruleset(row.ruleset, **row.options)
    path = table_path(rules_of(rs))
    row.delete()
    for leftover in (path, *(path.with_name(path.name + end) for end in _BUILD_FILES)):
        leftover.unlink(missing_ok=True)
    logger.info("strategy table %s deleted with its file %s", row.key, path.name)


# What a build leaves beside a table file (yatzy.strategy.tables: the partial file, its
# journal of finished layers, the build lock).
_BUILD_FILES = (".partial", ".progress", ".lock")


def table_deletable(row: StrategyTable) -> bool:
    """Whether an operator may delete the row: a custom table not being built (the
    rulesets' default tables are always kept) and that no unfinished expert game plays:
    the expert reads it on every turn, so without it that game could not go on."""
    if row.key in _default_keys() or row.status == StrategyTable.Status.BUILDING:
        return False
    experts = Round.objects.filter(
        level=Round.Level.EXPERT,
        status=Round.Status.IN_PROGRESS,
        ruleset=row.ruleset,
        options=row.options,
    )
    return not experts.exists()


def tables_queue_defaults() -> list[StrategyTable]:
    """At worker start: record the default tables, queuing those whose files are
    missing (Yatzy and Yahtzee before Maxi). Returns the queued rows."""
    queued = []
    for name in DEFAULT_RULESETS:
        rs = yatzy.get_ruleset(name)
        row, _ = StrategyTable.objects.get_or_create(
            key=table_key(rs), defaults={"ruleset": rs.name, "options": rs.options}
        )
        if table_exists(rs):
            _mark_ready(rs)
        elif row.status != StrategyTable.Status.BUILDING:
            StrategyTable.objects.filter(pk=row.pk).update(status=StrategyTable.Status.QUEUED)
            queued.append(row)
    return queued


def tables_build_due() -> list[str]:
    """Build every queued table, oldest first, one claim at a time; returns the keys
    built. Builds whose process is gone are queued again first: at once when it ran on
    this machine, after ``STALE_BUILD`` without progress when it ran elsewhere."""
    _requeue_orphaned_builds()
    StrategyTable.objects.filter(
        status=StrategyTable.Status.BUILDING, updated_at__lt=timezone.now() - STALE_BUILD
    ).update(status=StrategyTable.Status.QUEUED)
    built = []
    while (row := _claim_next()) is not None:
        _build(row)
        built.append(row.key)
    return built


# The tables this process is building now (``_build``).
_building: set[str] = set()


def _requeue_orphaned_builds() -> None:
    """Queue again the builds whose process is gone, and those this process claimed but
    no longer builds: a build the database stopped (a restart, a failover) leaves its
    row ``building`` under a process that lives on, and the job's retry must resume it
    rather than wait ``STALE_BUILD``."""
    me = this_builder()
    building = StrategyTable.objects.filter(status=StrategyTable.Status.BUILDING)
    for row in building.exclude(builder=""):
        if builder_gone(row.builder) or (row.builder == me and row.key not in _building):
            # Conditional: a row claimed again meanwhile is left to its new builder.
            requeued = building.filter(pk=row.pk, builder=row.builder).update(
                status=StrategyTable.Status.QUEUED
            )
            if requeued:
                logger.warning(
                    "strategy table %s: its builder %s is gone; queued again",
                    row.key,
                    row.builder,
                )


def _claim_next() -> StrategyTable | None:
    for row in StrategyTable.objects.filter(status=StrategyTable.Status.QUEUED)[:5]:
        claimed = StrategyTable.objects.filter(
            pk=row.pk, status=StrategyTable.Status.QUEUED
        ).update(
            status=StrategyTable.Status.BUILDING,
            started_at=timezone.now(),
            error="",
            builder=this_builder(),
        )
        if claimed:
            row.refresh_from_db()
            return row
    return None


@functools.cache
def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
    except OSError:
        return ""


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), None when none runs or the
    system has no ``/proc``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[19]  # field 22 of stat(5), counted after the command name


def this_builder() -> str:
    """This process, as a claim records it: ``host/boot/pid/start``."""
    pid = os.getpid()
    return f"{socket.gethostname()}/{_boot_id()}/{pid}/{_start_time(pid) or ''}"


def builder_gone(builder: str) -> bool:
    """Whether the process ``builder`` names is known to be gone: it ran on this host
    and either the machine has rebooted since or no process of that pid and start time
    runs. False when that cannot be told (another host, no ``/proc``)."""
    try:
        host, boot, pid, start = builder.split("/")
    except ValueError:
        return False
    if host != socket.gethostname() or not (boot and start and pid.isdecimal() and _boot_id()):
        return False
    return boot != _boot_id() or _start_time(int(pid)) != start


def _build(row: StrategyTable) -> None:
    rs = yatzy.get_ruleset(row.ruleset, **row.options)
    last = 0.0

    def record(done: int, total: int) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY_S or done == total:
            last = time.monotonic()
            StrategyTable.objects.filter(pk=row.pk).update(
                states_done=done, states_total=total, updated_at=timezone.now()
            )

    started = time.monotonic()
    _building.add(row.key)
    try:
        solve(rs, progress=False, on_progress=record)
        load_table(rs)
    except (OperationalError, InterfaceError):
        # The database went away, not the build: the job retries (config.celery) and
        # resumes it from its last finished layer (``_requeue_orphaned_builds``).
        raise
    except Exception as exc:
        StrategyTable.objects.filter(pk=row.pk).update(
            status=StrategyTable.Status.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        logger.exception("strategy table %s failed", row.key)
        raise
    finally:
        _building.discard(row.key)
    _mark_ready(rs)
    logger.info("strategy table %s ready in %.1f s", row.ruleset, time.monotonic() - started)


def _mark_ready(rs: yatzy.Ruleset) -> None:
    StrategyTable.objects.filter(key=table_key(rs)).exclude(
        status=StrategyTable.Status.READY
    ).update(
        status=StrategyTable.Status.READY,
        states_done=F("states_total"),
        finished_at=timezone.now(),
        error="",
    )


def _retry_after(row: StrategyTable | None) -> int:
    """Seconds until the table is likely ready, from its progress so far (2 to 300)."""
    if (
        row is not None
        and row.status == StrategyTable.Status.BUILDING
        and row.started_at
        and row.progress > 0.02
    ):
        elapsed = (timezone.now() - row.started_at).total_seconds()
        return int(min(300, max(2, elapsed * (1 - row.progress) / row.progress)))
    return 10


def tables_warm() -> list[str]:
    """Load what hints and the computer need before a web server forks its workers: the
    solver's compiled kernels, the Maxi state layout, and every default table already
    built (its digest checked once, a hint asked of it once). The workers then share
    those pages with the parent instead of each loading its own copy. Returns the
    rulesets whose tables were loaded."""
    from yatzy.strategy import bot_move
    from yatzy.strategy._layout import Layout

    loaded = []
    for name in DEFAULT_RULESETS:
        rs = yatzy.get_ruleset(name)
        Layout.of(rules_of(rs))
        game = yatzy.Game(rs, bytes(32))
        game.roll()
        bot_move(game, "medium")  # compiles (or loads from numba's cache) the turn kernel
        if _warm_table(rs):
            loaded.append(name)
    return loaded


def _warm_table(rs: yatzy.Ruleset) -> bool:
    """Load the table of ``rs`` if it is built, and ask it for one hint, so that the
    first hint a player asks for is as fast as the next (numba loads a kernel's
    compiled code, and Python the modules behind it, on its first call)."""
    from yatzy.strategy import best_move

    try:
        table = load_table(rs)
    except TableMissing:
        return False
    game = yatzy.Game(rs, bytes(32))
    game.roll()
    best_move(game, table=table)
    return True


# How often a web process looks for default tables finished since it started.
WATCH_EVERY_S = 5.0
_watchers: dict[int, threading.Thread] = {}
_watch_lock = threading.Lock()


def tables_watch(*, every: float = WATCH_EVERY_S) -> threading.Thread:
    """In a process that answers hints (the development server; each gunicorn worker,
    whose master warmed before forking): warm in the background now, then load each
    default table the moment its file appears (a worker builds them after the server
    started), so that no player's request pays for the load. One thread per process,
    ended once every default table is loaded; a forked child starts its own."""
    with _watch_lock:
        thread = _watchers.get(os.getpid())
        if thread is None or not thread.is_alive():
            thread = threading.Thread(
                target=_watch, args=(every,), name="tables-watch", daemon=True
            )
            _watchers[os.getpid()] = thread
            thread.start()
        return thread


def _watch(every: float) -> None:
    try:
        started = time.monotonic()
        loaded = tables_warm()
        logger.info(
            "strategy tables warm in %.1f s: %s", time.monotonic() - started, loaded or "none"
        )
        missing = [name for name in DEFAULT_RULESETS if name not in loaded]
        while missing:
            time.sleep(every)
            for name in list(missing):
                rs = yatzy.get_ruleset(name)
                # A file that is there but fails its digest is left to the request that
                # needs it (which queues a new build), not hashed again every few seconds.
                if table_exists(rs):
                    missing.remove(name)
                    if _warm_table(rs):
                        logger.info("strategy table %s loaded", name)
    except Exception:  # a failed warm costs a slow first hint, never the server
        logger.exception("warming the strategy tables failed")
