"""A round: one player's game of one ruleset from one seed, stored as its engine state."""

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

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["challenge", "ranked", "status"])]
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
                condition=Q(status="completed", total__isnull=False, completed_at__isnull=False)
                | (~Q(status="completed") & Q(total__isnull=True)),
                name="round_total_iff_completed",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.id} ({self.player_id}, {self.status})"
