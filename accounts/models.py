"""The player account."""

import zoneinfo
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.names import display_name_clean, name_key, username_check


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("Unknown time zone %(value)s."), code="invalid_time_zone", params={"value": value}
        )


class UsernameKeyField(models.CharField):  # type: ignore[type-arg]
    """The username's key, computed from the username whenever the row is written, as
    ``auto_now`` is: by ``save()`` and by ``bulk_create`` alike, so no row can hold a
    stale or empty one."""

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = name_key(model_instance.username)  # type: ignore[attr-defined]
        setattr(model_instance, self.attname, value)
        return value


SHOWN_NAME_TAKEN = _("Another player is shown by that name.")
USERNAME_TAKEN = _("That username is taken.")


def shown_name_key(user: "User") -> str:
    """The key of the name other players see: the display name, else the username."""
    return name_key(user.display_name or user.username)


def shown_name_taken(user: "User") -> bool:
    """Whether another player is shown by the name ``user`` would be shown by, its
    display name and username as they are now (saved or not)."""
    others = User.objects.exclude(pk=user.pk) if user.pk else User.objects.all()
    return others.filter(shown_name_key=shown_name_key(user)).exists()


class ShownNameKeyField(models.CharField):  # type: ignore[type-arg]
    """The key of the name a player is shown by, kept as :class:`UsernameKeyField` keeps
    the username's: no two players are shown by names of one key."""

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = shown_name_key(model_instance)  # type: ignore[arg-type]
        setattr(model_instance, self.attname, value)
        return value


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> "User":
        """Log-in lookup: by the username's key (NFKC + case folding), like the
        uniqueness of usernames; the key's unique index serves it. A name with a NUL
        (which no username holds: names lose their control characters) is nobody's,
        never asked of the database: PostgreSQL refuses NUL in text (a 500)."""
        if "\x00" in (username or ""):
            raise self.model.DoesNotExist
        return self.get(username_key=name_key(username or ""))


class User(AbstractUser):
    """A player. ``display_name`` is shown on boards; ``language`` and ``time_zone`` are
    display preferences (the daily day boundary is the same for everyone). A blank
    ``language`` follows the browser's Accept-Language (``config.i18n``)."""

    # NFKC + case folding of the username (accounts.names.name_key): what log-in and
    # uniqueness compare on every database. Case folding may lengthen a name ("ß" is
    # "ss"), hence the room.
    username_key = UsernameKeyField(_("username key"), max_length=600, unique=True, editable=False)
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    # The key of the display name, or of the username without one: unique (below), so no
    # player can be shown as another ("Bob" beside "bob", full-width "BOB", or another's
    # username). Never blank once migration 0006 has run with the previous release
    # stopped (docs/operations.md, migrations); the constraint leaves blank out only so
    # that the column could be added to a table that already had players.
    shown_name_key = ShownNameKeyField(
        _("shown name key"), max_length=600, editable=False, default="", db_default=""
    )
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
            models.UniqueConstraint(
                fields=["shown_name_key"],
                condition=~models.Q(shown_name_key=""),
                name="accounts_user_shown_name_unique",
                violation_error_message=SHOWN_NAME_TAKEN,
            )
        ]

    def clean(self) -> None:
        # A form (the admin's) checks the names here as the API does (accounts.names):
        # the keys are not its fields, so Django's own unique and constraint checks pass
        # them by, and the database's refusal would be a 500. A username the form has
        # already refused arrives as None.
        super().clean()
        errors: dict[str, Any] = {}
        if self.username:
            try:
                username_check(self.username)
            except ValidationError as exc:
                errors["username"] = exc.messages
            else:
                others = User.objects.exclude(pk=self.pk)
                if others.filter(username_key=name_key(self.username)).exists():
                    errors["username"] = USERNAME_TAKEN
        try:
            self.display_name = display_name_clean(self.display_name or "")
        except ValidationError as exc:
            errors["display_name"] = exc.messages
        if not errors and (self.display_name or self.username) and shown_name_taken(self):
            errors["display_name"] = SHOWN_NAME_TAKEN
        if errors:
            raise ValidationError(errors)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A saved name takes its keys along (the key fields compute them).
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            extra = {"username_key"} if "username" in update_fields else set()
            if {"username", "display_name"} & set(update_fields):
                extra.add("shown_name_key")
            kwargs["update_fields"] = {*update_fields, *extra}
        super().save(*args, **kwargs)
