"""The pages' paths (SPEC §10)."""

from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` and `year` converters)
from web import modes, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("daily/<isodate:day>/play/", views.daily_play, name="daily-play"),
    path("play/<uuid:round_id>/", views.play, name="play"),
    path("play/<uuid:round_id>/roll/", views.play_roll, name="play-roll"),
    path("play/<uuid:round_id>/score/", views.play_score, name="play-score"),
    path("play/<uuid:round_id>/analysis/", modes.analysis, name="analysis"),
    path("play/<uuid:round_id>/share/", modes.share, name="share"),
    path("games/", modes.games_list, name="games"),
    path("games/new/<str:mode>/", modes.game_new, name="game-new"),
    path("parties/<uuid:party_id>/", modes.party_page, name="party"),
    path("parties/<uuid:party_id>/roll/", modes.party_roll, name="party-roll"),
    path("parties/<uuid:party_id>/score/", modes.party_score, name="party-score"),
    # SPEC §10 names the friend link without a trailing slash; with one it works too.
    path("f/<str:code>", modes.friend, name="friend"),
    path("f/<str:code>/", modes.friend),
    path("f/<str:code>/play/", modes.friend_play, name="friend-play"),
    path("f/<str:code>/revoke/", modes.friend_revoke, name="friend-revoke"),
    path("boards/daily/<isodate:day>/", views.board_daily, name="board-daily"),
    path("boards/best-day/", views.board_best_day, name="board-best-day"),
    path("boards/streaks/", views.board_streaks, name="board-streaks"),
    path("boards/advent/<year:year>/", views.board_advent, name="board-advent"),
    path("advent/<year:year>/", views.advent, name="advent"),
    path("players/<str:username>/", views.player_page, name="player"),
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/<str:ruleset>/", views.rules, name="rules"),
    path("accounts/login/", views.PageLoginView.as_view(), name="login"),
    path("accounts/register/", views.register, name="register"),
    path("accounts/logout/", views.logout_page, name="logout"),
    path("settings/", views.settings_page, name="settings"),
]
