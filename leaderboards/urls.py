from django.urls import path

import daily.converters  # noqa: F401  (registers the `isodate` and `year` converters)
from leaderboards import views

urlpatterns = [
    path("leaderboards/daily/<isodate:day>/", views.DailyBoardView.as_view(), name="board-daily"),
    path("leaderboards/best-day/", views.BestDayBoardView.as_view(), name="board-best-day"),
    path("leaderboards/streaks/", views.StreakBoardView.as_view(), name="board-streaks"),
    path("leaderboards/advent/<year:year>/", views.AdventBoardView.as_view(), name="board-advent"),
    path(
        "leaderboards/decisions/<isodate:day>/",
        views.DecisionsDayBoardView.as_view(),
        name="board-decisions-day",
    ),
    path("leaderboards/decisions/", views.DecisionsBoardView.as_view(), name="board-decisions"),
    path("advent/<year:year>/", views.AdventCalendarView.as_view(), name="advent-calendar"),
]
