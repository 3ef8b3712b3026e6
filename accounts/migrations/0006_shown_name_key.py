# No two players are shown by names of one key (accounts.names.name_key of the display
# name, else of the username): the key is stored and unique. Existing rows get theirs
# here. A display name is first cleaned as the pages clean one now
# (accounts.names.name_clean: "Bob\u200b" is "Bob"; one that shows nothing is cleared),
# and a player shown by a username that holds invisible characters (an older release let
# "bob\u3164" in) is shown by that username cleaned instead, as a display name: their
# log-in stays. Where two players are then shown by one name, players shown by their
# username keep it (usernames are unique by their key already), then display names are
# kept in the order the players joined; a later display name already shown is cleared
# (its player is shown by their username), and where that is taken too, the player is
# shown as "<username>-<id>" (or "-<id>-2", … where that is shown already). Each change
# is logged.

import logging

import accounts.models
from accounts.names import name_clean, name_free, name_key, name_visible
from django.db import migrations, models

logger = logging.getLogger("accounts.migrations")

_MAX_DISPLAY_NAME = 40


def _shown_name(player):
    """The display name a player is shown by once cleaned; blank: their username."""
    shown = name_clean(player.display_name)
    if not name_visible(shown):
        shown = ""
    if not shown and name_clean(player.username) != player.username:
        shown = name_clean(player.username)[:_MAX_DISPLAY_NAME]
        if not name_visible(shown):
            shown = "player"
    return shown


def _fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    players = list(User.objects.order_by("date_joined", "pk").only("pk", "username", "display_name"))
    wanted = {player.pk: _shown_name(player) for player in players}
    taken = {name_key(p.username) for p in players if not wanted[p.pk]}
    # Every display name as it stands is kept from the renamed ones.
    names = taken | {name_key(shown) for shown in wanted.values() if shown}
    for player in players:
        shown = wanted[player.pk]
        if shown and name_key(shown) in taken:
            plain = name_clean(player.username) == player.username
            if plain and name_key(player.username) not in taken:
                shown = ""
            else:
                base = name_clean(player.username)[:_MAX_DISPLAY_NAME] or "player"
                shown = name_free(base, player.pk, taken | names, _MAX_DISPLAY_NAME)
        key = name_key(shown or player.username)
        taken.add(key)
        if shown != player.display_name:
            logger.warning("player %s: display name %r -> %r (cleaned, or an older player is "
                           "shown by it)", player.pk, player.display_name, shown)
        User.objects.filter(pk=player.pk).update(display_name=shown, shown_name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_tokens_hashed'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='shown_name_key',
            field=accounts.models.ShownNameKeyField(db_default='', default='', editable=False, max_length=600, verbose_name='shown name key'),
        ),
        migrations.RunPython(_fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(condition=models.Q(('shown_name_key', ''), _negated=True), fields=('shown_name_key',), name='accounts_user_shown_name_unique', violation_error_message='Another player is shown by that name.'),
        ),
    ]
