"""Every page form posted with a stale CSRF token (the visitor logged in in another
tab, which changes the CSRF cookie): nothing is done, and the browser goes back
to the page the form is on, which says so in the page's language, in place of Django's
bare English 403. A post without a token or from another site stays a 403. (The roll
and score forms, which also keep the held dice: tests/web/test_pages.py.)"""

from __future__ import annotations

import re
import uuid
from html import unescape

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.models import User
from daily import clock
from games import services as game_services
from games.models import Party, Round, ShareCode
from tests.factories import make_player
from tests.web.test_modes import play_out
from tests.web.test_pages import PASSWORD, text

pytestmark = pytest.mark.django_db(transaction=True)

# The stale answer's message (web.helpers.STALE_PAGE) in the languages the tests use.
SAID = {
    "da": "Siden var forældet efter en ændring i et andet vindue, så intet blev gjort.",
    "de": "Diese Seite war nach einer Änderung in einem anderen Fenster veraltet, daher ist "
    "nichts passiert.",
    "es": "Esta página estaba desactualizada tras un cambio en otra ventana, así que no se "
    "hizo nada.",
    "fr": "Cette page n\u2019était plus à jour après un changement dans une autre fenêtre, rien "
    "n\u2019a donc été fait.",
    "it": "Questa pagina non era aggiornata dopo una modifica in un\u2019altra finestra, quindi "
    "non è stato fatto nulla.",
    "ja": "別のウィンドウでの変更によりこのページは古くなっていたため、何も行われませんでした。",
    "nl": "Deze pagina was verouderd na een wijziging in een ander venster, dus er is niets "
    "gedaan.",
    "pl": "Ta strona była nieaktualna po zmianie w innym oknie, więc nic nie zostało zrobione.",
    "sv": "Sidan var inaktuell efter en ändring i ett annat fönster, så inget gjordes.",
}


class StaleTab:
    """A browser tab showing a page with its forms' CSRF token, whose CSRF cookie
    another tab's log-in then changed (``django.middleware.csrf.rotate_token``)."""

    def __init__(self, page: str, player: User | None = None, language: str = "") -> None:
        self.client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
        if player is not None:
            self.client.force_login(player)
        shown = text(self.client.get(page, follow=True))
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown)[1]
        self.client.cookies["csrftoken"] = "a" * 32  # the other tab's log-in set another

    def post(self, url: str, data: dict | None = None, **headers: str):
        return self.client.post(url, {**(data or {}), "csrfmiddlewaretoken": self.token}, **headers)

    def says(self, answer, target: str, language: str) -> None:
        """``answer`` went back to ``target``, whose page says nothing was done."""
        assert answer.status_code == 302, answer.status_code
        assert answer["Location"] == target
        assert SAID[language] in unescape(text(self.client.get(target, follow=True)))


def player(username: str, language: str) -> User:
    return make_player(username, language=language)[0]


def solo_round(owner: User) -> Round:
    game = game_services.game_start(player=owner, mode=Round.Mode.SOLO)
    assert isinstance(game, Round)
    return game


def test_starting_the_daily_from_a_stale_page_starts_no_round():
    ada = player("ada", "es")
    tab = StaleTab("/", ada)
    tab.says(tab.post(f"/daily/{clock.today()}/play/"), "/", "es")
    assert not Round.objects.exists()


def test_sharing_from_a_stale_page_makes_no_code_and_another_players_round_is_not_found():
    ada = player("ada", "fr")
    done = play_out(ada, solo_round(ada))
    page = f"/play/{done.id}/"
    tab = StaleTab(page, ada)
    tab.says(tab.post(f"{page}share/"), page, "fr")
    other = StaleTab("/", player("bob", "fr"))
    assert other.post(f"{page}share/").status_code == 404  # as sharing it answers
    assert not ShareCode.objects.exists()


def test_a_new_game_from_a_stale_form_starts_none_and_keeps_the_ruleset():
    ada = player("ada", "de")
    tab = StaleTab("/games/new/solo/?ruleset=yatzy", ada)
    posted = {"ruleset": "yatzy", "request_key": "k" * 32}
    tab.says(tab.post("/games/new/solo/", posted), "/games/new/solo/?ruleset=yatzy", "de")
    tab.says(tab.post("/games/new/party/", {"ruleset": "chess"}), "/games/new/party/", "de")
    assert tab.post("/games/new/chess/", posted).status_code == 404  # as the form answers
    assert not Round.objects.exists() and not Party.objects.exists()


def test_giving_up_from_a_stale_page_keeps_the_game():
    ada = player("ada", "it")
    game = solo_round(ada)
    tab = StaleTab("/games/", ada)
    tab.says(tab.post(f"/games/{game.id}/give-up/"), "/games/", "it")
    game.refresh_from_db()
    assert game.status == Round.Status.IN_PROGRESS


def test_a_friends_round_and_a_revoke_from_a_stale_page_do_nothing():
    sharer = player("sharer", "pl")
    code = game_services.share_create(
        round_id=play_out(sharer, solo_round(sharer)).id, player=sharer
    ).code
    page = f"/f/{code}"
    friend = player("friend", "nl")
    tab = StaleTab(page, friend)
    tab.says(tab.post(f"{page}/play/", {"view": "blind"}), page, "nl")
    assert not Round.objects.filter(player=friend).exists()
    assert tab.post(f"{page}/revoke/").status_code == 404  # not their code: as revoking
    own = StaleTab(page, sharer)
    own.says(own.post(f"{page}/revoke/"), page, "pl")
    assert ShareCode.objects.get(code=code).revoked_at is None


def test_a_roll_from_a_tab_logged_out_elsewhere_goes_to_the_game_which_asks_to_log_in():
    ada = player("ada", "en")
    game = solo_round(ada)
    page = f"/play/{game.id}/"
    tab = StaleTab(page, ada, language="es")
    tab.client.logout()  # in another tab, which then logged in and out again
    tab.client.cookies["csrftoken"] = "a" * 32
    answer = tab.post(f"{page}roll/", {"turn": 0, "roll": 0, "hold": ["1"]})
    assert answer["Location"] == page
    tab.says(answer, page, "es")  # on the log-in page, in the visitor's language
    assert tab.client.get(page)["Location"] == f"/accounts/login/?next={page}"
    game.refresh_from_db()
    assert game.snapshot["rolls_used"] == 0


def test_logging_in_from_a_stale_page_logs_nobody_in_and_keeps_a_safe_next():
    """The classic: a log-in page open in a tab whose cookie another tab changed."""
    User.objects.create_user(username="ada", password=PASSWORD)
    tab = StaleTab("/accounts/login/?next=/games/", language="fr")
    credentials = {"username": "ada", "password": PASSWORD}
    login = "/accounts/login/"
    tab.says(tab.post(login, {**credentials, "next": "/games/"}), f"{login}?next=/games/", "fr")
    elsewhere = {**credentials, "next": "https://elsewhere.example/"}
    tab.says(tab.post(login, elsewhere), login, "fr")
    assert "_auth_user_id" not in tab.client.session


def test_the_admins_log_in_from_a_stale_page_logs_nobody_in_and_says_so():
    """The admin's log-in form answered a stale token with Django's bare English 403;
    it goes back to its page, on its way to a ``next`` of this site, in the page's
    language."""
    User.objects.create_superuser(username="root", password=PASSWORD)
    login, back = "/admin/login/", "/admin/games/round/"
    tab = StaleTab(f"{login}?next={back}", language="de")
    credentials = {"username": "root", "password": PASSWORD}
    tab.says(tab.post(login, {**credentials, "next": back}), f"{login}?next={back}", "de")
    elsewhere = {**credentials, "next": "https://elsewhere.example/"}
    tab.says(tab.post(login, elsewhere), login, "de")
    assert "_auth_user_id" not in tab.client.session
    # The page it went back to carries a fresh token: its log-in goes through.
    page = text(tab.client.get(f"{login}?next={back}"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    answer = tab.client.post(login, {**credentials, "next": back, "csrfmiddlewaretoken": token})
    assert answer.status_code == 302 and answer["Location"] == back


def test_registering_from_a_stale_page_creates_no_account():
    tab = StaleTab("/accounts/register/", language="sv")
    posted = {"username": "newcomer", "password": PASSWORD}
    tab.says(tab.post("/accounts/register/", posted), "/accounts/register/", "sv")
    assert not User.objects.filter(username="newcomer").exists()


def test_logging_out_from_a_stale_page_keeps_the_player_logged_in():
    ada = player("ada", "ja")
    tab = StaleTab("/settings/", ada)  # the header's log-out form
    tab.says(tab.post("/accounts/logout/"), "/accounts/logout/", "ja")
    assert tab.client.session["_auth_user_id"] == str(ada.pk)


def test_settings_from_a_stale_page_are_not_saved():
    ada = player("ada", "da")
    tab = StaleTab("/settings/", ada)
    posted = {"display_name": "Changed", "language": "en", "time_zone": "UTC", "ruleset": "yatzy"}
    tab.says(tab.post("/settings/", posted), "/settings/", "da")
    ada.refresh_from_db()
    assert (ada.display_name, ada.language, ada.ruleset) == ("", "da", "maxi")


def test_the_language_switch_from_a_stale_page_goes_back_in_the_pages_language():
    ada = player("ada", "de")
    tab = StaleTab("/games/", ada)
    answer = tab.post("/i18n/setlang/", {"language": "fr", "next": "/games/"})
    tab.says(answer, "/games/", "de")  # the page's language: nothing was changed
    assert "django_language" not in answer.cookies
    ada.refresh_from_db()
    assert ada.language == "de"
    visitor = StaleTab("/rules/", language="es")
    for foreign in ("https://elsewhere.example/", "//elsewhere.example/", ""):
        tab_answer = visitor.post("/i18n/setlang/", {"language": "fr", "next": foreign})
        visitor.says(tab_answer, "/", "es")


def test_only_a_stale_token_is_answered_a_missing_one_or_another_site_is_a_403():
    ada = player("ada", "en")
    tab = StaleTab("/settings/", ada)
    posted = {"display_name": "Changed", "language": "en", "time_zone": "UTC", "ruleset": "maxi"}
    forged = tab.post("/settings/", posted, HTTP_ORIGIN="https://elsewhere.example")
    assert forged.status_code == 403
    assert tab.client.post("/settings/", posted).status_code == 403  # no token
    api = tab.client.post(  # the API's own JSON refusal, as before
        "/api/v1/games/",
        {"mode": "solo"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=tab.token,
    )
    assert api.status_code == 403 and api.json()["code"] == "permission_denied"
    del tab.client.cookies["csrftoken"]  # no cookie at all: no stale tab of this browser
    assert tab.post("/settings/", posted).status_code == 403
    visitor = StaleTab("/accounts/login/")
    assert visitor.client.post("/accounts/login/", {"username": "ada"}).status_code == 403
    ada.refresh_from_db()
    assert ada.display_name == "" and not Round.objects.exists()


def _page_routes() -> list[str]:
    """Every page address (the site's and the language switch), its arguments filled."""
    routes = []
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == "web":
            routes += [str(page.pattern) for page in entry.url_patterns]
        elif isinstance(entry, URLPattern) and entry.name == "set_language":
            routes.append(str(entry.pattern))
    fill = {
        "uuid": str(uuid.uuid4()),
        "isodate": str(clock.today()),
        "year": str(clock.today().year),
        "str": "x",
    }
    return ["/" + re.sub(r"<(\w+):\w+>", lambda m: fill[m[1]], r) for r in routes]


def test_every_page_that_takes_a_post_answers_a_stale_one():
    """A page whose stale post is still Django's 403 is one that takes no post at all
    (405): a new form's view that registers no answer fails here."""
    ada = player("ada", "en")
    fresh = Client()
    fresh.force_login(ada)
    tab = StaleTab("/settings/", ada)
    refused = []
    for route in _page_routes():
        if tab.post(route).status_code == 403:
            refused.append(route)
            assert fresh.post(route).status_code == 405, route
    assert "/" in refused and "/settings/" not in refused
