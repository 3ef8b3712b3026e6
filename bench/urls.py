"""The benchmarks' plain views: the framework floors each figure is measured beside.
``config.urls`` includes these only when the ``BENCH_ENDPOINTS`` setting is on."""

from django.urls import path

from bench.views import plain_json, plain_page

urlpatterns = [
    path("api/bench/plain/", plain_json, name="bench-plain"),
    path("bench/page/", plain_page, name="bench-page"),
]
