from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import User
from accounts.services import user_delete
from leaderboards.models import BoardEntry


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "language", "time_zone")}),
    )
    list_display = ("username", "display_name", "language", "date_joined", "is_staff")
    search_fields = ("username", "display_name", "email")

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        # Board lines are derived data, read-only in their own admin, and leave the
        # boards with the player (user_delete); they need no delete permission.
        perms_needed.discard(BoardEntry._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        user_delete(user=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            user_delete(user=user)
