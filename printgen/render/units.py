"""Paper sizes and millimetres. ReportLab works in points; everything here is stated in mm."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

MM = 72.0 / 25.4  # points per millimetre


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * MM


def to_mm(points: float) -> float:
    return points / MM


# Printers cannot print right up to the edge; the brief keeps everything this far inside.
SAFE_MARGIN_MM = 6.0


@dataclass(frozen=True)
class PageSize:
    width_mm: float
    height_mm: float

    @property
    def points(self) -> tuple[float, float]:
        return (mm(self.width_mm), mm(self.height_mm))

    def landscape(self) -> PageSize:
        return PageSize(max(self.width_mm, self.height_mm), min(self.width_mm, self.height_mm))

    def portrait(self) -> PageSize:
        return PageSize(min(self.width_mm, self.height_mm), max(self.width_mm, self.height_mm))


class Paper(Enum):
    A4 = "a4"
    LETTER = "letter"
    A3 = "a3"

    @property
    def size(self) -> PageSize:
        """Portrait size in millimetres (ISO 216 and ANSI exact values)."""
        return _SIZES[self]

    @property
    def label(self) -> str:
        return {"a4": "A4", "letter": "US Letter", "a3": "A3"}[self.value]

    @classmethod
    def from_text(cls, text: str) -> Paper:
        try:
            return cls(text.strip().lower())
        except ValueError:
            known = ", ".join(p.value for p in cls)
            raise ValueError(f"unknown paper {text!r}: expected one of {known}") from None


_SIZES = {
    Paper.A4: PageSize(210.0, 297.0),
    Paper.LETTER: PageSize(215.9, 279.4),
    Paper.A3: PageSize(297.0, 420.0),
}
