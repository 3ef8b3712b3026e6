"""Page-number pagination whose page size is read from the settings on each request
(DRF's reads it once, at import), so a deployment or a test can change it, and whose
page past the end is 404 ``invalid_page`` as on the boards (DRF's code: ``not_found``)."""

from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.settings import api_settings


class PageNumberPagination(pagination.PageNumberPagination):
    @property
    def page_size(self) -> int | None:  # type: ignore[override]  # a property, read only
        return api_settings.PAGE_SIZE

    def paginate_queryset(self, *args: Any, **kwargs: Any) -> list[Any] | None:
        try:
            return super().paginate_queryset(*args, **kwargs)
        except NotFound as exc:
            raise NotFound(str(exc.detail), code="invalid_page") from exc
