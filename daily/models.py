"""One challenge per calendar date."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from daily import clock


class Challenge(models.Model):
    """The daily challenge of one date: its ruleset, its seed and the seed's commitment.

    The seed is derived from ``DAILY_SEED_SECRET`` and stored at creation, so rotating the
    secret never changes an existing day. It is only shown once :attr:`is_revealed`.
    """

    date = models.DateField(_("date"), unique=True)
    ruleset = models.CharField(_("ruleset"), max_length=16)
    options = models.JSONField(_("options"), default=dict)
    seed = models.BinaryField(_("seed"), max_length=32)
    commitment = models.CharField(_("commitment"), max_length=64)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    closed_at = models.DateTimeField(
        _("closed at"),
        null=True,
        blank=True,
        help_text=_("When the day-close job finished this day."),
    )
    expert_total = models.IntegerField(
        _("expert's total"),
        null=True,
        blank=True,
        help_text=_("What the expert (the exact table) scored on the day's dice; after reveal."),
    )

    class Meta:
        ordering = ["-date"]
        verbose_name = _("daily challenge")
        verbose_name_plural = _("daily challenges")

    def __str__(self) -> str:
        return _("Daily challenge of %(date)s") % {"date": self.date.isoformat()}

    @property
    def is_revealed(self) -> bool:
        return clock.is_revealed(self.date)

    @property
    def theme(self) -> str:
        return clock.theme(self.date)
