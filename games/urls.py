from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` converter)
from games import views

urlpatterns = [
    path("daily/", views.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<isodate:day>/", views.DailyDateView.as_view(), name="daily-date"),
    path("daily/<isodate:day>/rounds/", views.DailyRoundsView.as_view(), name="daily-rounds"),
    path("rounds/<uuid:round_id>/", views.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<uuid:round_id>/roll/", views.RoundRollView.as_view(), name="round-roll"),
    path("rounds/<uuid:round_id>/score/", views.RoundScoreView.as_view(), name="round-score"),
]
