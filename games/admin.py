from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import Round, StrategyTable
from games.selectors import round_status
from games.services import round_delete


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Rounds are read-only here: their state changes only through play."""

    list_display = (
        "id",
        "player",
        "challenge",
        "mode",
        "ranked",
        "status_shown",
        "total",
        "started_at",
    )
    list_filter = ("status", "ranked", "mode", ("challenge__date", admin.DateFieldListFilter))
    search_fields = ("player__username", "id")
    list_select_related = ("player", "challenge")
    readonly_fields = (
        "id",
        "player",
        "mode",
        "challenge",
        "ranked",
        "status",
        "ruleset",
        "options",
        "level",
        "actions",
        "total",
        "started_at",
        "updated_at",
        "completed_at",
    )
    exclude = ("seed", "snapshot", "opponent")  # the snapshots carry the seed

    @admin.display(description=_("status"), ordering="status")
    def status_shown(self, obj: Round) -> str:
        # As every read shows it: expired from the reveal on, before a job stores it.
        return round_status(obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        round_delete(rnd=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.select_related("challenge"):
            round_delete(rnd=rnd)


@admin.register(StrategyTable)
class StrategyTableAdmin(admin.ModelAdmin):
    """The strategy tables the service has needed and how far each build has come
    (built by the worker's `tables` queue; `python manage.py solve RULESET` too)."""

    list_display = ("ruleset", "options", "status", "progress_shown", "requested_at", "finished_at")
    list_filter = ("status", "ruleset")
    readonly_fields = (
        "key",
        "ruleset",
        "options",
        "status",
        "progress_shown",
        "states_done",
        "states_total",
        "requested_at",
        "started_at",
        "finished_at",
        "updated_at",
        "error",
    )
    fields = readonly_fields

    @admin.display(description=_("progress"))
    def progress_shown(self, obj: StrategyTable) -> str:
        return f"{obj.progress:.0%}"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
