"""Links between a board's pages, for the API's ``next``/``previous`` and the web
pages' alike."""

from __future__ import annotations

from rest_framework.utils.urls import remove_query_param, replace_query_param

from leaderboards.selectors import Cursor


def page_link(url: str, page: int | None, cursor: Cursor | None, *, step: int) -> str:
    """The next or previous page of the board at ``url`` (the API's absolute URL or a
    web page's path): its number, and the cursor that reads it by keyset. Page 1 needs
    neither.

    >>> page_link("/boards/best-day/?page=2&cursor=x", 2, None, step=-1)
    '/boards/best-day/'
    """
    target = (page or 1) + step
    if target == 1 or cursor is None:
        url = remove_query_param(remove_query_param(url, "cursor"), "page")
        return url if target == 1 else replace_query_param(url, "page", target)
    return replace_query_param(replace_query_param(url, "page", target), "cursor", cursor.encode())
