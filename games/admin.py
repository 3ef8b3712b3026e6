from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import Party, Round, ShareCode, StrategyTable
from games.selectors import round_status
from games.services import round_delete, share_codes_revoke
from games.tables import table_deletable, table_delete


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

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Custom tables only, and not while one is being built; the file goes too.
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or table_deletable(obj))

    def delete_model(self, request: HttpRequest, obj: StrategyTable) -> None:
        table_delete(row=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[StrategyTable]) -> None:
        for row in queryset:
            if table_deletable(row):
                table_delete(row=row)


class PlaysInline(admin.TabularInline):
    model = Round
    fk_name = "share"
    fields = ("player", "mode", "view", "status_shown", "total", "started_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = "plays"

    @admin.display(description="status")
    def status_shown(self, obj: Round) -> str:
        return round_status(obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ShareCode)
class ShareCodeAdmin(admin.ModelAdmin):
    """Friend codes: who shared which round, when, whether revoked, and who played it."""

    list_display = ("code", "sharer", "round", "created_at", "revoked_at", "plays_count")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("=code", "round__player__username")
    list_select_related = ("round__player",)
    readonly_fields = ("code", "round", "created_at", "revoked_at")
    fields = readonly_fields
    inlines = [PlaysInline]
    actions = ["revoke"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ShareCode]:
        codes: QuerySet[ShareCode] = super().get_queryset(request)
        return codes.annotate(play_count=Count("plays"))

    @admin.display(description="sharer", ordering="round__player__username")
    def sharer(self, obj: ShareCode) -> str:
        return obj.round.player.username

    @admin.display(description="plays", ordering="play_count")
    def plays_count(self, obj: ShareCode) -> int:
        count: int = getattr(obj, "play_count", 0)
        return count

    @admin.action(description="Revoke the selected codes (no new rounds; 404 but to who played)")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ShareCode]) -> None:
        revoked = share_codes_revoke(codes=queryset)
        self.message_user(request, f"Revoked {revoked} code(s).", messages.SUCCESS)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatsInline(admin.TabularInline):
    model = Round
    fk_name = "party"
    fields = ("seat", "seat_name", "status", "total", "completed_at")
    readonly_fields = fields
    ordering = ("seat",)
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Party)
class PartyAdmin(admin.ModelAdmin):
    """Parties, read-only: their seats are rounds played in turn."""

    list_display = ("id", "owner", "ruleset", "status", "current_seat", "created_at")
    list_filter = ("status", "ruleset")
    search_fields = ("owner__username", "=id")
    list_select_related = ("owner",)
    readonly_fields = (
        "id",
        "owner",
        "ruleset",
        "options",
        "status",
        "current_seat",
        "created_at",
        "completed_at",
    )
    fields = readonly_fields
    inlines = [SeatsInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
