"""Skill and luck after the reveal (SPEC §12): the analysis of a revealed day's ranked
rounds, spread over the workers, and fair play.

Once a day is revealed, every completed ranked round of it is analysed with the exact
table, by the same computation as ``GET rounds/{id}/analysis/``
(:func:`games.selectors.round_analysis`), and stores

- ``loss``: the expected points its decisions gave away against optimal play (≥ 0);
- ``luck``: ``total - start + loss``, ``start`` being the table's expected score of the
  empty card, so that ``total = start - loss + luck``.

The work is cut into chunks (:class:`~games.models.AnalysisChunk`: the day's rounds in
ranges of ids). A worker claims a chunk with a conditional ``UPDATE … WHERE status =
'queued'`` (or a ``running`` chunk whose worker has not beaten for ``SKILL_STALE_SECONDS``:
it died), analyses its rounds one at a time, each stored with ``UPDATE … WHERE loss IS
NULL`` (so a round is never analysed twice, even by two workers that both believe they
own its chunk), beating on the chunk after each, and marks it ``done``. There is no
result backend: the database is the state. The messages name no chunk (``relays``):
each claims whatever chunk is next and, while claimable chunks remain, sends its
successor, so ``SKILL_RELAYS`` messages circulate at a time, on the ``analysis`` queue.

The beat job (:func:`analyses_due`, every minute) plans each revealed day that has
completed ranked rounds without a loss, and starts the relays again whenever claimable
work has not moved for ``SKILL_STALE_SECONDS`` (the first time, and after the messages
were lost: the filesystem broker drops a message in flight, Redis redelivers only after
its visibility timeout). While the day's table is not built the job waits: nothing is
claimed and nothing fails; the next sweep after the build starts it.

Every analysed ranked round owes its boards an update (``games.hooks.ranked_round_analysed``,
the decisions boards: ``leaderboards``), in the transaction that stores it.

Fair play: an analysed ranked round whose loss is below ``FAIR_PLAY_LOSS`` is flagged
for review (:func:`flagged`); an administrator may exclude a ranked round from
every board (:func:`round_exclude`, the reason kept in the admin log) and reinstate it
(:func:`round_reinstate`); an excluded round counts nowhere, like a deleted one.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from dataclasses import dataclass
from uuid import UUID

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q, QuerySet, Sum
from django.utils import timezone

import yatzy
from daily import clock
from daily.models import Challenge
from games import hooks, selectors, tables
from games.models import AnalysisChunk, Round

logger = logging.getLogger(__name__)


def _stale() -> dt.timedelta:
    return dt.timedelta(seconds=settings.SKILL_STALE_SECONDS)


def _now() -> dt.datetime:
    return timezone.now()


# -- one round ------------------------------------------------------------------------


def rounds_unanalysed() -> QuerySet[Round]:
    """Completed ranked rounds without a loss (the partial index ``round_unanalysed``)."""
    return Round.objects.filter(ranked=True, status=Round.Status.COMPLETED, loss__isnull=True)


def round_skill_store(*, rnd: Round) -> bool:
    """Analyse a completed round of a revealed day and store its ``loss`` and ``luck``,
    unless it has them already; a ranked round then owes its boards an update, in the
    same transaction. Returns whether this call stored them. Raises
    :class:`games.tables.TableBuilding` while the table is missing (nothing stored)."""
    analysis = selectors.round_analysis(rnd)
    assert rnd.total is not None  # analysis refuses a round in progress
    loss = analysis["loss"]
    luck = round(rnd.total - analysis["expected_start"] + loss, 4)
    with transaction.atomic():
        stored = Round.objects.filter(
            pk=rnd.pk, status=Round.Status.COMPLETED, loss__isnull=True
        ).update(loss=loss, luck=luck, analysed_at=_now())
        if stored and rnd.ranked:
            hooks.ranked_round_analysed(round_id=rnd.pk)
    return bool(stored)


# -- planning a day ---------------------------------------------------------------------


def day_table_ready(challenge: Challenge) -> bool:
    """Whether the day's table is built; if not, make sure it is queued (the job waits)."""
    rs = yatzy.get_ruleset(challenge.ruleset, **challenge.options)
    tables.table_request(rs)
    try:
        tables.table_get(rs)
    except tables.TableBuilding:
        return False
    return True


def day_plan(*, day: dt.date, retry_failed: bool = False) -> int:
    """Cut a revealed day's completed ranked rounds that have no loss yet into queued
    chunks of ``SKILL_CHUNK_ROUNDS``, unless chunks of the day are still open (planned
    under the challenge's row lock, so two planners never cover a round twice). Rounds
    whose analysis raised are tried again only with ``retry_failed`` (``analyse_day``),
    not by every sweep. Returns how many chunks it made."""
    if not clock.is_revealed(day):
        return 0
    size: int = settings.SKILL_CHUNK_ROUNDS
    with transaction.atomic():
        challenge = Challenge.objects.select_for_update().filter(date=day).first()
        if challenge is None:
            return 0
        chunks = AnalysisChunk.objects.filter(challenge=challenge)
        if chunks.exclude(status=AnalysisChunk.Status.DONE).exists():
            return 0
        left = rounds_unanalysed().filter(challenge=challenge)
        failed = chunks.aggregate(n=Sum("failed"))["n"] or 0
        if not retry_failed and failed and left.count() <= failed:
            return 0
        ids = left.order_by("id").values_list("id", flat=True).iterator(chunk_size=10_000)
        firsts: list[UUID] = []
        count = 0
        for n, round_id in enumerate(ids):
            if n % size == 0:
                firsts.append(round_id)
            count = n + 1
        ends: list[UUID | None] = [*firsts[1:], None]
        AnalysisChunk.objects.bulk_create(
            AnalysisChunk(
                challenge=challenge,
                first_id=first,
                next_id=end,
                rounds=min(size, count - n * size),
            )
            for n, (first, end) in enumerate(zip(firsts, ends, strict=True))
        )
    if firsts:
        logger.info("analysis of %s: %d rounds in %d chunks", day, count, len(firsts))
    return len(firsts)


# -- claiming and running chunks --------------------------------------------------------


def _claimable(now: dt.datetime) -> Q:
    return Q(status=AnalysisChunk.Status.QUEUED) | Q(
        status=AnalysisChunk.Status.RUNNING, updated_at__lt=now - _stale()
    )


def chunks_claimable(*, day: dt.date | None = None) -> QuerySet[AnalysisChunk]:
    """Chunks a worker may claim: queued ones, and running ones whose worker stopped
    beating (``SKILL_STALE_SECONDS``), oldest first."""
    chunks = AnalysisChunk.objects.filter(_claimable(_now()))
    if day is not None:
        chunks = chunks.filter(challenge__date=day)
    return chunks.order_by("created_at", "first_id")


def chunk_claim(*, day: dt.date | None = None) -> AnalysisChunk | None:
    """Claim the next claimable chunk with a conditional ``UPDATE`` (of workers racing
    for one chunk exactly one wins; the others try the next), or ``None``."""
    while True:
        candidates = list(chunks_claimable(day=day).values_list("pk", flat=True)[:8])
        if not candidates:
            return None
        random.shuffle(candidates)  # racing workers spread over the oldest few
        for pk in candidates:
            now = _now()
            claimed = AnalysisChunk.objects.filter(_claimable(now), pk=pk).update(
                status=AnalysisChunk.Status.RUNNING, claimed_at=now, updated_at=now
            )
            if claimed:
                return AnalysisChunk.objects.select_related("challenge").get(pk=pk)


def _chunk_rounds(chunk: AnalysisChunk) -> QuerySet[Round]:
    rounds = rounds_unanalysed().filter(challenge=chunk.challenge_id, id__gte=chunk.first_id)
    if chunk.next_id is not None:
        rounds = rounds.filter(id__lt=chunk.next_id)
    return rounds.select_related("challenge").order_by("id")


class _TakenOver(Exception):
    """Another worker claimed the chunk while this one analysed a round of it."""


def chunk_run(chunk: AnalysisChunk) -> bool:
    """Analyse the rounds of a chunk this worker has claimed, beating on the chunk after
    each, and mark it done. Stops early, leaving the chunk to the next claim, if the
    table is missing or another worker has taken the chunk over (this one was judged
    dead). Returns whether the chunk is done."""
    mine = AnalysisChunk.objects.filter(
        pk=chunk.pk, status=AnalysisChunk.Status.RUNNING, claimed_at=chunk.claimed_at
    )
    if not day_table_ready(chunk.challenge):
        mine.update(status=AnalysisChunk.Status.QUEUED, updated_at=_now())
        return False
    for rnd in _chunk_rounds(chunk):
        try:
            # The chunk's count moves with the store, in one transaction: a worker killed
            # between two commits would leave a round analysed but never counted, and a
            # chunk taken over meanwhile leaves the round to its new owner.
            with transaction.atomic():
                stored = round_skill_store(rnd=rnd)
                if not mine.update(analysed=F("analysed") + int(stored), updated_at=_now()):
                    raise _TakenOver
        except _TakenOver:
            logger.warning("analysis chunk %s was taken over by another worker", chunk.pk)
            return False
        except tables.TableBuilding:  # the file went missing under us
            mine.update(status=AnalysisChunk.Status.QUEUED, updated_at=_now())
            return False
        except (OperationalError, InterfaceError):
            raise  # the database is away: the job retries (config.celery), the chunk waits
        except Exception:
            # One bad round must not hold up the day: it stays without a loss, counted
            # as failed (the sweep does not try it again; `analyse_day` does).
            logger.exception("analysis of round %s failed", rnd.pk)
            if not mine.update(failed=F("failed") + 1, updated_at=_now()):
                return False
            continue
    return bool(mine.update(status=AnalysisChunk.Status.DONE, updated_at=_now()))


def chunk_analyse_next(*, day: dt.date | None = None) -> AnalysisChunk | None:
    """Claim the next chunk and analyse it; ``None`` when there is nothing to claim or
    its table is missing."""
    chunk = chunk_claim(day=day)
    if chunk is None or not chunk_run(chunk):
        return None
    return chunk


# -- the sweep --------------------------------------------------------------------------


def analyses_due() -> int:
    """The beat job: plan every revealed day that has completed ranked rounds without a
    loss (and whose table is built), then say how many relays to start: ``SKILL_RELAYS``
    when there is claimable work and no chunk has moved for ``SKILL_STALE_SECONDS``
    (never started, or the messages were lost), else 0."""
    pending = (
        rounds_unanalysed()
        .filter(challenge__date__lte=clock.last_revealed_day())
        .order_by()
        .values_list("challenge_id", flat=True)
        .distinct()
    )
    for challenge in Challenge.objects.filter(pk__in=list(pending)).order_by("date"):
        if day_table_ready(challenge):
            day_plan(day=challenge.date)
        else:
            logger.info("analysis of %s waits for its strategy table", challenge.date)
    now = _now()
    claimable = [chunk.challenge for chunk in chunks_claimable().select_related("challenge")[:1]]
    if not claimable or not day_table_ready(claimable[0]):
        return 0
    moved = AnalysisChunk.objects.filter(
        status__in=[AnalysisChunk.Status.RUNNING, AnalysisChunk.Status.DONE],
        updated_at__gte=now - _stale(),
    ).exists()
    return 0 if moved else int(settings.SKILL_RELAYS)


@dataclass(frozen=True)
class DayAnalysis:
    """How far a day's analysis has come."""

    rounds: int
    analysed: int

    @property
    def done(self) -> bool:
        return self.analysed == self.rounds


def day_analysis(*, day: dt.date) -> DayAnalysis:
    """The completed ranked rounds of ``day`` and how many of them are analysed."""
    rounds = Round.objects.filter(
        challenge__date=day, ranked=True, status=Round.Status.COMPLETED
    ).order_by()
    total = rounds.count()
    return DayAnalysis(rounds=total, analysed=total - rounds.filter(loss__isnull=True).count())


def day_analysed(*, day: dt.date) -> bool:
    """Whether every completed ranked round of a revealed day has its loss (one probe
    of the small ``round_unanalysed`` index)."""
    return clock.is_revealed(day) and not rounds_unanalysed().filter(challenge__date=day).exists()


# -- fair play --------------------------------------------------------------------------


def flagged() -> Q:
    """Analysed ranked rounds that lost fewer expected points than ``FAIR_PLAY_LOSS`` and
    are not excluded: the admin's list for review."""
    return Q(ranked=True, loss__lt=settings.FAIR_PLAY_LOSS, excluded_at__isnull=True)


def round_exclude(*, rnd: Round) -> bool:
    """Take a ranked round off every board (an administrator's decision, its reason kept
    in the admin log): its player's lines are recomputed without it in the same
    transaction, as for a deleted round, streaks and advent included. Returns whether it
    was counting until now."""
    return _recount(rnd, Round.objects.filter(excluded_at__isnull=True), excluded_at=_now())


def round_reinstate(*, rnd: Round) -> bool:
    """Count an excluded round again; returns whether it was excluded."""
    return _recount(rnd, Round.objects.filter(excluded_at__isnull=False), excluded_at=None)


def _recount(rnd: Round, rounds: QuerySet[Round], *, excluded_at: dt.datetime | None) -> bool:
    if not rnd.ranked or rnd.challenge is None:
        return False
    with transaction.atomic():
        changed = rounds.filter(pk=rnd.pk, ranked=True).update(excluded_at=excluded_at)
        if changed:
            hooks.ranked_round_recounted(player_id=rnd.player_id, day=rnd.challenge.date)
    rnd.excluded_at = excluded_at if changed else rnd.excluded_at
    return bool(changed)
