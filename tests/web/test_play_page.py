"""The play and party pages of part 3 through Django's test client: the keys beside the
boxes, a scratch's question without JavaScript, the result to paste in the player's
language, the rank that comes a moment later, "Check the dice", the revoke question,
the hint's progress while its table is built, the party's hint, and the installable
app (manifest, service worker, offline page)."""

from __future__ import annotations

import datetime as dt
import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

import yatzy
from daily import clock
from games import selectors as game_selectors
from games import services as game_services
from games import tables
from games.models import Party, Round, ShareCode, StrategyTable
from leaderboards import services as board_services
from tests.leaderboards.conftest import ranked
from tests.web.test_modes import defaults, new_game, play_out, round_of
from tests.web.test_pages import boxes, logged_in, start, text
from web.pages import app

pytestmark = pytest.mark.django_db(transaction=True)


def rolled(client: Client, path: str) -> str:
    rnd = round_of(path)
    client.post(f"{path}roll/", {"turn": rnd.snapshot["turn"], "roll": 0})
    return text(client.get(path))


# -- the keys and the scratch -------------------------------------------------------------


def test_every_open_box_has_its_own_key_shown_beside_it_never_r_or_h():
    _, client = logged_in()
    page = rolled(client, start(client))
    keys = re.findall(r'data-box="(\w+)"[^>]*aria-keyshortcuts="(\w)"', page)
    assert len(keys) == 20 and len({key for _, key in keys}) == 20
    assert not {"r", "h"} & {key for _, key in keys}
    shown = re.findall(r'<kbd class="box-key" aria-hidden="true">(\w)</kbd>', page)
    assert shown == [key.upper() for _, key in keys]  # in the boxes' printed order
    assert re.search(r'data-action="roll"[^>]*autofocus', page)  # the keyboard starts on Roll


def test_without_javascript_a_scratch_asks_on_the_page_and_only_the_answer_stores_it():
    _, client = logged_in()
    path = start(client)
    page = rolled(client, path)
    zero = next(box for box, points in boxes(page).items() if points == 0)
    assert re.search(rf'name="scratch" value="{zero}"[^>]*data-box="{zero}"', page)
    asked = text(client.get(path, {"scratch": zero, "hold": "1"}))
    button = re.search(rf'<button[^>]*data-box="{zero}"[^>]*>', asked).group(0)
    assert 'form="score-form"' in button and "data-armed" in button and "autofocus" in button
    assert "Score 0 here? Press again to confirm." in asked
    assert not re.search(r'data-action="roll"[^>]*autofocus', asked)  # focus on the question
    assert 'href="/play/' in asked and "?hold=1" in unescape(asked)  # keep it open, holds kept
    rnd = round_of(path)
    assert rnd.snapshot["scorecard"][zero] is None  # asking stores nothing
    # A box that scores points, or an unknown one, is never asked about.
    some = next(box for box, points in boxes(page).items() if points > 0)
    for other in (some, "nonsense"):
        assert "data-armed" not in text(client.get(path, {"scratch": other}))
    client.post(f"{path}score/", {"turn": rnd.snapshot["turn"], "category": zero})
    assert round_of(path).snapshot["scorecard"][zero] == 0


def test_the_bonus_row_says_what_is_still_to_go_only_while_the_bonus_can_be_reached():
    user, client = logged_in()
    page = rolled(client, start(client))
    assert "84 to go" in page  # Maxi's empty upper section
    done = ranked(user, clock.today() - dt.timedelta(days=1), 100)
    assert done.snapshot["bonus"] == 0 and done.snapshot["upper_total"] < 84
    page = text(client.get(f"/play/{done.id}/"))
    # Every upper box is filled short of 84: "N to go" would promise a bonus that is gone.
    assert " to go" not in page


# -- the result to paste -----------------------------------------------------------------


def result_text(client: Client, path: str) -> str:
    page = unescape(text(client.get(path)))
    return re.search(r"<textarea[^>]*data-result-text>(.*?)</textarea>", page, re.S).group(1)


def test_a_finished_daily_has_its_result_to_paste_in_the_players_language():
    user, client = logged_in("ada", language="de")
    rnd = ranked(user, clock.today(), 287)
    page = unescape(text(client.get(f"/play/{rnd.id}/")))
    result = result_text(client, f"/play/{rnd.id}/")
    lines = result.split("\n")
    assert lines[1] == f"287 Punkte · Bonus {rnd.snapshot['bonus']} · Platz 1 von 1"
    assert lines[2] == "http://testserver/"
    assert 'data-action="share-result"' in page
    for secret in (rnd.challenge.commitment, bytes(rnd.seed).hex()):
        assert secret not in result  # no seed, nothing to spoil
    assert not re.search(r"\b[1-6] [1-6] [1-6]\b", result)  # no dice


def test_a_practice_round_says_where_it_would_rank_and_other_games_have_no_rank():
    user, client = logged_in()
    other, _ = logged_in("bo")
    yesterday = clock.today() - dt.timedelta(days=1)
    ranked(other, yesterday, 300)
    replay = game_services.round_start_daily(player=user, day=yesterday)[0]
    play_out(user, replay)
    result = result_text(client, f"/play/{replay.id}/")
    assert result.split("\n")[1].endswith(" · practice: would rank 2 of 1")
    # Today: the day's line is the ranked round; a later practice round says so.
    ranked(user, clock.today(), 250)
    practice = game_services.round_start_daily(player=user, day=clock.today())[0]
    play_out(user, practice)
    line = result_text(client, f"/play/{practice.id}/").split("\n")[1]
    assert line.endswith(" · practice: not ranked") and "rank 1" not in line
    solo = new_game(client, "solo", ruleset="yatzy", **defaults("yatzy"))
    play_out(user, round_of(solo))
    result = result_text(client, solo)
    assert result.startswith("Yatzy: a solo game\n") and "rank" not in result


def test_a_finished_daily_whose_rank_is_not_on_the_board_yet_asks_the_page_again():
    user, client = logged_in()
    rnd = ranked(user, clock.today(), 199, record=False)
    page = text(client.get(f"/play/{rnd.id}/"))
    assert "data-rank-pending" in page and f'data-poll-url="/play/{rnd.id}/"' in page
    assert "data-rank-line" not in page
    board_services.board_record_round(round_id=str(rnd.id))
    page = text(client.get(f"/play/{rnd.id}/"))
    assert "data-rank-pending" not in page and "Rank 1 of 1 on the day" in unescape(page)


# -- check the dice, revoke --------------------------------------------------------------


def test_check_the_dice_has_the_seed_and_moves_only_once_they_may_be_shown():
    user, client = logged_in()
    path = start(client)
    page = rolled(client, path)
    assert "How to check" in page and "data-dice-check " not in page  # today's seed is secret
    assert bytes(round_of(path).seed).hex() not in page
    # No button yet, so the page does not point at one.
    assert "The button below" not in page and "Once the seed is shown, a button here" in page
    solo = new_game(client, "solo", ruleset="yatzy", **defaults("yatzy"))
    rnd = play_out(user, round_of(solo))
    page = text(client.get(solo))
    attrs = dict(re.findall(r'data-(actions|scorecard|names|dice-count)="([^"]*)"', page))
    assert json.loads(unescape(attrs["actions"])) == game_selectors.round_game(rnd).actions
    assert json.loads(unescape(attrs["scorecard"])) == rnd.snapshot["scorecard"]
    assert json.loads(unescape(attrs["names"]))["full_house"] == "Full house"
    assert attrs["dice-count"] == "5"
    assert f"data-seed>{bytes(rnd.seed).hex()}<" in page
    assert "The button below does both" in page and "Once the seed is shown" not in page


def test_revoking_a_code_asks_first_on_the_rounds_page_and_on_the_friend_page():
    user, client = logged_in()
    solo = new_game(client, "solo", ruleset="yatzy", **defaults("yatzy"))
    rnd = play_out(user, round_of(solo))
    client.post(f"/play/{rnd.id}/share/")
    code = ShareCode.objects.get(round=rnd).code
    for path in (solo, f"/f/{code}"):
        page = text(client.get(path))
        question = re.search(r'<details class="confirm" data-revoke>(.*?)</details>', page, re.S)
        assert question and 'data-action="revoke-ask"' in question.group(1), path
        assert 'data-action="revoke"' in question.group(1)  # the button behind the question
        assert page.count('data-action="revoke"') == 1


# -- hints: progress, the party ------------------------------------------------------------


def test_a_hint_whose_table_is_being_built_shows_the_progress_and_a_link_to_ask_again():
    _, client = logged_in()
    rs = yatzy.get_ruleset("yahtzee", forced_order=True)
    path = new_game(
        client, "solo", ruleset="yahtzee", **{**defaults("yahtzee"), "option_forced_order": "on"}
    )
    StrategyTable.objects.filter(key=tables.table_key(rs)).update(
        status=StrategyTable.Status.BUILDING,
        states_done=3,
        states_total=4,
        started_at=timezone.now(),
    )
    page = unescape(text(client.get(path, {"hint": 1})))
    assert '<progress max="100" value="75"' in page and "(75% done)" in page
    wait = re.search(r'data-hint-wait data-retry="(\d+)" data-retry-url="([^"]+)"', page)
    assert wait and 2 <= int(wait.group(1)) <= 300 and wait.group(2).endswith("?hint=1")


def test_the_party_page_has_the_hint_of_the_seat_whose_turn_it_is(yahtzee_table):
    user, client = logged_in()
    path = new_game(client, "party", seat_0="Ann", seat_1="Bo", **defaults("yahtzee"))
    party = Party.objects.get(owner=user)
    assert 'data-action="hint"' in text(client.get(path))
    rnd = party.seats.get(seat=0)
    game = game_selectors.round_game(rnd)
    client.post(f"{path}roll/", {"seat": 0, "turn": game.turn, "roll": 0})
    page = text(client.get(path, {"hint": 1}))
    best = game_selectors.round_hint(Round.objects.get(pk=rnd.pk))["best"]
    assert f'data-kind="{best["kind"]}"' in page
    assert f'data-hold="{" ".join(map(str, best["hold"]))}"' in page
    hint = re.search(r'<form id="hint-form" method="get" action="([^"]+)"', page)
    assert hint and hint.group(1) == path  # asked again on the party page
    links = re.findall(r'<a class="button secondary" href="([^"]+)" data-hint-apply>', page)
    assert all(link.startswith(f"{path}?hint=1") for link in map(unescape, links))


# -- the installable app -----------------------------------------------------------------


def test_the_manifest_the_worker_and_the_offline_page_hold_nothing_of_a_player():
    _, client = logged_in("zed", display_name="Zed Z.")
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = json.loads(manifest.content)
    assert {body["start_url"], body["display"]} == {"/", "standalone"}
    assert {icon["sizes"] for icon in body["icons"]} == {"192x192", "512x512", "any"}
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"
    source = text(worker)
    assert '"/offline/"' in source and "/static/web/site.css" in source
    offline = text(client.get("/offline/"))
    assert "data-offline" in offline and "Zed" not in offline and "zed" not in offline
    assert "<script" not in offline
    # Every page of the site links the manifest and registers the worker from a file.
    home = text(client.get("/"))
    assert 'rel="manifest" href="/manifest.webmanifest"' in home
    assert re.search(r'<script src="[^"]*install[^"]*\.js" data-worker="/sw.js" defer>', home)


def test_the_worker_keeps_and_versions_every_static_file_of_the_site():
    """The worker puts any /static/ file a page loads into its cache, and only a new
    version (a hash of ``app.STATIC_FILES``) drops that cache: a file left off the list
    (the settings' script) was kept at its first load and, with development's plain
    names, served from the cache after it changed."""
    folder = Path(app.__file__).resolve().parent.parent / "static"
    files = {str(path.relative_to(folder)) for path in (folder / "web").iterdir()}
    assert set(app.STATIC_FILES) == files
    source = text(Client().get("/sw.js"))
    assert all(f"/static/{name}" in source for name in files)


def test_the_worker_is_served_with_productions_hashed_static_names(tmp_path, settings):
    """With ``DEBUG=false`` the static files have hashed names from a manifest, which
    knows no name ``""``: the worker's prefix of the static files asked it for one, and
    ``/sw.js`` was a 500 in production."""
    hashed = {name: name.replace(".", ".0123abcd.", 1) for name in app.STATIC_FILES}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": hashed, "version": "1.1"}))
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    worker = Client().get("/sw.js")
    assert worker.status_code == 200
    source = text(worker)
    assert 'var STATIC_PREFIX = "/static/";' in source
    assert "/static/web/site.0123abcd.css" in source


def test_the_manifest_speaks_the_visitors_language():
    body = json.loads(Client(HTTP_ACCEPT_LANGUAGE="fr").get("/manifest.webmanifest").content)
    assert body["lang"] == "fr" and body["description"] != (
        "One Maxi Yatzy game a day, the same dice for everyone."
    )
