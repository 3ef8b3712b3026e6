from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

from accounts.models import User
from accounts.services import user_delete
from config.admin_filters import ListFilterLookupsOnly
from config.throttling import over_budget


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in spends the ``login`` budget of the pages' and the API's log-in
    (per client address, else per player): without it, the admin's form let anyone try
    an operator's password without limit. Over the budget no password is checked."""

    def clean(self) -> dict[str, Any]:
        refused = over_budget(self.request, "login")  # type: ignore[arg-type]
        if refused is not None:
            raise ValidationError(refused[0], code="throttled")
        return super().clean()


admin.site.login_form = AdminLoginForm


def _is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def _privileged(user: User) -> bool:
    return user.is_staff or user.is_superuser


@admin.register(User)
class UserAdmin(ListFilterLookupsOnly, BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Player settings"), {"fields": ("display_name", "language", "time_zone")}),
    )
    list_display = ("username", "display_name", "language", "date_joined", "is_staff")
    search_fields = ("username", "display_name", "email")

    # Privileges are a superuser's to grant, and a staff account (a superuser's too) a
    # superuser's to change: the permission to change players (given to rename one,
    # docs/operations.md) let a staff member make themselves a superuser, give themselves
    # any permission, or set another operator's password and log in as them.
    PRIVILEGES = ("is_staff", "is_superuser", "groups", "user_permissions")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_readonly_fields(request, obj)
        return fields if _is_superuser(request) else (*fields, *self.PRIVILEGES)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and _privileged(obj) and not _is_superuser(request):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Asked for each account a bulk delete would take too: one refused refuses it.
        if obj is not None and _privileged(obj) and not _is_superuser(request):
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # Derived data (board lines) is read-only in its own admin and leaves with the
        # player (user_delete); its admin says so with `deleted_with_player`.
        for model, model_admin in self.admin_site._registry.items():
            if getattr(model_admin, "deleted_with_player", False):
                perms_needed.discard(model._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        user_delete(user=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            user_delete(user=user)


# knox's own admin lists each token's digest and lets an operator create one (shown in a
# message); here an operator sees whose log-ins exist and can end them, and nothing that
# would let anyone in.
admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(ListFilterLookupsOnly):
    """API log-ins: the player, when it began and whether it expires. The key is never
    stored, only its SHA-512 digest, which cannot be turned back into a key; the digest
    is the table's primary key, so the admin's links and a row's name carry it. The
    key's indexed prefix is not shown."""

    list_display = ("user", "created", "expiry")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    fields = ("user", "created", "expiry")
    readonly_fields = fields
    ordering = ("-created",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
