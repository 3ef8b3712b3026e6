"""A round: one player's game of one ruleset from one seed, stored as its engine state;
the share codes of friend challenges; parties of 2-4 seats; the strategy tables; the
chunks of a revealed day's analysis (skill and luck, ``games.skill``)."""

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Round(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETED = "completed", _("Completed")
        EXPIRED = "expired", _("Expired")

    class Mode(models.TextChoices):
        DAILY = "daily", pgettext_lazy("mode", "Daily")
        SOLO = "solo", pgettext_lazy("mode", "Solo")
        COMPUTER = "computer", pgettext_lazy("mode", "Computer")
        FRIEND = "friend", pgettext_lazy("mode", "Friend")
        PARTY = "party", pgettext_lazy("mode", "Party")

    class View(models.TextChoices):
        BLIND = "blind", pgettext_lazy("friend view", "Blind")
        TARGET = "target", pgettext_lazy("friend view", "Target")

    class Level(models.TextChoices):
        EASY = "easy", pgettext_lazy("level", "Easy")
        MEDIUM = "medium", pgettext_lazy("level", "Medium")
        HARD = "hard", pgettext_lazy("level", "Hard")
        EXPERT = "expert", pgettext_lazy("level", "Expert")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="rounds",
    )
    mode = models.CharField(_("mode"), max_length=16, choices=Mode.choices, default=Mode.DAILY)
    challenge = models.ForeignKey(
        "daily.Challenge",
        verbose_name=_("daily challenge"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rounds",
    )
    ranked = models.BooleanField(_("ranked"), default=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS
    )
    ruleset = models.CharField(_("ruleset"), max_length=16)
    options = models.JSONField(_("options"), default=dict)
    seed = models.BinaryField(_("seed"), max_length=32)
    # The action log is the snapshot's own (``actions``): stored once, read by
    # :attr:`actions`.
    snapshot = models.JSONField(
        _("snapshot"), default=dict, help_text=_("The engine's state after the actions.")
    )
    total = models.IntegerField(
        _("total"), null=True, blank=True, help_text=_("The final score, once completed.")
    )
    version = models.PositiveIntegerField(
        _("version"),
        default=0,
        db_default=0,
        help_text=_("Bumped by every stored action; writes are conditional on it."),
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    level = models.CharField(
        _("level"),
        max_length=8,
        choices=Level.choices,
        blank=True,
        default="",
        db_default="",
        help_text=_("The computer's level."),
    )
    opponent = models.JSONField(
        _("opponent"),
        null=True,
        blank=True,
        help_text=_("The computer's game: its engine snapshot and the log of its turns."),
    )
    share = models.ForeignKey(
        "games.ShareCode",
        verbose_name=_("friend code"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="plays",
        help_text=_("The friend challenge this round was started from."),
    )
    view = models.CharField(
        pgettext_lazy("friend view", "view"),
        max_length=8,
        choices=View.choices,
        blank=True,
        default="",
        db_default="",
    )
    party = models.ForeignKey(
        "games.Party",
        verbose_name=_("party"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    seat_name = models.CharField(
        _("seat name"), max_length=30, blank=True, default="", db_default=""
    )
    # Skill and luck (SPEC §12): stored by the analysis job once the day is revealed.
    loss = models.FloatField(
        _("loss"),
        null=True,
        blank=True,
        help_text=_("Expected points the round's decisions gave away against optimal play."),
    )
    luck = models.FloatField(
        _("luck"),
        null=True,
        blank=True,
        help_text=_("The total minus what optimal play averages, plus the loss: the dice's part."),
    )
    analysed_at = models.DateTimeField(_("analysed at"), null=True, blank=True)
    excluded_at = models.DateTimeField(
        _("excluded at"),
        null=True,
        blank=True,
        help_text=_("Set by an administrator: the round counts on no board."),
    )

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        permissions = [("exclude_round", _("Can exclude a round from the boards"))]
        indexes = [
            models.Index(fields=["challenge", "ranked", "status"]),
            models.Index(fields=["player", "-started_at"], name="round_player_newest"),
            # What the analysis job still has to do: small, it holds no analysed round.
            models.Index(
                fields=["challenge", "id"],
                condition=Q(ranked=True, status="completed", loss__isnull=True),
                name="round_unanalysed",
            ),
            # Fair play: the lowest losses of analysed ranked rounds (the admin's filter).
            models.Index(
                fields=["loss"],
                condition=Q(ranked=True, loss__isnull=False),
                name="round_ranked_loss",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "challenge"],
                condition=Q(ranked=True),
                name="round_one_ranked_per_player_per_challenge",
            ),
            models.UniqueConstraint(
                fields=["player", "challenge"],
                condition=Q(status="in_progress"),
                name="round_one_unfinished_per_player_per_challenge",
            ),
            models.CheckConstraint(
                condition=Q(ranked=False) | Q(challenge__isnull=False),
                name="round_ranked_needs_challenge",
            ),
            models.CheckConstraint(
                condition=Q(mode="daily", challenge__isnull=False)
                | (~Q(mode="daily") & Q(challenge__isnull=True)),
                name="round_daily_iff_challenge",
            ),
            models.CheckConstraint(
                condition=(Q(mode="party") & Q(party__isnull=False) & Q(seat__isnull=False))
                | (~Q(mode="party") & Q(party__isnull=True) & Q(seat__isnull=True)),
                name="round_party_has_seat",
            ),
            models.UniqueConstraint(
                fields=["party", "seat"],
                condition=Q(party__isnull=False),
                name="round_one_per_party_seat",
            ),
            models.UniqueConstraint(
                fields=["player", "share"],
                condition=Q(status="in_progress", share__isnull=False),
                name="round_one_unfinished_per_share",
            ),
            models.CheckConstraint(
                condition=(Q(mode="computer") & ~Q(level="") & Q(opponent__isnull=False))
                | (~Q(mode="computer") & Q(level="") & Q(opponent__isnull=True)),
                name="round_computer_has_opponent",
            ),
            models.CheckConstraint(
                condition=Q(status="completed", total__isnull=False, completed_at__isnull=False)
                | (~Q(status="completed") & Q(total__isnull=True)),
                name="round_total_iff_completed",
            ),
            models.CheckConstraint(
                condition=Q(loss__isnull=True, luck__isnull=True, analysed_at__isnull=True)
                | Q(
                    loss__gte=0,
                    luck__isnull=False,
                    analysed_at__isnull=False,
                    status="completed",
                ),
                name="round_skill_of_completed_rounds",
            ),
            models.CheckConstraint(
                condition=Q(excluded_at__isnull=True) | Q(ranked=True),
                name="round_only_ranked_excluded",
            ),
        ]

    def __str__(self) -> str:
        return _("%(mode)s round %(id)s") % {"mode": self.get_mode_display(), "id": self.id}

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The round's action log (``yatzy.Game.actions``), as its snapshot holds it."""
        actions: list[dict[str, Any]] = self.snapshot.get("actions", [])
        return actions


class StrategyTable(models.Model):
    """An exact strategy table the service needs (hints, analysis, the expert), and where
    its build stands. The file lives in ``YATZY_TABLES_DIR``; this row is what requests
    and operators see: a request that needs a missing table queues a row, the worker's
    ``tables_build_due`` job claims and builds it, recording its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        BUILDING = "building", _("Building")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    key = models.CharField(
        _("key"), max_length=500, unique=True, help_text=_("The ruleset and its options.")
    )
    ruleset = models.CharField(_("ruleset"), max_length=16)
    options = models.JSONField(_("options"), default=dict)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    states_done = models.BigIntegerField(_("states done"), default=0)
    states_total = models.BigIntegerField(_("states in all"), default=0)
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The player whose game first needed a table for other options (their quota)."),
    )
    # The process that claimed the build (games.tables.this_builder), so a worker can
    # tell that a build has lost its process and resume it. A database default: the
    # previous release's code inserts rows without it during a rolling deploy.
    builder = models.CharField(_("built by"), max_length=300, blank=True, db_default="")

    class Meta:
        ordering = ["requested_at"]
        verbose_name = _("strategy table")
        verbose_name_plural = _("strategy tables")

    def __str__(self) -> str:
        return _("%(ruleset)s table, %(status)s") % {
            "ruleset": self.ruleset,
            "status": self.get_status_display(),
        }

    @property
    def progress(self) -> float:
        return self.states_done / self.states_total if self.states_total else 0.0


class AnalysisChunk(models.Model):
    """A slice of a revealed day's completed ranked rounds for the analysis job: the
    rounds of ``challenge`` whose id lies in ``[first_id, next_id)`` (``next_id`` null: to
    the end). A worker claims a chunk with ``UPDATE … WHERE status = 'queued'`` (or a
    ``running`` one whose worker stopped beating), analyses its rounds one by one and
    marks it ``done``; see :mod:`games.skill`."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")

    challenge = models.ForeignKey(
        "daily.Challenge",
        verbose_name=_("daily challenge"),
        on_delete=models.CASCADE,
        related_name="analysis_chunks",
    )
    first_id = models.UUIDField(_("first round id"))
    next_id = models.UUIDField(
        _("next chunk's first round id"),
        null=True,
        blank=True,
        help_text=_("Empty for the day's last chunk."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    rounds = models.PositiveIntegerField(_("rounds"), help_text=_("Rounds when it was planned."))
    analysed = models.PositiveIntegerField(_("analysed"), default=0)
    failed = models.PositiveIntegerField(
        _("failed"), default=0, help_text=_("Rounds whose analysis raised (see the log).")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["created_at", "first_id"]
        verbose_name = _("analysis chunk")
        verbose_name_plural = _("analysis chunks")
        indexes = [models.Index(fields=["status", "created_at"], name="chunk_status_age")]

    def __str__(self) -> str:
        return _("Analysis of %(date)s from round %(first)s, %(status)s") % {
            "date": self.challenge.date.isoformat(),
            "first": self.first_id,
            "status": self.get_status_display(),
        }


class ShareCode(models.Model):
    """A friend challenge: a code for a finished round, so friends play the same dice.

    Codes are 8 characters of Crockford base32 from a CSPRNG (``games.codes``); a round
    has at most one live code, and a revoked code is gone for good (404 to everyone).
    """

    code = models.CharField(_("code"), max_length=8, unique=True)
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="shares"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("friend code")
        verbose_name_plural = _("friend codes")
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(revoked_at__isnull=True),
                name="share_one_live_code_per_round",
            )
        ]

    def __str__(self) -> str:
        return _("friend code %(code)s") % {"code": self.code}


class Party(models.Model):
    """2-4 named seats on one account, taking turns strictly in order (seat 0 turn 0,
    seat 1 turn 0, …), each seat a round on its own seed. ``version`` is bumped by every
    action, which is stored only if the party has not moved since it was read."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETED = "completed", _("Completed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        related_name="parties",
    )
    ruleset = models.CharField(_("ruleset"), max_length=16)
    options = models.JSONField(_("options"), default=dict)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.IN_PROGRESS
    )
    current_seat = models.PositiveSmallIntegerField(_("current seat"), default=0)
    version = models.PositiveIntegerField(_("version"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("party")
        verbose_name_plural = _("parties")

    def __str__(self) -> str:
        return _("party %(id)s") % {"id": self.id}


class NewGameRequest(models.Model):
    """A ``POST games/`` sent with an ``Idempotency-Key``: the game it started, so the
    same request sent again (an answer lost on the way) answers that game instead of
    starting a second one. ``fingerprint`` is what the request asked for: the key sent
    with other settings is refused. Kept as long as the game (and the player)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="new_game_requests",
    )
    key = models.CharField(_("key"), max_length=100)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, null=True, related_name="+"
    )
    party = models.ForeignKey(
        Party, verbose_name=_("party"), on_delete=models.CASCADE, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("new-game request")
        verbose_name_plural = _("new-game requests")
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="new_game_request_once"),
            models.CheckConstraint(
                condition=Q(round__isnull=True) ^ Q(party__isnull=True),
                name="new_game_request_one_game",
            ),
        ]

    def __str__(self) -> str:
        return self.key
