# Usernames are compared by a stored key, NFKC + case folding (accounts.names.name_key),
# with a unique constraint, on every database: the old unique index on lower(username)
# folded ASCII only on SQLite, where "Ärne" and "ärne" became two accounts (and "Ärne"
# could not log in), and PostgreSQL's lower() keeps "maße" and "masse" apart, which
# folding does not. Existing rows get their key here. Where two existing accounts have
# the same key, the older keeps its name and the newer one is renamed "<name>-<id>"
# (or "<name>-<id>-2", … where another account has that name), logged; its player logs
# in with the new name. Going back re-creates the lower(username) index, which accounts
# registered since may break: the way back then stops with their names.

import logging

from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower

import accounts.models
from accounts.names import name_free, name_key

logger = logging.getLogger("accounts.migrations")


def _fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    users = list(User.objects.order_by("date_joined", "pk").only("pk", "username"))
    # Every name as it stands is kept from the renamed: a later account may be called
    # "<name>-<id>" already.
    names = {name_key(user.username) for user in users}
    taken = set()
    for user in users:
        key = name_key(user.username)
        if key in taken:
            old = user.username
            user.username = name_free(old, user.pk, taken | names, 150)
            key = name_key(user.username)
            logger.warning("player %s renamed %r -> %r (same name as an older player)",
                           user.pk, old, user.username)
        taken.add(key)
        User.objects.filter(pk=user.pk).update(username=user.username, username_key=key)


def _check_lower_unique(apps, schema_editor):
    """Before the way back re-creates the unique index on lower(username): the accounts
    it would refuse, named, instead of the database's bare refusal."""
    User = apps.get_model("accounts", "User")
    clashes = (
        User.objects.annotate(lowered=Lower("username"))
        .values("lowered")
        .annotate(accounts=Count("pk"))
        .filter(accounts__gt=1)
        .values_list("lowered", flat=True)
    )
    names = sorted(
        User.objects.annotate(lowered=Lower("username"))
        .filter(lowered__in=list(clashes[:20]))
        .values_list("username", flat=True)
    )
    if names:
        raise RuntimeError(
            "accounts cannot go back before 0004_username_key: the unique index on "
            "lower(username) it re-creates would refuse these accounts, whose names differ "
            f"only in case as this database lowers it: {', '.join(map(repr, names))}. "
            "Rename them (the admin) first."
        )


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
        migrations.RunPython(migrations.RunPython.noop, _check_lower_unique),
    ]
