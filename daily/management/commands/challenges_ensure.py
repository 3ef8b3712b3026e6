from django.core.management.base import BaseCommand

from daily import services


class Command(BaseCommand):
    help = "Create today's daily challenge and the next days' (the beat job does this too)."

    def handle(self, *args: object, **options: object) -> None:
        created = services.challenges_ensure_upcoming()
        self.stdout.write(f"Daily challenges ready: {', '.join(str(c.date) for c in created)}")
