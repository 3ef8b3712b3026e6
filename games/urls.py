from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` converter)
from games import views

urlpatterns = [
    path("daily/", views.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<isodate:day>/", views.DailyDateView.as_view(), name="daily-date"),
    path("daily/<isodate:day>/rounds/", views.DailyRoundsView.as_view(), name="daily-rounds"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<uuid:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("rulesets/", views.RulesetListView.as_view(), name="rulesets"),
    path("rulesets/<str:name>/", views.RulesetDetailView.as_view(), name="ruleset-detail"),
    path("rounds/<uuid:round_id>/", views.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<uuid:round_id>/hint/", views.RoundHintView.as_view(), name="round-hint"),
    path(
        "rounds/<uuid:round_id>/analysis/", views.RoundAnalysisView.as_view(), name="round-analysis"
    ),
    path("rounds/<uuid:round_id>/roll/", views.RoundRollView.as_view(), name="round-roll"),
    path("rounds/<uuid:round_id>/score/", views.RoundScoreView.as_view(), name="round-score"),
    path("rounds/<uuid:round_id>/share/", views.RoundShareView.as_view(), name="round-share"),
    path("parties/<uuid:party_id>/", views.PartyDetailView.as_view(), name="party-detail"),
    path("parties/<uuid:party_id>/roll/", views.PartyRollView.as_view(), name="party-roll"),
    path("parties/<uuid:party_id>/score/", views.PartyScoreView.as_view(), name="party-score"),
    path("friend/<str:code>/", views.FriendView.as_view(), name="friend"),
    path("friend/<str:code>/rounds/", views.FriendRoundsView.as_view(), name="friend-rounds"),
]
