from django.urls import path

from games import views

urlpatterns = [
    path("rounds/<uuid:round_id>/", views.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<uuid:round_id>/roll/", views.RoundRollView.as_view(), name="round-roll"),
    path("rounds/<uuid:round_id>/score/", views.RoundScoreView.as_view(), name="round-score"),
]
