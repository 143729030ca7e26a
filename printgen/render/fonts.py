"""The fonts printgen embeds, all shipped in `fonts/` with their licences.

ReportLab has no glyph fallback: a character the font lacks prints as an empty box. So every
piece of text is checked against its font before it is drawn, and a missing character is a build
error that names it."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any
from weakref import WeakKeyDictionary

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from printgen.errors import MissingGlyphError
from printgen.paths import FONTS_DIR


@dataclass(frozen=True)
class Face:
    name: str
    file: str


# DejaVu Sans: wide apertures and a large x-height keep it legible at 7 pt on cheap printers,
# and it carries the arrows and geometric symbols the fold marks need. IPAex Gothic carries kana.
SANS = Face("PG-Sans", "DejaVuSans.ttf")
SANS_BOLD = Face("PG-Sans-Bold", "DejaVuSans-Bold.ttf")
COND = Face("PG-Cond", "DejaVuSansCondensed.ttf")
COND_BOLD = Face("PG-Cond-Bold", "DejaVuSansCondensed-Bold.ttf")
KANA = Face("PG-Kana", "IPAexGothic.ttf")

ALL_FACES = (SANS, SANS_BOLD, COND, COND_BOLD, KANA)
_BY_NAME = {face.name: face for face in ALL_FACES}
# For <b> inside paragraphs: the bold face of each family.
_BOLD_OF = {SANS.name: SANS_BOLD.name, COND.name: COND_BOLD.name, KANA.name: KANA.name}

BODY = SANS.name
BOLD = SANS_BOLD.name


# --- subset tags ---
# A PDF names each embedded font subset TAG+FontName, the tag six capital letters. ReportLab
# numbers the subsets of each font (AAAAAA, AAAAAB, ...), so two files, or two fonts in one file,
# carry different glyphs under the same tag; a RIP or a merge that trusts the tag swaps subsets
# and drops glyphs. Here the tag is a hash of the subset's face and characters: the same subset
# always gets the same tag (builds stay byte-identical), a different one a different tag.

TAG_LETTERS = 6


def subset_tag(face_name: str, codes: Sequence[int], taken: set[str] | None = None) -> str:
    """Six capital letters derived from a subset's face and characters, avoiding `taken`."""
    salt = 0
    while True:
        text = f"{face_name}:{salt}:" + ",".join(str(code) for code in codes)
        number = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        letters = []
        for _ in range(TAG_LETTERS):
            number, digit = divmod(number, 26)
            letters.append(chr(ord("A") + digit))
        tag = "".join(letters)
        if taken is None or tag not in taken:
            return tag
        salt += 1  # two subsets of one file may never share a tag, however unlikely


# The tags of the font being written, by subset number; ReportLab asks for them one at a time.
_TAGS: ContextVar[tuple[str, ...]] = ContextVar("printgen subset tags", default=())
# The tags already used in each PDF being written, so no two subsets of one file share one.
_TAKEN: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()
_NUMBERED_TAG = ttfonts.SUBSETN


def _tag_of_subset(number: int) -> bytes:
    tags = _TAGS.get()
    return tags[number].encode("ascii") if number < len(tags) else _NUMBERED_TAG(number)


class TaggedTTFont(TTFont):
    """A TrueType font whose subsets are tagged by their contents (see subset_tag)."""

    def addObjects(self, doc: Any) -> None:  # noqa: N802 (ReportLab's name)
        state = self.state.get(doc)
        subsets = state.subsets if state is not None else []
        taken = _TAKEN.setdefault(doc, set())
        tags = []
        for codes in subsets:
            tag = subset_tag(self.face.name, codes, taken)
            taken.add(tag)
            tags.append(tag)
        token = _TAGS.set(tuple(tags))
        try:
            super().addObjects(doc)
        finally:
            _TAGS.reset(token)


@cache
def register_fonts() -> None:
    """Get ReportLab ready for printgen's faces (once per process): the font mappings, and the
    DejaVu faces nearly every sheet draws with. The kana face, a 6 MB file that only Japanese
    text needs, is registered on its first use (see `use_face`)."""
    # ReportLab builds each subset's name through this module function; a context variable
    # (not a swap around each call) keeps concurrent builds in the web app apart.
    ttfonts.SUBSETN = _tag_of_subset
    for face in (SANS, SANS_BOLD, COND, COND_BOLD):
        use_face(face.name)
    for regular, bold in _BOLD_OF.items():
        addMapping(regular, 0, 0, regular)
        addMapping(regular, 1, 0, bold)
        addMapping(regular, 0, 1, regular)
        addMapping(regular, 1, 1, bold)
    # A canvas starts with a base font in every page's resources; ReportLab's default is the
    # unembedded Helvetica, which the brief forbids.
    rl_config.canvas_basefontname = SANS.name


@cache
def use_face(font_name: str) -> None:
    """Register the shipped face `font_name` with ReportLab, if it is one and is not yet.
    Every character drawn is checked against its face first (`check_glyphs`), so a face is
    registered before anything draws or measures with it."""
    face = _BY_NAME.get(font_name)
    if face is None:
        return
    path = FONTS_DIR / face.file
    if not path.is_file():
        raise FileNotFoundError(f"font file missing: {path} (the fonts ship in fonts/)")
    pdfmetrics.registerFont(TaggedTTFont(face.name, str(path)))


@cache
def _coverage(font_name: str) -> frozenset[int]:
    register_fonts()
    if font_name not in _BY_NAME:
        raise MissingGlyphError(f"font {font_name!r} is not one of printgen's shipped fonts")
    use_face(font_name)
    font = pdfmetrics.getFont(font_name)
    return frozenset(font.face.charToGlyph)


def missing_characters(text: str, font_name: str) -> list[str]:
    covered = _coverage(font_name)
    # Each distinct character once: a paragraph repeats a few dozen of them.
    return sorted(ch for ch in set(text) if ord(ch) not in covered and ch not in "\n\r\t")


def check_glyphs(text: str, font_name: str, where: str) -> None:
    """Raise MissingGlyphError naming each character of `text` that `font_name` cannot draw."""
    missing = missing_characters(text, font_name)
    if not missing:
        return
    names = ", ".join(
        f"{ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})" for ch in missing
    )
    # Blaming the face is only useful when another shipped face has the glyph; a script none
    # of them covers (Hangul, simplified Chinese, emoji) is no fault of the face chosen.
    uncovered = [ch for ch in missing if not any(ord(ch) in _coverage(f.name) for f in ALL_FACES)]
    if uncovered:
        scripts = sorted({_script(ch) for ch in uncovered})
        raise MissingGlyphError(
            f"{where}: no font printgen ships covers {' or '.join(scripts)}: no glyph for "
            f"{names}; the fonts cover Latin, Greek, Cyrillic, Japanese kana and kanji"
        )
    raise MissingGlyphError(
        f"{where}: the font {font_name} ({_BY_NAME[font_name].file}) has no glyph for {names}"
    )


def _script(ch: str) -> str:
    """A character's script, near enough for an error: the first word of its Unicode name
    ("HANGUL", "CJK"), or its category's name for symbols (emoji are "So")."""
    name = unicodedata.name(ch, "")
    if not name or unicodedata.category(ch) == "So":
        return "symbols and emoji" if unicodedata.category(ch) == "So" else f"U+{ord(ch):04X}"
    word = name.split()[0]
    return "Chinese characters" if word == "CJK" else word.title()


def fallback_runs(text: str, font_name: str, fallback: str = KANA.name) -> list[tuple[str, str]]:
    """Split `text` into runs of (text, font): characters `font_name` lacks but `fallback` has
    go to the fallback face. What neither has stays with `font_name`, for check_glyphs to name."""
    primary = _coverage(font_name)
    if primary.issuperset(map(ord, text)):
        return [(text, font_name)] if text else []  # the fallback face is not even loaded
    spare = _coverage(fallback)
    runs: list[tuple[str, str]] = []
    for ch in text:
        face = fallback if ord(ch) not in primary and ord(ch) in spare else font_name
        if runs and runs[-1][1] == face:
            runs[-1] = (runs[-1][0] + ch, face)
        else:
            runs.append((ch, face))
    return runs


def bold_of(font_name: str) -> str:
    return _BOLD_OF.get(font_name, font_name)
