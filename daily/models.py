"""One challenge per calendar date."""

from django.db import models

from daily import clock


class Challenge(models.Model):
    """The daily challenge of one date: its ruleset, its seed and the seed's commitment.

    The seed is derived from ``DAILY_SEED_SECRET`` and stored at creation, so rotating the
    secret never changes an existing day. It is only shown once :attr:`is_revealed`.
    """

    date = models.DateField(unique=True)
    ruleset = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    seed = models.BinaryField(max_length=32)
    commitment = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the day-close job finished this day."
    )
    expert_total = models.IntegerField(
        null=True,
        blank=True,
        help_text="What the expert (the exact table) scored on the day's dice; after reveal.",
    )

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"Daily {self.date.isoformat()}"

    @property
    def is_revealed(self) -> bool:
        return clock.is_revealed(self.date)

    @property
    def theme(self) -> str:
        return clock.theme(self.date)
