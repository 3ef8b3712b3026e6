"""The site's front page until the web pages exist: where to find the API and the admin."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "config/home.html")
