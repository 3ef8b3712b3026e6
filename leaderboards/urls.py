from django.urls import path, register_converter

import daily.urls  # noqa: F401  (registers the `isodate` converter used below)
from leaderboards import views


class YearConverter:
    regex = r"[1-9][0-9]{3}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return f"{value:04d}"


register_converter(YearConverter, "year")

urlpatterns = [
    path("leaderboards/daily/<isodate:day>/", views.DailyBoardView.as_view(), name="board-daily"),
    path("leaderboards/best-day/", views.BestDayBoardView.as_view(), name="board-best-day"),
    path("leaderboards/streaks/", views.StreakBoardView.as_view(), name="board-streaks"),
    path("leaderboards/advent/<year:year>/", views.AdventBoardView.as_view(), name="board-advent"),
    path("advent/<year:year>/", views.AdventCalendarView.as_view(), name="advent-calendar"),
]
