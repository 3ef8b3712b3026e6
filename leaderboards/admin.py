from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from config.admin_filters import ListFilterLookupsOnly
from daily import clock
from leaderboards import jobs, selectors, services
from leaderboards.models import BoardEntry, Season


class SeasonStateFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("upcoming", pgettext_lazy("season", "Upcoming")),
            ("current", pgettext_lazy("season", "Current")),
            ("past", pgettext_lazy("season", "Past")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Season]) -> QuerySet[Season]:
        today = clock.today()
        if self.value() == "upcoming":
            return queryset.filter(start_date__gt=today)
        if self.value() == "current":
            return queryset.filter(start_date__lte=today, end_date__gte=today)
        if self.value() == "past":
            return queryset.filter(end_date__lt=today)
        return queryset


@admin.register(Season)
class SeasonAdmin(ListFilterLookupsOnly):
    """Seasons may overlap; each has its own boards. Saving a new season, or new dates,
    rebuilds its boards in the background; so does the "recompute" action."""

    list_display = ("name", "slug", "start_date", "end_date", "theme", "players")
    list_filter = (SeasonStateFilter, "theme", ("start_date", admin.DateFieldListFilter))
    search_fields = ("name", "slug", "theme")
    prepopulated_fields = {"slug": ("name",)}
    # No date_hierarchy: Django's year link for a season in 9999 computes the year after
    # it and answered 500; the start date's list filter above does the same job.
    actions = ["recompute_boards"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Season]:
        return selectors.seasons_with_player_counts(super().get_queryset(request))

    @admin.display(description=_("players"), ordering="player_count")
    def players(self, obj: Season) -> int:
        count: int = getattr(obj, "player_count", 0)  # annotated by the queryset
        return count

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change or {"start_date", "end_date"} & set(form.changed_data):
            jobs.season_boards_schedule(season=obj)

    def delete_model(self, request: HttpRequest, obj: Season) -> None:
        services.season_delete(season=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            services.season_delete(season=season)

    @admin.action(
        description=_("Recompute the boards of the selected seasons"), permissions=["change"]
    )
    def recompute_boards(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        for season in queryset:
            jobs.season_boards_schedule(season=season)
        count = queryset.count()
        self.message_user(
            request,
            ngettext(
                "Recomputing the boards of %(count)d season.",
                "Recomputing the boards of %(count)d seasons.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(BoardEntry)
class BoardEntryAdmin(ListFilterLookupsOnly):
    """Derived data, read-only: rebuilt from the rounds by the reconcile job."""

    # Lines leave the boards with their player (accounts.services.user_delete), so
    # deleting a player needs no delete permission on them.
    deleted_with_player = True

    list_display = ("board", "player", "value", "achieved_at")
    search_fields = ("=board", "player__username")
    list_select_related = ("player",)
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
