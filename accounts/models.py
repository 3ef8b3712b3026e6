"""The player account."""

import unicodedata
import zoneinfo
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("Unknown time zone %(value)s."), code="invalid_time_zone", params={"value": value}
        )


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        """Log-in lookup: NFKC and case-insensitive, like the uniqueness of usernames
        (the unique index on ``lower(username)`` serves it)."""
        name = unicodedata.normalize("NFKC", username or "").lower()
        return self.alias(name=Lower("username")).get(name=name)


class User(AbstractUser):
    """A player. ``display_name`` is shown on boards; ``language`` and ``time_zone`` are
    display preferences (the daily day boundary is the same for everyone). A blank
    ``language`` follows the browser's Accept-Language (``config.i18n``)."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    # Database defaults too, so the previous release's code can insert players while a
    # rolling deploy runs (docs/operations.md, migrations).
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
        db_default="",
        help_text=_("The language of the site and the API; blank follows the browser."),
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    ruleset = models.CharField(
        _("ruleset"),
        max_length=16,
        default="maxi",
        db_default="maxi",
        help_text=_("The ruleset of the player's next new game."),
    )
    options = models.JSONField(
        _("options"),
        default=dict,
        db_default=models.Value({}, output_field=models.JSONField()),
        blank=True,
        help_text=_("The options of the player's next new game."),
    )

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique")
        ]
