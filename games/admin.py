from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import Round
from games.services import round_delete


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Rounds are read-only here: their state changes only through play."""

    list_display = ("id", "player", "challenge", "mode", "ranked", "status", "total", "started_at")
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
        "actions",
        "total",
        "started_at",
        "updated_at",
        "completed_at",
    )
    exclude = ("seed", "snapshot")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        round_delete(rnd=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.select_related("challenge"):
            round_delete(rnd=rnd)
