# No two players are shown by names of one key (accounts.names.name_key of the display
# name, else of the username): the key is stored and unique. Existing rows get theirs
# here. Where two existing players are shown by one name, players shown by their
# username keep it (usernames are unique by their key already), then display names are
# kept in the order the players joined; a later display name already shown is cleared
# (its player is shown by their username), and where that is taken too by an earlier
# display name, the player is shown as "<username>-<id>". Each change is logged.

import logging

import accounts.models
from accounts.names import name_key
from django.db import migrations, models

logger = logging.getLogger("accounts.migrations")


def _fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    players = list(User.objects.order_by("date_joined", "pk").only("pk", "username", "display_name"))
    taken = {name_key(p.username) for p in players if not p.display_name}
    for player in players:
        if not player.display_name:
            key = name_key(player.username)
        elif name_key(player.display_name) not in taken:
            key = name_key(player.display_name)
        else:
            old = player.display_name
            player.display_name = ""
            if name_key(player.username) in taken:
                player.display_name = f"{player.username[: 40 - len(str(player.pk)) - 1]}-{player.pk}"
            key = name_key(player.display_name or player.username)
            logger.warning("player %s: display name %r -> %r (an older player is shown by it)",
                           player.pk, old, player.display_name)
        taken.add(key)
        User.objects.filter(pk=player.pk).update(display_name=player.display_name, shown_name_key=key)


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
