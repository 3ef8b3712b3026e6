from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from config.admin_filters import ListFilterLookupsOnly
from daily import clock
from daily.models import Challenge
from daily.selectors import challenge_seed_shown


@admin.register(Challenge)
class ChallengeAdmin(ListFilterLookupsOnly):
    """Challenges are created by the beat job; the admin inspects them. The seed column
    stays hidden until the day's reveal time, like everywhere else."""

    list_display = ("date", "ruleset", "theme_shown", "commitment", "shown_seed", "closed_at")
    # No date_hierarchy: its links for a year near 9999 compute a date past the last one
    # Python has (a 500); the date filter offers the same choices.
    list_filter = ("ruleset", ("date", admin.DateFieldListFilter), "closed_at")
    fields = ("date", "ruleset", "options", "commitment", "shown_seed", "created_at", "closed_at")
    readonly_fields = fields

    @admin.display(description=_("theme"))
    def theme_shown(self, obj: Challenge) -> str:
        # The die skin's name in the admin's language, not its id.
        return clock.theme_name(obj.theme)

    @admin.display(description=_("seed"))
    def shown_seed(self, obj: Challenge) -> str:
        return challenge_seed_shown(obj) or str(_("(hidden until reveal)"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
