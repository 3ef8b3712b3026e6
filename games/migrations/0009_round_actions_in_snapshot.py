# The action log is stored once, in the snapshot (issue #25): every round's snapshot has
# held it since the first migration, so nothing is copied on the way forward. On the way
# back the column is added again (empty) and filled from the snapshots.

from django.db import migrations


def actions_from_snapshots(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    for rnd in Round.objects.only("id", "snapshot").iterator(chunk_size=2000):
        Round.objects.filter(pk=rnd.pk).update(actions=rnd.snapshot.get("actions", []))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_round_skill'),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, actions_from_snapshots),
        migrations.RemoveField(
            model_name='round',
            name='actions',
        ),
    ]
