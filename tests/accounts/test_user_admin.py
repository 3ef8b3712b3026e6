"""The players' admin: a staff member who may change players (to rename one) changes
players only; privileges and operators' accounts are a superuser's to change."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from tests.factories import make_player, staff_client

pytestmark = pytest.mark.django_db

PASSWORD = {
    "usable_password": "true",
    "password1": "another-horse-battery-7",
    "password2": "another-horse-battery-7",
}


def change_form(user: User, **overrides: object) -> dict[str, object]:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "language": user.language,
        "time_zone": user.time_zone,
        "is_active": "on",
        "is_staff": "on",
        "is_superuser": "on",
        "user_permissions": [],
        "date_joined_0": "2026-11-01",
        "date_joined_1": "12:00:00",
        **overrides,
    }


@pytest.fixture
def operator() -> tuple[User, Client]:
    return staff_client("accounts.view_user", "accounts.change_user", "accounts.delete_user")


def test_a_staff_member_cannot_make_themselves_a_superuser(operator):
    staffer, client = operator
    page = client.get(f"/admin/accounts/user/{staffer.pk}/change/")
    # Their own account is an operator's: not theirs to change here.
    assert page.status_code == 200 and 'name="is_superuser"' not in page.content.decode()
    client.post(f"/admin/accounts/user/{staffer.pk}/change/", change_form(staffer))
    staffer.refresh_from_db()
    assert not staffer.is_superuser


def test_a_staff_member_renames_a_player_but_grants_nothing(operator):
    _, client = operator
    player, _ = make_player("ann")
    page = client.get(f"/admin/accounts/user/{player.pk}/change/").content.decode()
    assert 'name="username"' in page
    for field in ("is_staff", "is_superuser", "groups", "user_permissions"):
        assert f'name="{field}"' not in page
    response = client.post(
        f"/admin/accounts/user/{player.pk}/change/", change_form(player, username="annie")
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.username == "annie"
    assert not player.is_staff and not player.is_superuser


def test_a_staff_member_cannot_set_an_operators_password_or_delete_them(operator):
    staffer, client = operator
    # Every delete permission: only the account's own privilege stops the delete.
    staffer.user_permissions.add(*Permission.objects.filter(codename__startswith="delete_"))
    boss = User.objects.create_superuser("boss", "boss@example.com", "a-long-admin-password")
    colleague, _ = make_player("colleague", is_staff=True)
    for other in (boss, colleague):
        assert client.get(f"/admin/accounts/user/{other.pk}/password/").status_code == 403
        client.post(f"/admin/accounts/user/{other.pk}/password/", PASSWORD)
        other.refresh_from_db()
        assert not other.check_password(PASSWORD["password1"])
        delete = client.post(f"/admin/accounts/user/{other.pk}/delete/", {"post": "yes"})
        assert delete.status_code == 403
        bulk = {"action": "delete_selected", "_selected_action": [other.pk], "post": "yes"}
        client.post("/admin/accounts/user/", bulk)
        assert User.objects.filter(pk=other.pk).exists()


def test_a_superuser_grants_and_changes_operators(admin_client):
    colleague, _ = make_player("colleague", is_staff=True)
    page = admin_client.get(f"/admin/accounts/user/{colleague.pk}/change/").content.decode()
    assert 'name="is_superuser"' in page
    admin_client.post(f"/admin/accounts/user/{colleague.pk}/password/", PASSWORD)
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD["password1"])
