"""The rules-text source: a Markdown file in `seeds/` with a small TOML front matter.

    +++
    title = "War"
    players = "2 players"
    equipment = "one standard 52-card deck"
    credit = "Game by ..."        # optional: the designer, where the rulebook names one
    +++
    ## The idea
    - A bullet, with **bold** words.

Parsed with markdown-it-py into sections of blocks made of styled runs, so templates never see
Markdown and never see raw markup characters: a `<` or `&` in the rules stays text.

What a printed card cannot carry is refused with an InputError naming the line: control
characters, right-to-left script (the card sets text left to right, unshaped), code blocks and
images, a heading with no text under it. What it can carry is kept: numbered items keep their
numbers, links keep their address in brackets, a tab is a space."""

from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from enum import Enum
from html import unescape
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from printgen.errors import InputError

FENCE = "+++"
# The longest seed is under 5 KB and the largest card (12 panels on A3) holds about 16 KB; a
# source this big is a mistake or a device, and reading it whole would only delay the error.
MAX_SOURCE_BYTES = 64 * 1024
BULLET = "•"
FRONT_MATTER_KEYS = ("title", "players", "equipment", "credit")


class BlockKind(Enum):
    PARAGRAPH = "p"
    BULLET = "bullet"


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    runs: tuple[Run, ...]
    # What a list item prints before its text: None for a bullet, "3." for a numbered item,
    # "" for a later paragraph of the same item.
    marker: str | None = None
    # The source line the block starts on, so a typesetting error can name it (0: unknown).
    line: int = 0

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)

    @property
    def bullet(self) -> str:
        if self.kind is not BlockKind.BULLET:
            return ""
        return BULLET if self.marker is None else self.marker


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]
    line: int = 0  # the heading's source line


@dataclass(frozen=True)
class RulesText:
    title: str
    players: str
    equipment: str
    sections: tuple[Section, ...]
    source: str
    credit: str = ""

    def section(self, title: str) -> Section:
        for section in self.sections:
            if section.title.lower() == title.lower():
                return section
        known = ", ".join(s.title for s in self.sections)
        raise InputError(f"{self.source}: no section {title!r}; sections: {known}")


def load_rules(path: Path) -> RulesText:
    if not path.exists():
        raise InputError(f"rules source {path} does not exist")
    if not path.is_file():
        raise InputError(f"rules source {path} is not a regular file (a folder, device or pipe)")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as error:
        raise InputError(f"rules source {path} cannot be read: {error.strerror}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise InputError(
            f"{path}: a rules source is at most {MAX_SOURCE_BYTES // 1024} KB and this one is "
            f"larger (the largest card holds about 16 KB of text)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start}: {error.reason})") from None
    return parse_rules(text, str(path))


def parse_rules(text: str, source: str) -> RulesText:
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    _check_characters(text, source)
    meta, body, body_line = _split_front_matter(text, source)
    _check_keys(meta, text, source)
    fields = {key: _front_matter_text(meta, key, source) for key in FRONT_MATTER_KEYS}
    if not fields["title"]:
        raise InputError(f'{source}, line 1: the front matter needs a `title = "..."`')
    # Raw HTML is text in a rules source: a "<b>" in the rules prints as itself.
    parser = MarkdownIt("commonmark", {"html": False})
    sections = _sections(parser.parse(body), source, body_line)
    if not sections:
        # Front matter alone would build a card with a title and nothing to read.
        raise InputError(
            f"{source}, line {body_line}: no rules after the front matter; a card needs at "
            "least one `## heading` with text under it"
        )
    return RulesText(
        title=fields["title"],
        players=fields["players"],
        equipment=fields["equipment"],
        sections=sections,
        source=source,
        credit=fields["credit"],
    )


def _split_front_matter(text: str, source: str) -> tuple[dict, str, int]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise InputError(
            f"{source}, line 1: expected a front matter opening with {FENCE!r} "
            f'and a `title = "..."` (found {lines[0][:40]!r})'
            if text.strip()
            else f"{source}: the file is empty; it needs a front matter with a title"
        )
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == FENCE)
    except StopIteration:
        raise InputError(f"{source}: the front matter opened on line 1 is never closed") from None
    try:
        # The opening fence left as an empty line, so TOML's line numbers are the file's.
        meta = tomllib.loads("\n" + "\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as error:
        raise InputError(
            f"{source}, {_toml_error_place(error, lines[:end])}: malformed front matter: "
            f"{_TOML_PLACE.sub('', str(error))}"
        ) from None
    return meta, "\n".join(lines[end + 1 :]), end + 2


_TOML_PLACE = re.compile(r" \(at (?:(line \d+, column \d+)|end of document)\)$")


def _toml_error_place(error: tomllib.TOMLDecodeError, lines: list[str]) -> str:
    """Where in the file a TOML error is, "line 3, column 11". tomllib says it only in its
    message, and an error at the end of the front matter (an unclosed `[`) is on its last line
    that holds anything."""
    found = _TOML_PLACE.search(str(error))
    if found and found.group(1):
        return found.group(1)  # the front matter was parsed with line 1 kept blank
    return f"line {max((i + 1 for i, line in enumerate(lines) if line.strip()), default=1)}"


def _check_keys(meta: dict, text: str, source: str) -> None:
    """Refuse a front-matter key the card does not print: a misspelt `player` would otherwise
    drop the players from the card without a word."""
    for key in meta:
        if key in FRONT_MATTER_KEYS:
            continue
        near = difflib.get_close_matches(key, FRONT_MATTER_KEYS, n=1)
        hint = f" (did you mean `{near[0]}`?)" if near else ""
        raise InputError(
            f"{source}, line {_key_line(key, text)}: unknown front matter key `{key}`{hint}; "
            f"the keys are {', '.join(FRONT_MATTER_KEYS)}"
        )


def _key_line(key: str, text: str) -> int:
    """The line of the front matter where `key` is set (or its table opens)."""
    pattern = re.compile(rf"""^\s*\[*\s*["']?{re.escape(key)}["']?\s*[=.\]]""")
    lines = text.split("\n")
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == FENCE:
            break
        if pattern.match(line):
            return number
    return 1


def _front_matter_text(meta: dict, key: str, source: str) -> str:
    """A front matter value as printable text. Entities are decoded as in the Markdown body
    (`&nbsp;` is a no-break space), and any run of white space, tabs included, is one space."""
    value = meta.get(key, "")
    if not isinstance(value, str):
        raise InputError(f"{source}: front matter `{key}` must be a string, not {value!r:.40}")
    text = _SPACES.sub(" ", unescape(value)).strip()
    _check_characters(text, f"{source}, front matter `{key}`", lines=False)
    return text


_SPACES = re.compile(r"[ \t\n\r\f\v]+")
# Printable ASCII and the tab: none of it is refused, so such a line needs no look-ups.
_PLAIN_ASCII = re.compile(r"[\t\x20-\x7e]*")


def _check_characters(text: str, where: str, lines: bool = True) -> None:
    """Refuse characters a card cannot print: control characters (tabs and line ends aside),
    Unicode non-characters, and right-to-left letters, which would print unshaped and reversed."""
    for number, line in enumerate(text.split("\n") if lines else [text], start=1):
        if _PLAIN_ASCII.fullmatch(line):
            continue
        for column, ch in enumerate(line, start=1):
            if ch == "\t":
                continue
            place = f"{where}, line {number}, column {column}" if lines else where
            if unicodedata.category(ch) == "Cc":
                raise InputError(
                    f"{place}: control character U+{ord(ch):04X} in the text; remove it"
                )
            if _is_noncharacter(ch) or ch == "\ufffd":
                # U+FFFD is what a bad byte or a reference like `&#0;` decodes to.
                raise InputError(
                    f"{place}: U+{ord(ch):04X} is not a printable character (a bad byte or "
                    "character reference?); remove it"
                )
            if unicodedata.bidirectional(ch) in ("R", "AL"):
                script = unicodedata.name(ch, "right-to-left").split()[0].title()
                raise InputError(
                    f"{place}: {script} letter {ch!r} (U+{ord(ch):04X}): the card sets "
                    "left-to-right text only, and would print it unshaped and reversed"
                )


def _is_noncharacter(ch: str) -> bool:
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _sections(tokens: list[Token], source: str, first_line: int) -> tuple[Section, ...]:
    sections: list[Section] = []
    title: str | None = None
    title_line = 0
    blocks: list[Block] = []
    # The marker of the list item being read: its first paragraph prints it, later ones do not.
    item_marker: str | None = None
    in_item = False

    def line_of(token: Token) -> int:
        return first_line + (token.map[0] if token.map else 0)

    def close_section() -> None:
        if title is None:
            return
        if not blocks:
            raise InputError(
                f"{source}, line {title_line}: the heading {title!r} has no text under it; "
                "a card prints a heading only with its text"
            )
        sections.append(Section(title, tuple(blocks), title_line))

    for i, token in enumerate(tokens):
        if token.type in ("fence", "code_block"):
            raise InputError(
                f"{source}, line {line_of(token)}: a code block; the card prints headings, "
                "paragraphs and lists only (put the words in a paragraph)"
            )
        if token.type == "heading_open":
            close_section()
            title_line = line_of(token)
            runs = _runs(tokens[i + 1], source, title_line)
            title, blocks = " ".join("".join(run.text for run in runs).split()), []
        elif token.type == "list_item_open":
            in_item = True
            # A numbered item's token carries its number ("3") and its mark ("." or ")").
            item_marker = f"{token.info}{token.markup}" if token.info else None
        elif token.type == "list_item_close":
            in_item = False
        elif token.type == "inline" and tokens[i - 1].type == "paragraph_open":
            if title is None:
                raise InputError(
                    f"{source}, line {line_of(token)}: text before the first `## heading`"
                )
            runs = _runs(token, source, line_of(token))
            if in_item:
                blocks.append(Block(BlockKind.BULLET, runs, item_marker, line_of(token)))
                item_marker = ""
            else:
                blocks.append(Block(BlockKind.PARAGRAPH, runs, line=line_of(token)))
    close_section()
    return tuple(sections)


def _runs(inline: Token, source: str, line: int) -> tuple[Run, ...]:
    runs: list[Run] = []
    bold = italic = False
    link: str | None = None
    link_text: list[str] = []
    for child in inline.children or []:
        if child.type == "strong_open":
            bold = True
        elif child.type == "strong_close":
            bold = False
        elif child.type == "em_open":
            italic = True
        elif child.type == "em_close":
            italic = False
        elif child.type == "image":
            raise InputError(
                f"{source}, line {line}: an image ({child.attrs.get('src', '')!s:.60}); "
                "the card prints text only"
            )
        elif child.type == "link_open":
            link, link_text = str(child.attrs.get("href", "")), []
        elif child.type == "link_close":
            # On paper a link is only as good as its address: print it unless the text is it.
            shown = "".join(link_text).strip()
            if link and _bare(link) != _bare(shown):
                runs.append(Run(f" ({_bare(link)})", bold, italic))
            link = None
        elif child.type in ("text", "code_inline") and child.content:
            text = child.content.replace("\t", " ")
            # Entities are decoded by now: `&#1488;` is a Hebrew letter like any other.
            _check_characters(text, f"{source}, line {line}", lines=False)
            runs.append(Run(text, bold, italic))
            if link is not None:
                link_text.append(text)
        elif child.type in ("softbreak", "hardbreak"):
            runs.append(Run(" ", bold, italic))
    return tuple(runs)


def _bare(address: str) -> str:
    for prefix in ("mailto:", "https://", "http://"):
        address = address.removeprefix(prefix)
    return address
