"""A round: one player's game of one ruleset from one seed, stored as its engine state;
the share codes of friend challenges; parties of 2-4 seats; the strategy tables."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class Round(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        COMPLETED = "completed"
        EXPIRED = "expired"

    class Mode(models.TextChoices):
        DAILY = "daily"
        SOLO = "solo"
        COMPUTER = "computer"
        FRIEND = "friend"
        PARTY = "party"

    class View(models.TextChoices):
        BLIND = "blind"
        TARGET = "target"

    class Level(models.TextChoices):
        EASY = "easy"
        MEDIUM = "medium"
        HARD = "hard"
        EXPERT = "expert"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rounds"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.DAILY)
    challenge = models.ForeignKey(
        "daily.Challenge", null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    ruleset = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    seed = models.BinaryField(max_length=32)
    actions = models.JSONField(default=list)
    snapshot = models.JSONField(default=dict, help_text="The engine's state after `actions`.")
    total = models.IntegerField(null=True, blank=True, help_text="Final score once completed.")
    version = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text="Bumped by every stored action; writes are conditional on it.",
    )
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    level = models.CharField(
        max_length=8,
        choices=Level.choices,
        blank=True,
        default="",
        db_default="",
        help_text="The computer's level.",
    )
    opponent = models.JSONField(
        null=True,
        blank=True,
        help_text="The computer's game: its engine snapshot and the log of its turns.",
    )
    share = models.ForeignKey(
        "games.ShareCode",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="plays",
        help_text="The friend challenge this round was started from.",
    )
    view = models.CharField(
        max_length=8, choices=View.choices, blank=True, default="", db_default=""
    )
    party = models.ForeignKey(
        "games.Party", null=True, blank=True, on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_name = models.CharField(max_length=30, blank=True, default="", db_default="")

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["challenge", "ranked", "status"]),
            models.Index(fields=["player", "-started_at"], name="round_player_newest"),
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
        ]

    def __str__(self) -> str:
        return f"{self.get_mode_display()} round {self.id}"


class StrategyTable(models.Model):
    """An exact strategy table the service needs (hints, analysis, the expert), and where
    its build stands. The file lives in ``YATZY_TABLES_DIR``; this row is what requests
    and operators see: a request that needs a missing table queues a row, the worker's
    ``tables_build_due`` job claims and builds it, recording its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        BUILDING = "building"
        READY = "ready"
        FAILED = "failed"

    key = models.CharField(max_length=500, unique=True, help_text="Ruleset and options.")
    ruleset = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    states_done = models.BigIntegerField(default=0)
    states_total = models.BigIntegerField(default=0)
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["requested_at"]

    def __str__(self) -> str:
        return f"table {self.ruleset} {self.status}"

    @property
    def progress(self) -> float:
        return self.states_done / self.states_total if self.states_total else 0.0


class ShareCode(models.Model):
    """A friend challenge: a code for a finished round, so friends play the same dice.

    Codes are 8 characters of Crockford base32 from a CSPRNG (``games.codes``); a round
    has at most one live code, and a revoked code is gone for good (404 to everyone).
    """

    code = models.CharField(max_length=8, unique=True)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="shares")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["round"],
                condition=Q(revoked_at__isnull=True),
                name="share_one_live_code_per_round",
            )
        ]

    def __str__(self) -> str:
        return f"share {self.code}"


class Party(models.Model):
    """2-4 named seats on one account, taking turns strictly in order (seat 0 turn 0,
    seat 1 turn 0, …), each seat a round on its own seed. ``version`` is bumped by every
    action, which is stored only if the party has not moved since it was read."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress"
        COMPLETED = "completed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="parties"
    )
    ruleset = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    current_seat = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "parties"

    def __str__(self) -> str:
        return f"party {self.id}"
