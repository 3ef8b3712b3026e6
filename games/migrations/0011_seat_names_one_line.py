# A seat's name is one line (accounts.names.name_clean reads a line or paragraph
# separator, U+2028 or U+2029, as a space since this release): stored ones are cleaned so.

from accounts.names import name_clean
from django.db import migrations
from django.db.models import Q


def _one_line(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    separators = Q(seat_name__contains="\u2028") | Q(seat_name__contains="\u2029")
    for rnd in Round.objects.filter(separators).only("pk", "seat_name"):
        Round.objects.filter(pk=rnd.pk).update(seat_name=name_clean(rnd.seat_name))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_new_game_request"),
    ]

    operations = [
        migrations.RunPython(_one_line, migrations.RunPython.noop),
    ]
