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


@dataclass(frozen=True)
class Box:
    """A rectangle in points, origin at its bottom-left corner: what ReportLab draws in."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Rect:
    """A rectangle in page millimetres, origin at the page's bottom-left corner (PDF's way up)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def box(self) -> Box:
        return Box(mm(self.x), mm(self.y), mm(self.width), mm(self.height))

    def turned(self, page: PageSize) -> Rect:
        """The same rectangle seen from the opposite edge of the page (turned 180 degrees)."""
        return Rect(page.width_mm - self.right, page.height_mm - self.top, self.width, self.height)

    def overlaps(self, other: Rect) -> bool:
        return not (
            self.right <= other.x
            or other.right <= self.x
            or self.top <= other.y
            or other.top <= self.y
        )

    def inside(self, page: PageSize, margin: float = SAFE_MARGIN_MM) -> bool:
        return (
            self.x >= margin - 1e-6
            and self.y >= margin - 1e-6
            and self.right <= page.width_mm - margin + 1e-6
            and self.top <= page.height_mm - margin + 1e-6
        )

    def to_json(self) -> dict[str, float]:
        return {k: round(v, 2) for k, v in vars(self).items()}
