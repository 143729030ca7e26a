"""The night's results: every sheet scored during this server's run, kept in memory so that a
result can be shown again, corrected and downloaded without sending the photo again.

Capped by count and by bytes, the oldest dropped first, so a long night cannot exhaust memory.
Nothing is written to disk; the results go when the server stops."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

MAX_ENTRIES = 200
MAX_BYTES = 96 * 1024 * 1024

T = TypeVar("T")


@dataclass(frozen=True)
class Kept(Generic[T]):
    key: str  # unguessable: the result's address
    number: int  # 1, 2, 3...: the order of the night
    item: T
    size: int  # bytes it holds, as counted against the cap


class Store(Generic[T]):
    """Thread-safe: the server answers each request in its own thread."""

    def __init__(
        self,
        size_of: Callable[[T], int],
        max_entries: int = MAX_ENTRIES,
        max_bytes: int = MAX_BYTES,
    ) -> None:
        self._size_of = size_of
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._kept: OrderedDict[str, Kept[T]] = OrderedDict()
        self._bytes = 0
        self._count = 0
        self._lock = threading.Lock()

    def add(self, item: T) -> Kept[T]:
        kept = Kept(secrets.token_urlsafe(18), 0, item, self._size_of(item))
        with self._lock:
            self._count += 1
            kept = replace(kept, number=self._count)
            self._kept[kept.key] = kept
            self._bytes += kept.size
            self._trim(keep=kept.key)
        return kept

    def update(self, key: str, item: T) -> Kept[T] | None:
        """The entry at `key` now holding `item` (a correction); None if it was dropped."""
        with self._lock:
            old = self._kept.get(key)
            if old is None:
                return None
            new = replace(old, item=item, size=self._size_of(item))
            self._kept[key] = new
            self._bytes += new.size - old.size
            self._trim(keep=key)
            return new

    def get(self, key: str) -> Kept[T] | None:
        with self._lock:
            return self._kept.get(key)

    def all(self) -> tuple[Kept[T], ...]:
        """Oldest first."""
        with self._lock:
            return tuple(self._kept.values())

    @property
    def bytes(self) -> int:
        return self._bytes

    def _trim(self, keep: str) -> None:
        """Drop the oldest until within the caps; never `keep`, the entry just added or
        corrected, which is shown once even when it alone is over the cap."""
        for key in list(self._kept):
            if len(self._kept) <= self._max_entries and self._bytes <= self._max_bytes:
                return
            if key != keep:
                self._bytes -= self._kept.pop(key).size
