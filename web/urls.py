"""The pages' paths (SPEC §10)."""

from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` and `year` converters)
from web.pages import accounts, app, boards, friends, games, home, parties, play

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("daily/<isodate:day>/play/", home.daily_play, name="daily-play"),
    path("play/<uuid:round_id>/", play.play, name="play"),
    path("play/<uuid:round_id>/roll/", play.play_roll, name="play-roll"),
    path("play/<uuid:round_id>/score/", play.play_score, name="play-score"),
    path("play/<uuid:round_id>/analysis/", play.analysis, name="analysis"),
    path("play/<uuid:round_id>/share/", play.share, name="share"),
    path("games/", games.games_list, name="games"),
    path("games/new/<str:mode>/", games.game_new, name="game-new"),
    path("games/<uuid:game_id>/give-up/", games.game_give_up, name="game-give-up"),
    path("parties/<uuid:party_id>/", parties.party_page, name="party"),
    path("parties/<uuid:party_id>/roll/", parties.party_roll, name="party-roll"),
    path("parties/<uuid:party_id>/score/", parties.party_score, name="party-score"),
    # SPEC §10 names the friend link without a trailing slash; with one it works too.
    path("f/<str:code>", friends.friend, name="friend"),
    path("f/<str:code>/", friends.friend),
    path("f/<str:code>/play/", friends.friend_play, name="friend-play"),
    path("f/<str:code>/revoke/", friends.friend_revoke, name="friend-revoke"),
    path("boards/daily/<isodate:day>/", boards.board_daily, name="board-daily"),
    path("boards/decisions/<isodate:day>/", boards.board_decisions, name="board-decisions"),
    path("boards/best-day/", boards.board_best_day, name="board-best-day"),
    path("boards/streaks/", boards.board_streaks, name="board-streaks"),
    path("boards/advent/<year:year>/", boards.board_advent, name="board-advent"),
    path("advent/<year:year>/", boards.advent, name="advent"),
    path("players/<str:username>/", boards.player_page, name="player"),
    path("rules/", games.rules_index, name="rules-index"),
    path("rules/<str:ruleset>/", games.rules, name="rules"),
    path("accounts/login/", accounts.login_page, name="login"),
    path("accounts/register/", accounts.register, name="register"),
    path("accounts/logout/", accounts.logout_page, name="logout"),
    path("settings/", accounts.settings_page, name="settings"),
    # The installable app: at the root, so that the worker may look after every page.
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("offline/", app.offline, name="offline"),
    path("offline/unreachable/", app.offline, {"unreachable": True}, name="unreachable"),
    path("favicon.ico", app.favicon, name="favicon"),
]
