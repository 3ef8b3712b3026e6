"""Seasons, and the materialised boards derived from ranked rounds.

Every board is a set of :class:`BoardEntry` rows under one string key (see
:mod:`leaderboards.boards`) plus a :class:`BoardHistogram`: how many entries hold each
value, and its sums by blocks of values (:class:`BoardHistogramBlock`). A rank is ``1 +
the entries with a higher value``, read from the blocks above and the histogram's rows
in the value's own block, so it costs a few hundred rows at most, never one per player.
All three tables are derived data:
``boards_reconcile`` rebuilds them from the Round table at any time.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    """A stretch of dates with its own best-day and streak boards. Seasons may overlap:
    each has its own boards, and a round counts in every season that contains its date."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(
        _("slug"),
        max_length=50,
        unique=True,
        # `?season=` takes a slug or an id: a slug of digits would hide another season.
        validators=[
            RegexValidator(
                r"^[0-9]+$",
                inverse_match=True,
                message=_("A slug of digits alone reads as a season's id; add a letter."),
                code="slug_digits",
            )
        ],
    )
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), help_text=_("Inclusive."))
    theme = models.CharField(
        _("theme"), max_length=40, blank=True, help_text=_("Optional, e.g. winter.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Since when a rebuild of its boards is owed (created, dates changed, the admin's
    # recompute), cleared by the rebuild: the sent job can be lost with the broker's
    # queue, so `boards_catch_up` runs a rebuild owed too long (services).
    boards_owed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-start_date", "slug"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
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
                {"end_date": _("The season cannot end before it starts.")}, code="season_dates"
            )


class BoardEntry(models.Model):
    """One player's line on one board."""

    board = models.CharField(_("board"), max_length=80)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="board_entries",
    )
    value = models.IntegerField(_("value"))
    achieved_at = models.DateTimeField(
        _("achieved at"), help_text=_("When the value was reached; earlier wins a tie.")
    )
    streak_last_date = models.DateField(
        _("last day of the latest run"),
        null=True,
        blank=True,
        help_text=_("Streak boards: the last date of the latest run."),
    )
    streak_last_run = models.IntegerField(
        _("length of the latest run"),
        null=True,
        blank=True,
        help_text=_("Streak boards: the length of the latest run."),
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
        verbose_name = _("board entry")
        verbose_name_plural = _("board entries")

    def __str__(self) -> str:
        return f"{self.board}: {self.player_id} = {self.value}"


class BoardHistogram(models.Model):
    """How many entries of ``board`` hold ``value``."""

    board = models.CharField(_("board"), max_length=80)
    value = models.IntegerField(_("value"))
    count = models.IntegerField(_("count"))

    class Meta:
        verbose_name = _("board histogram")
        verbose_name_plural = _("board histograms")
        constraints = [
            models.UniqueConstraint(fields=["board", "value"], name="boardhistogram_one_per_value"),
        ]

    def __str__(self) -> str:
        return ngettext(
            "%(board)s: %(count)d entry at %(value)d",
            "%(board)s: %(count)d entries at %(value)d",
            self.count,
        ) % {"board": self.board, "count": self.count, "value": self.value}


class BoardHistogramBlock(models.Model):
    """How many entries of ``board`` hold a value in ``block``: the histogram summed over
    :attr:`WIDTH` values, so a rank sums a few hundred rows at most, even on a decisions
    board's thousands of distinct losses (:func:`leaderboards.ranking.rank_expression`).
    A value's block is SQL's integer division ``value / WIDTH`` (towards zero, on
    PostgreSQL as on SQLite; block 0 holds the values either side of zero), which keeps
    the blocks in the values' order."""

    WIDTH = 100

    board = models.CharField(_("board"), max_length=80)
    block = models.IntegerField(_("block"))
    count = models.IntegerField(_("count"))

    class Meta:
        verbose_name = _("board histogram block")
        verbose_name_plural = _("board histogram blocks")
        constraints = [
            models.UniqueConstraint(fields=["board", "block"], name="boardhistogramblock_one"),
        ]

    def __str__(self) -> str:
        return f"{self.board} [{self.block}]: {self.count}"

    @classmethod
    def of(cls, value: int) -> int:
        """The block of ``value``, as SQL's ``value / WIDTH`` computes it.

        >>> [BoardHistogramBlock.of(v) for v in (250, 99, 0, -99, -100, -250)]
        [2, 0, 0, 0, -1, -2]
        """
        block = abs(value) // cls.WIDTH
        return block if value >= 0 else -block


class PendingBoardUpdate(models.Model):
    """A completed ranked round whose board update has not run yet: written in the
    transaction that completes the round, deleted once the update has committed. The
    job sent on commit normally takes it within milliseconds; if the broker lost that
    job (an outage while it was being sent), ``boards_catch_up`` runs it instead."""

    round = models.OneToOneField(
        "games.Round", verbose_name=_("round"), primary_key=True, on_delete=models.CASCADE
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("pending board update")
        verbose_name_plural = _("pending board updates")

    def __str__(self) -> str:
        return gettext("Boards owed for round %(round)s") % {"round": self.round_id}
