# Usernames are compared by a stored key, NFKC + case folding (accounts.names.name_key),
# with a unique constraint, on every database: the old unique index on lower(username)
# folded ASCII only on SQLite, where "Ärne" and "ärne" became two accounts (and "Ärne"
# could not log in). Existing rows get their key here. Where two existing accounts have
# the same key (only possible on SQLite), the older keeps its name and the newer one is
# renamed "<name>-<id>" (logged), so the unique constraint can hold; its player logs in
# with the new name.

import logging

from django.db import migrations, models

import accounts.models
from accounts.names import name_key

logger = logging.getLogger("accounts.migrations")


def _fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    for user in User.objects.order_by("date_joined", "pk").only("pk", "username"):
        key = name_key(user.username)
        if key in taken:
            old = user.username
            user.username = f"{old[: 150 - len(str(user.pk)) - 1]}-{user.pk}"
            key = name_key(user.username)
            logger.warning("player %s renamed %r -> %r (same name as an older player)",
                           user.pk, old, user.username)
        taken.add(key)
        User.objects.filter(pk=user.pk).update(username=user.username, username_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_i18n_labels_language_follows_browser'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='username_key',
            field=models.CharField(editable=False, max_length=600, null=True, verbose_name='username key'),
        ),
        migrations.RunPython(_fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='user',
            name='username_key',
            field=accounts.models.UsernameKeyField(editable=False, max_length=600, unique=True, verbose_name='username key'),
        ),
        migrations.RemoveConstraint(
            model_name='user',
            name='accounts_user_username_ci_unique',
        ),
    ]
