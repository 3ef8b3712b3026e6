from django.core.management.base import BaseCommand

from daily import services


class Command(BaseCommand):
    help = (
        "After rotating DAILY_SEED_SECRET: recreate the challenges of days that have not "
        "started, so their seeds and commitments come from the new secret."
    )

    def handle(self, *args: object, **options: object) -> None:
        created = services.challenges_reseed_future()
        days = ", ".join(c.date.isoformat() for c in created) or "none"
        self.stdout.write(f"Upcoming challenges recreated from the current secret: {days}")
