# A display name is one line (accounts.names.name_clean reads a line or paragraph
# separator, U+2028 or U+2029, as a space since this release). Existing display names
# that hold one are cleaned so, and keyed again: where another player is already shown
# by the cleaned name, this player is shown by their username instead, or, where that is
# shown too, as "<username>-<id>" (as 0006 does). Each change is logged.

import logging

from accounts.names import name_clean, name_free, name_key, name_visible
from django.db import migrations
from django.db.models import Q

logger = logging.getLogger("accounts.migrations")

_MAX_DISPLAY_NAME = 40
_SEPARATORS = Q(display_name__contains="\u2028") | Q(display_name__contains="\u2029")


def _one_line(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for player in User.objects.filter(_SEPARATORS).order_by("date_joined", "pk"):
        shown = name_clean(player.display_name)
        if not name_visible(shown):
            shown = ""
        taken = set(
            User.objects.exclude(pk=player.pk)
            .exclude(shown_name_key="")
            .values_list("shown_name_key", flat=True)
        )
        if shown and name_key(shown) in taken:
            shown = ""
        if not shown and name_key(player.username) in taken:
            base = name_clean(player.username)[:_MAX_DISPLAY_NAME] or "player"
            shown = name_free(base, player.pk, taken, _MAX_DISPLAY_NAME)
        key = name_key(shown or player.username)
        logger.warning("player %s: display name %r -> %r (one line)", player.pk,
                       player.display_name, shown)
        User.objects.filter(pk=player.pk).update(display_name=shown, shown_name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_shown_name_key"),
    ]

    operations = [
        migrations.RunPython(_one_line, migrations.RunPython.noop),
    ]
