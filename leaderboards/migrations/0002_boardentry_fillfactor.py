"""Leave half of each page of board entries free so that storing a final rank at day close
(a column no index covers) is a HOT update: no new index entries for 700k+ rows."""

from django.db import migrations


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_boardentry SET (fillfactor = 50)")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_boardentry RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("leaderboards", "0001_initial")]

    operations = [migrations.RunPython(set_fillfactor, reset_fillfactor)]
