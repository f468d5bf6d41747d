"""Lists come in two styles: offset pages (``limit``, ``offset``, ``has_more``) and cursor pages
(``next_cursor`` passed back as ``cursor``, or a provider's ``next_page_token`` passed back as
``page_token``). A Paginated reads whichever the page carries and asks for the next one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")


def next_query(query: dict[str, Any], page: Any) -> dict[str, Any] | None:
    """The query of the page after ``page``, or None at the end."""
    rest = {k: v for k, v in query.items() if k not in ("offset", "cursor", "page_token")}
    if hasattr(page, "next_page_token"):
        return {**rest, "page_token": page.next_page_token} if page.next_page_token else None
    cursor = getattr(page, "next_cursor", None)
    if cursor:
        return {**rest, "cursor": cursor}
    if getattr(page, "has_more", False):
        return {**rest, "offset": (page.offset or 0) + len(page.data)}
    return None


class Paginated(Generic[Item]):
    """One list, read page by page on demand: iterating walks every item of every page; ``pages()``
    yields whole pages; ``first()`` is the first page alone."""

    def __init__(self, fetch_page: Callable[..., Any], query: dict[str, Any]) -> None:
        self._fetch_page = fetch_page
        self._query = {k: v for k, v in query.items() if v is not None}

    def first(self) -> Any:
        return self._fetch_page(**self._query)

    def pages(self) -> Iterator[Any]:
        query: dict[str, Any] | None = self._query
        while query is not None:
            page = self._fetch_page(**query)
            yield page
            # An empty page ends the walk even if the page claims more, so a walk always ends.
            query = next_query(query, page) if page.data else None

    def __iter__(self) -> Iterator[Item]:
        for page in self.pages():
            yield from page.data

    def to_list(self) -> list[Item]:
        return list(self)
