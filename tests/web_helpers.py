"""Helpers for the web app's tests: reading pages, and a photo reader stand-in whose readings
the test chooses, so that correcting a photo is tested cell by cell without OpenCV's luck."""

from __future__ import annotations

import html
import io
import re
import struct
import tomllib
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DUEL = EXAMPLES / "one-page-war" / "duel.toml"
SOLO = EXAMPLES / "one-page-war" / "solo.toml"
PX_PER_MM = 6.0


def text_of(page: str, element_id: str) -> str | None:
    found = re.search(rf'id="{element_id}">([^<]*)<', page)
    return None if found is None else html.unescape(found.group(1))


def error_of(page: str) -> str:
    found = re.search(r'class="error" role="alert">([^<]*)<', page)
    assert found is not None, page
    return html.unescape(found.group(1))


def field_errors(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'class="field-error"[^>]*>([^<]*)<', page)]


def field_value(page: str, name: str) -> str | None:
    found = re.search(rf'<input id="[^"]*" name="{re.escape(name)}" value="([^"]*)"', page)
    return None if found is None else html.unescape(found.group(1))


def jpeg(width: int = 64, height: int = 48) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(buffer, "JPEG")
    return buffer.getvalue()


def image_bytes(kind: str, width: int = 64, height: int = 48) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(buffer, kind)
    return buffer.getvalue()


def png_header(width: int, height: int) -> bytes:
    """The start of a PNG that claims `width` x `height`: enough for anything that reads the
    header only, and cheap for sizes no test should decode."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"")


def example(path: Path) -> dict[str, Any]:
    return dict(tomllib.loads(path.read_text(encoding="utf-8")))


def as_read(path: Path = DUEL, players: tuple[str, str] = ("First", "Second")) -> dict[str, Any]:
    """An example sheet as the reader gives it: the sides named by the reader's defaults."""
    sheet = example(path)
    renamed = dict(zip(sheet["players"], players, strict=True))
    arenas = {
        name: {renamed.get(k, k): v for k, v in table.items() if k != "ticks"}
        for name, table in sheet["arenas"].items()
    }
    return {
        "game": "one-page-war",
        "layout": "standard",
        "mode": sheet["mode"],
        "players": list(players),
        "id": "D1A2B",
        "arenas": arenas,
    }


def unsure(
    arena: str,
    player: str,
    square: int,
    reading: str,
    second: str,
    kind: str = "square",
    why: str = "",
) -> dict[str, Any]:
    """An unsure reading as the reader reports it (`square` 1-based here, 0-based there)."""
    return {
        "kind": kind,
        "arena": arena,
        "player": player,
        "index": square - 1,
        "reading": reading,
        "second": second,
        "why": why,
    }


@dataclass(frozen=True)
class FakeReport:
    data: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)

    def to_text(self) -> str:
        return "read"

    @property
    def exit_code(self) -> int:
        return 3 if self.data.get("unsure") else 0

    def summary(self) -> str:
        return "read"


LABEL_GREEN = (0, 150, 0)  # a sure reading's label on the annotated picture


@dataclass
class FakeReader:
    """Stands in for the photo reader: answers each photo with `sheet` and `unsure`, draws an
    annotated picture of the sheet's size with each unsure cell's top half black and a green
    label above every square (as the reader writes each reading there), and the same plain,
    without the labels; and notes what it was given."""

    sheet: dict[str, Any] = field(default_factory=as_read)
    unsure: list[dict[str, Any]] = field(default_factory=list)
    sheet_id: str = "D1A2B"
    stakes: dict[str, Any] | None = None  # what the unsure cells can change (reader/stakes.py)
    error: Exception | None = None
    # Each photo given: its suffix as the server saved it (its name is the server's own), its
    # size and what Pillow says it is.
    seen: list[tuple[str, tuple[int, int], str]] = field(default_factory=list)

    def __call__(self, path: Path, options: Any) -> FakeReport:
        if path.read_bytes().startswith(b"%PDF"):  # a scan: Pillow opens no PDF
            self.seen.append((path.suffix, (0, 0), "PDF"))
        else:
            with Image.open(path) as image:
                self.seen.append((path.suffix, image.size, str(image.format)))
        if self.error is not None:
            raise self.error
        if options.annotate is not None:
            self.draw(Path(options.annotate), labels=True)
        if options.plain is not None:
            self.draw(Path(options.plain), labels=False)
        data = {
            "game": "one-page-war",
            "sheet_id": self.sheet_id,
            "layout": "standard",
            "paper": "a4",
            "sheet": self.sheet,
            "unsure": self.unsure,
            "advice": [],
            "stakes": self.stakes,
        }
        return FakeReport(data)

    def draw(self, target: Path, labels: bool) -> None:
        from PIL import ImageDraw

        from printgen.games.one_page_war.geometry import Kind, Side, sheet_geometry
        from printgen.render.units import Paper

        geometry = sheet_geometry("standard", Paper.A4)
        picture = Image.new(
            "RGB", (round(geometry.width * PX_PER_MM), round(geometry.height * PX_PER_MM)), "white"
        )
        draw = ImageDraw.Draw(picture)
        players = self.sheet["players"]
        for cell in self.unsure:
            side = None
            if cell["kind"] != "allies":
                side = Side.FIRST if cell["player"] == players[0] else Side.SECOND
            e = geometry.find(Kind(cell["kind"]), cell["arena"], side, cell["index"])
            x0, y0 = e.x * PX_PER_MM, e.y * PX_PER_MM
            draw.rectangle((x0, y0, x0 + e.w * PX_PER_MM, y0 + e.h * PX_PER_MM / 2), "black")
        for e in geometry.elements if labels else ():
            if e.kind is Kind.SQUARE:  # from 0.5 to 2.3 mm above the square, as cv2 writes it
                x0, y0 = e.x * PX_PER_MM, e.y * PX_PER_MM
                draw.rectangle((x0, y0 - 14, x0 + 30, y0 - 3), LABEL_GREEN)
        picture.save(target, "PNG")
