"""``python manage.py analyse_day DATE [--workers]``: analyse a revealed day's ranked
rounds by hand (skill and luck, ``games.skill``)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from daily.models import Challenge
from games import skill, tasks


class Command(BaseCommand):
    help = (
        "Analyse every completed ranked round of a revealed day that has no loss yet, "
        "in this process (or, with --workers, by the Celery workers): the same chunks, "
        "claims and stores as the beat job, so it may run beside it. Rounds whose "
        "analysis failed before are tried again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("date", type=dt.date.fromisoformat, help="YYYY-MM-DD")
        parser.add_argument(
            "--workers",
            action="store_true",
            help="plan the day and start the workers' chunk jobs instead of analysing here",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        day: dt.date = options["date"]
        challenge = Challenge.objects.filter(date=day).first()
        if challenge is None:
            raise CommandError(f"There is no daily challenge of {day}.")
        if not challenge.is_revealed:
            raise CommandError(f"{day} is not revealed yet: its rounds are analysed after.")
        if not skill.day_table_ready(challenge):
            raise CommandError(
                f"The {challenge.ruleset} strategy table is not built yet (it is queued for "
                "the tables worker; `manage.py solve` builds it by hand): try again then."
            )
        planned = skill.day_plan(day=day, retry_failed=True)
        started = time.perf_counter()
        if options["workers"]:
            relays = settings.SKILL_RELAYS if skill.chunks_claimable(day=day).exists() else 0
            for _ in range(relays):
                tasks.skill_analyse_next.delay()
            self.stdout.write(f"{day}: {planned} chunks planned; {relays} chunk jobs sent.")
            return
        chunks = 0
        while skill.chunk_analyse_next(day=day) is not None:
            chunks += 1
        state = skill.day_analysis(day=day)
        self.stdout.write(
            f"{day}: {chunks} chunks analysed here in {time.perf_counter() - started:.1f} s; "
            f"{state.analysed} of {state.rounds} ranked rounds have their loss."
        )
