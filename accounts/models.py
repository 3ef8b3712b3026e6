"""The player account."""

import unicodedata
import zoneinfo
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"Unknown time zone {value!r}.", code="invalid_time_zone")


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        """Log-in lookup: NFKC and case-insensitive, like the uniqueness of usernames
        (the unique index on ``lower(username)`` serves it)."""
        name = unicodedata.normalize("NFKC", username or "").lower()
        return self.alias(name=Lower("username")).get(name=name)


class User(AbstractUser):
    """A player. ``display_name`` is shown on boards; ``language`` and ``time_zone`` are
    display preferences (the daily day boundary is the same for everyone)."""

    display_name = models.CharField(max_length=40, blank=True)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # Database defaults too, so the previous release's code can insert players while a
    # rolling deploy runs (docs/operations.md, migrations).
    ruleset = models.CharField(
        max_length=16,
        default="maxi",
        db_default="maxi",
        help_text="Ruleset of the player's next new game.",
    )
    options = models.JSONField(
        default=dict,
        db_default=models.Value({}, output_field=models.JSONField()),
        blank=True,
        help_text="Options of the player's next new game.",
    )

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")
        ]
