# `?season=` takes a slug or an id, and a slug of digits alone hid another season's id
# (0007 refuses new ones). Seasons that already have one get "season-<digits>" (or
# "season-<digits>-<id>" where that is taken), logged: their old links then read as an
# id, as every link of digits does.

import logging
import re

from django.db import migrations

logger = logging.getLogger("leaderboards.migrations")

_DIGITS = re.compile(r"[0-9]+")


def _rename_digit_slugs(apps, schema_editor):
    Season = apps.get_model("leaderboards", "Season")
    taken = set(Season.objects.values_list("slug", flat=True))
    for season in Season.objects.order_by("pk"):
        if not _DIGITS.fullmatch(season.slug):
            continue
        slug = f"season-{season.slug}"[:50]
        if slug in taken:
            slug = f"season-{season.slug}"[: 50 - len(str(season.pk)) - 1] + f"-{season.pk}"
        logger.warning(
            "season %s (%s): slug %r -> %r (digits alone read as a season's id)",
            season.pk, season.name, season.slug, slug,
        )
        taken.add(slug)
        Season.objects.filter(pk=season.pk).update(slug=slug)


class Migration(migrations.Migration):

    dependencies = [
        ('leaderboards', '0007_season_slug_not_digits'),
    ]

    operations = [
        migrations.RunPython(_rename_digit_slugs, migrations.RunPython.noop),
    ]
