import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from config.admin_filters import ListFilterLookupsOnly
from games import skill
from games.models import AnalysisChunk, Party, Round, ShareCode, StrategyTable
from games.selectors import round_status
from games.services import round_delete, share_codes_revoke
from games.tables import table_deletable, table_delete


class FairPlayFilter(admin.SimpleListFilter):
    """Skill and luck (games.skill): the rounds to review, and where the analysis is."""

    title = _("fair play")
    parameter_name = "fair_play"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            (
                "flagged",
                gettext("Flagged for review (lost under %(limit)s points)")
                % {"limit": settings.FAIR_PLAY_LOSS},
            ),
            ("excluded", gettext("Excluded from the boards")),
            ("analysed", gettext("Analysed")),
            ("unanalysed", gettext("Not analysed yet")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> QuerySet[Round]:
        value = self.value()
        if value == "flagged":
            return queryset.filter(skill.flagged())
        if value == "excluded":
            return queryset.filter(excluded_at__isnull=False)
        if value == "analysed":
            return queryset.filter(loss__isnull=False)
        if value == "unanalysed":
            return queryset.filter(ranked=True, status=Round.Status.COMPLETED, loss__isnull=True)
        return queryset


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the admin log of each round."),
    )


@admin.register(Round)
class RoundAdmin(ListFilterLookupsOnly):
    """Rounds are read-only here: their state changes only through play."""

    list_display = (
        "id",
        "player",
        "challenge",
        "mode",
        "ranked",
        "status_shown",
        "total",
        "loss",
        "luck",
        "excluded_shown",
        "started_at",
    )
    list_filter = (
        FairPlayFilter,
        "status",
        "ranked",
        "mode",
        ("challenge__date", admin.DateFieldListFilter),
    )
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
        "action_log",
        "total",
        "started_at",
        "updated_at",
        "completed_at",
        "loss",
        "luck",
        "analysed_at",
        "excluded_at",
    )
    exclude = ("seed", "snapshot", "opponent")  # the snapshots carry the seed
    actions = ["exclude_from_boards", "reinstate_on_boards"]

    @admin.display(description=_("status"), ordering="status")
    def status_shown(self, obj: Round) -> str:
        # As every read shows it: expired from the reveal on, before a job stores it.
        return round_status(obj)

    @admin.display(description=_("excluded"), boolean=True, ordering="excluded_at")
    def excluded_shown(self, obj: Round) -> bool:
        return obj.excluded_at is not None

    @admin.display(description=_("actions"))
    def action_log(self, obj: Round) -> str:
        # The snapshot itself is not shown (it holds the seed); its log is.
        return json.dumps(obj.actions)

    def has_exclude_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.exclude_round")

    @admin.action(
        description=_("Exclude the selected ranked rounds from every board"),
        permissions=["exclude"],
    )
    def exclude_from_boards(
        self, request: HttpRequest, queryset: QuerySet[Round]
    ) -> HttpResponse | None:
        return self._recount(request, queryset, exclude=True)

    @admin.action(
        description=_("Reinstate the selected rounds on the boards"), permissions=["exclude"]
    )
    def reinstate_on_boards(
        self, request: HttpRequest, queryset: QuerySet[Round]
    ) -> HttpResponse | None:
        return self._recount(request, queryset, exclude=False)

    def _recount(
        self, request: HttpRequest, queryset: QuerySet[Round], *, exclude: bool
    ) -> HttpResponse | None:
        """Ask for the reason, then exclude (or reinstate) each round through
        ``games.skill`` and keep the reason in its admin log."""
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(
                request,
                "admin/games/round/recount.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Exclude rounds from the boards")
                    if exclude
                    else _("Reinstate rounds on the boards"),
                    "opts": self.model._meta,
                    "rounds": queryset.select_related("player", "challenge"),
                    "form": form,
                    "action": request.POST["action"],
                    "action_checkbox_name": ACTION_CHECKBOX_NAME,
                    "exclude": exclude,
                },
            )
        reason = form.cleaned_data["reason"]
        changed = 0
        for rnd in queryset.select_related("challenge"):
            done = skill.round_exclude(rnd=rnd) if exclude else skill.round_reinstate(rnd=rnd)
            if done:
                changed += 1
                template = (
                    gettext("Excluded from every board: %(reason)s")
                    if exclude
                    else gettext("Reinstated on the boards: %(reason)s")
                )
                self.log_change(request, rnd, template % {"reason": reason})
        skipped = queryset.count() - changed
        self.message_user(
            request,
            (
                ngettext(
                    "%(count)d round excluded from every board.",
                    "%(count)d rounds excluded from every board.",
                    changed,
                )
                if exclude
                else ngettext(
                    "%(count)d round reinstated on the boards.",
                    "%(count)d rounds reinstated on the boards.",
                    changed,
                )
            )
            % {"count": changed},
            messages.SUCCESS,
        )
        if skipped:
            self.message_user(
                request,
                ngettext(
                    "%(count)d round left as it was (not ranked, or already so).",
                    "%(count)d rounds left as they were (not ranked, or already so).",
                    skipped,
                )
                % {"count": skipped},
                messages.WARNING,
            )
        return None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # A party seat's round goes with its party (the party admin): alone, the party
        # would wait for that seat's turn for ever. Listed as protected, Django refuses
        # the delete, a bulk one holding it included.
        to_delete, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        seats = [f"{rnd} (a seat of party {rnd.party_id})" for rnd in objs if rnd.party_id]
        return to_delete, counts, perms_needed, [*protected, *seats]

    def delete_model(self, request: HttpRequest, obj: Round) -> None:
        round_delete(rnd=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.select_related("challenge"):
            round_delete(rnd=rnd)


@admin.register(StrategyTable)
class StrategyTableAdmin(ListFilterLookupsOnly):
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
    verbose_name_plural = _("plays")

    @admin.display(description=_("status"))
    def status_shown(self, obj: Round) -> str:
        return round_status(obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ShareCode)
class ShareCodeAdmin(ListFilterLookupsOnly):
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

    @admin.display(description=_("sharer"), ordering="round__player__username")
    def sharer(self, obj: ShareCode) -> str:
        return obj.round.player.username

    @admin.display(description=_("plays"), ordering="play_count")
    def plays_count(self, obj: ShareCode) -> int:
        count: int = getattr(obj, "play_count", 0)
        return count

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        # The list is read-only to everyone (has_change_permission), yet revoking is a
        # change: the model's change permission allows it, not the view permission.
        return request.user.has_perm("games.change_sharecode")

    @admin.action(
        # Revoked: no new rounds from them, 404 but to who played.
        description=_("Revoke the selected codes"),
        permissions=["revoke"],
    )
    def revoke(self, request: HttpRequest, queryset: QuerySet[ShareCode]) -> None:
        revoked = share_codes_revoke(codes=queryset)
        self.message_user(
            request,
            ngettext("%(count)d code revoked.", "%(count)d codes revoked.", revoked)
            % {"count": revoked},
            messages.SUCCESS,
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Revoked, a code stays readable to who played it; deleted, it would be gone.
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
class PartyAdmin(ListFilterLookupsOnly):
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


@admin.register(AnalysisChunk)
class AnalysisChunkAdmin(ListFilterLookupsOnly):
    """How far the analysis of each revealed day has come (games.skill): read-only."""

    list_display = (
        "challenge",
        "status",
        "rounds",
        "analysed",
        "failed",
        "claimed_at",
        "updated_at",
    )
    list_filter = ("status", ("challenge__date", admin.DateFieldListFilter))
    list_select_related = ("challenge",)
    readonly_fields = (
        "challenge",
        "first_id",
        "next_id",
        "status",
        "rounds",
        "analysed",
        "failed",
        "created_at",
        "claimed_at",
        "updated_at",
    )
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
