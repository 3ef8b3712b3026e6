from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "language", "time_zone")}),
    )
    list_display = ("username", "display_name", "language", "date_joined", "is_staff")
    search_fields = ("username", "display_name", "email")
