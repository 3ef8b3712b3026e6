"""The player account."""

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"Unknown time zone {value!r}.", code="invalid_time_zone")


class User(AbstractUser):
    """A player. ``display_name`` is shown on boards; ``language`` and ``time_zone`` are
    display preferences (the daily day boundary is the same for everyone)."""

    display_name = models.CharField(max_length=40, blank=True)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")
        ]
