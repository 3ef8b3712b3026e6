"""The fault schedule: take one dependency away at a time while the players keep
playing, bring it back, and note what the clients saw meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from reliability.player import Tally
from reliability.stack import Stack, wait_until

KINDS = ("redis", "worker", "postgres", "web")


@dataclass
class FaultRecord:
    kind: str
    at_s: float  # seconds since the players started
    down_s: float
    answers: int = 0  # HTTP responses received between the stop and the recovery
    unavailable_503: int = 0
    transport_errors: int = 0
    server_errors: int = 0


def _counts(tally: Tally) -> tuple[int, int, int, int]:
    return (
        sum(tally.statuses.values()),
        tally.statuses.get(503, 0),
        sum(tally.transport_errors.values()),
        tally.errors(),
    )


def inject(stack: Stack, kind: str, outage_s: float, tally: Tally) -> FaultRecord:
    """Stop ``kind``, keep it down ``outage_s`` seconds, restart it and wait until it
    answers again. Returns what the clients saw from the stop to the recovery."""
    stop, start = _actions(stack, kind)
    before = _counts(tally)
    began = time.monotonic()
    stop()
    time.sleep(outage_s)
    start()
    record = FaultRecord(
        kind=kind,
        at_s=round(began - tally.started, 1),
        down_s=round(time.monotonic() - began, 1),
    )
    after = _counts(tally)
    (
        record.answers,
        record.unavailable_503,
        record.transport_errors,
        record.server_errors,
    ) = (b - a for a, b in zip(before, after, strict=True))
    return record


def _actions(stack: Stack, kind: str) -> tuple[Callable[[], None], Callable[[], None]]:
    if kind == "redis":
        return stack.redis.stop, stack.redis.start
    if kind == "worker":
        return stack.kill_worker, stack.start_worker
    if kind == "postgres":

        def start_postgres() -> None:
            stack.postgres.start()
            wait_until(stack.postgres.is_running, 30, "postgres")

        # Immediate: the server dies without a checkpoint and recovers from its WAL on
        # start, like a crash; every open connection breaks mid-transaction.
        return lambda: stack.postgres.stop("immediate"), start_postgres
    if kind == "web":
        # gunicorn's master replaces its killed workers; requests in flight are cut
        # off, some after their commit: the clients retry into a 409 and resync.
        return stack.kill_web_workers, stack.wait_web
    raise ValueError(f"unknown fault {kind!r}; one of {', '.join(KINDS)}")


def run_schedule(
    stack: Stack, tally: Tally, *, kinds: list[str], outage_s: float, gap_s: float
) -> list[FaultRecord]:
    """Healthy load for ``gap_s``, then each fault in turn with ``gap_s`` between."""
    records = []
    for kind in kinds:
        time.sleep(gap_s)
        records.append(inject(stack, kind, outage_s, tally))
    time.sleep(gap_s)
    return records
