# API tokens are stored hashed (django-rest-knox) instead of in clear (DRF's authtoken).
#
# The existing clear tokens are kept working, not thrown away: each key (40 random hex
# characters, 160 bits) is stored the way knox stores a new one, its SHA-512 digest and
# its first 15 characters as the look-up prefix, so every terminal client and script
# logged in before this release stays logged in; then the clear table is dropped, so no
# dump taken afterwards holds a usable token. A digest is one-way: this migration cannot
# be reversed into clear tokens (reversing it leaves the players logged out).

from django.db import migrations

from knox.crypto import hash_token
from knox.settings import CONSTANTS

CLEAR_TABLE = "authtoken_token"


def _hash_clear_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if CLEAR_TABLE not in connection.introspection.table_names():
        return
    AuthToken = apps.get_model("knox", "AuthToken")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {CLEAR_TABLE}")
        rows = cursor.fetchall()
    AuthToken.objects.bulk_create(
        [
            AuthToken(
                digest=hash_token(key),
                token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH],
                user_id=user_id,
                created=created,
                expiry=None,
            )
            for key, user_id, created in rows
        ],
        ignore_conflicts=True,
    )
    with connection.cursor() as cursor:
        # bulk_create stamps auto_now_add fields with now: each log-in keeps its date.
        cursor.executemany(
            f"UPDATE {AuthToken._meta.db_table} SET created = %s WHERE digest = %s",
            [(created, hash_token(key)) for key, _user, created in rows],
        )
    schema_editor.execute(f"DROP TABLE {CLEAR_TABLE}")
    # authtoken is no longer installed: its migrations' records go with its table.
    schema_editor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_username_key"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.RunPython(_hash_clear_tokens, migrations.RunPython.noop),
    ]
