"""Page-number pagination whose page size is read from the settings on each request
(DRF's reads it once, at import), so a deployment or a test can change it."""

from rest_framework import pagination
from rest_framework.settings import api_settings


class PageNumberPagination(pagination.PageNumberPagination):
    @property
    def page_size(self) -> int | None:  # type: ignore[override]  # a property, read only
        return api_settings.PAGE_SIZE
