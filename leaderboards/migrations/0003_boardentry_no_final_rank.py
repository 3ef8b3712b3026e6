"""Final ranks are no longer stored per entry: a closed day's board cannot change, so the
ranks its histogram gives are final. Without that update at day close nothing needs the
free space of fillfactor 50 any more (every other write changes an indexed column)."""

from django.db import migrations


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_boardentry RESET (fillfactor)")


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leaderboards_boardentry SET (fillfactor = 50)")


class Migration(migrations.Migration):
    dependencies = [("leaderboards", "0002_boardentry_fillfactor")]

    operations = [
        migrations.RemoveField(model_name="boardentry", name="final_rank"),
        migrations.RunPython(reset_fillfactor, set_fillfactor),
    ]
