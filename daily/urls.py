from django.urls import include, path, register_converter

from daily import views
from daily.converters import IsoDateConverter

register_converter(IsoDateConverter, "isodate")

urlpatterns = [
    path("daily/", views.DailyTodayView.as_view(), name="daily-today"),
    path("daily/<isodate:day>/", views.DailyDateView.as_view(), name="daily-date"),
    path("daily/<isodate:day>/rounds/", views.DailyRoundsView.as_view(), name="daily-rounds"),
    path("", include("games.urls")),
]
