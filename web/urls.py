"""The pages' paths (SPEC §10)."""

from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` and `year` converters)
from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("daily/<isodate:day>/play/", views.daily_play, name="daily-play"),
    path("play/<uuid:round_id>/", views.play, name="play"),
    path("play/<uuid:round_id>/roll/", views.play_roll, name="play-roll"),
    path("play/<uuid:round_id>/score/", views.play_score, name="play-score"),
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
