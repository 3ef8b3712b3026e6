"""Seasons, and the materialised boards derived from ranked rounds.

Every board is a set of :class:`BoardEntry` rows under one string key (see
:mod:`leaderboards.boards`) plus a :class:`BoardHistogram`: how many entries hold each
value. A rank is ``1 + the entries with a higher value``, read from the histogram, so it
costs one row per distinct value, never one per player. Both tables are derived data:
``boards_reconcile`` rebuilds them from the Round table at any time.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Season(models.Model):
    """A stretch of dates with its own best-day and streak boards. Seasons may overlap:
    each has its own boards, and a round counts in every season that contains its date."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=50, unique=True)
    start_date = models.DateField()
    end_date = models.DateField(help_text="Inclusive.")
    theme = models.CharField(max_length=40, blank=True, help_text="Optional, e.g. 'winter'.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "slug"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="season_end_not_before_start"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError(
                {"end_date": "The season cannot end before it starts."}, code="season_dates"
            )


class BoardEntry(models.Model):
    """One player's line on one board."""

    board = models.CharField(max_length=80)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_entries"
    )
    value = models.IntegerField()
    achieved_at = models.DateTimeField(help_text="When the value was reached; earlier wins a tie.")
    streak_last_date = models.DateField(
        null=True, blank=True, help_text="Streak boards: the last date of the latest run."
    )
    streak_last_run = models.IntegerField(
        null=True, blank=True, help_text="Streak boards: the length of the latest run."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "player"], name="boardentry_one_per_player"),
        ]
        indexes = [
            models.Index(
                "board", F("value").desc(), "achieved_at", "player", name="boardentry_order"
            ),
        ]
        verbose_name_plural = "board entries"

    def __str__(self) -> str:
        return f"{self.board}: {self.player_id} = {self.value}"


class BoardHistogram(models.Model):
    """How many entries of ``board`` hold ``value``."""

    board = models.CharField(max_length=80)
    value = models.IntegerField()
    count = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "value"], name="boardhistogram_one_per_value"),
        ]

    def __str__(self) -> str:
        return f"{self.board}: {self.count} at {self.value}"


class PendingBoardUpdate(models.Model):
    """A completed ranked round whose board update has not run yet: written in the
    transaction that completes the round, deleted once the update has committed. The
    job sent on commit normally takes it within milliseconds; if the broker lost that
    job (an outage while it was being sent), ``boards_catch_up`` runs it instead."""

    round = models.OneToOneField("games.Round", primary_key=True, on_delete=models.CASCADE)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"boards pending for round {self.round_id}"
