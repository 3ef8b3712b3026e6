from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from web.pages.app import fallback_pages_write


class Command(BaseCommand):
    help = (
        "Write the page and the API error the proxy answers with while the app does not "
        "answer, in each language (DIR/<code>.html, DIR/<code>.json; deploy/Caddyfile, "
        "docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", type=Path, help="the folder the proxy serves them from")

    def handle(self, *args: Any, **options: Any) -> None:
        written = fallback_pages_write(options["directory"])
        self.stdout.write(f"{len(written)} fallback answers written to {options['directory']}")
