"""The rules-text source: a Markdown file in `seeds/` with a small TOML front matter.

    +++
    title = "War"
    players = "2 players"
    equipment = "one standard 52-card deck"
    +++
    ## The idea
    - A bullet, with **bold** words.

Parsed with markdown-it-py into sections of blocks made of styled runs, so templates never see
Markdown and never see raw markup characters: a `<` or `&` in the rules stays text."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from printgen.errors import InputError

FENCE = "+++"


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

    @property
    def text(self) -> str:
        return "".join(run.text for run in self.runs)


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class RulesText:
    title: str
    players: str
    equipment: str
    sections: tuple[Section, ...]
    source: str

    def section(self, title: str) -> Section:
        for section in self.sections:
            if section.title.lower() == title.lower():
                return section
        known = ", ".join(s.title for s in self.sections)
        raise InputError(f"{self.source}: no section {title!r}; sections: {known}")


def load_rules(path: Path) -> RulesText:
    if not path.is_file():
        raise InputError(f"rules source {path} does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text ({error.reason})") from None
    return parse_rules(text, str(path))


def parse_rules(text: str, source: str) -> RulesText:
    meta, body, body_line = _split_front_matter(text, source)
    title = meta.get("title")
    if not isinstance(title, str) or not title.strip():
        raise InputError(f'{source}, line 1: the front matter needs a `title = "..."`')
    for key in ("players", "equipment"):
        if key in meta and not isinstance(meta[key], str):
            raise InputError(f"{source}: front matter `{key}` must be a string")
    # Raw HTML is text in a rules source: a "<b>" in the rules prints as itself.
    parser = MarkdownIt("commonmark", {"html": False})
    sections = _sections(parser.parse(body), source, body_line)
    return RulesText(
        title=title.strip(),
        players=str(meta.get("players", "")),
        equipment=str(meta.get("equipment", "")),
        sections=sections,
        source=source,
    )


def _split_front_matter(text: str, source: str) -> tuple[dict, str, int]:
    lines = text.splitlines()
    if not lines or lines[0].strip() != FENCE:
        raise InputError(
            f"{source}, line 1: expected a front matter opening with {FENCE!r} "
            f'and a `title = "..."` (found {lines[0][:40]!r})'
            if lines
            else f"{source}: the file is empty; it needs a front matter with a title"
        )
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == FENCE)
    except StopIteration:
        raise InputError(f"{source}: the front matter opened on line 1 is never closed") from None
    try:
        meta = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{source}: malformed front matter: {error}") from None
    return meta, "\n".join(lines[end + 1 :]), end + 2


def _sections(tokens: list[Token], source: str, first_line: int) -> tuple[Section, ...]:
    sections: list[Section] = []
    title: str | None = None
    blocks: list[Block] = []
    in_bullet = False
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            if title is not None:
                sections.append(Section(title, tuple(blocks)))
            title, blocks = tokens[i + 1].content.strip(), []
        elif token.type == "list_item_open":
            in_bullet = True
        elif token.type == "list_item_close":
            in_bullet = False
        elif token.type == "inline" and tokens[i - 1].type == "paragraph_open":
            if title is None:
                line = first_line + (token.map[0] if token.map else 0)
                raise InputError(f"{source}, line {line}: text before the first `## heading`")
            kind = BlockKind.BULLET if in_bullet else BlockKind.PARAGRAPH
            blocks.append(Block(kind, _runs(token)))
    if title is not None:
        sections.append(Section(title, tuple(blocks)))
    return tuple(sections)


def _runs(inline: Token) -> tuple[Run, ...]:
    runs: list[Run] = []
    bold = italic = False
    for child in inline.children or []:
        if child.type == "strong_open":
            bold = True
        elif child.type == "strong_close":
            bold = False
        elif child.type == "em_open":
            italic = True
        elif child.type == "em_close":
            italic = False
        elif child.type in ("text", "code_inline") and child.content:
            runs.append(Run(child.content, bold, italic))
        elif child.type in ("softbreak", "hardbreak"):
            runs.append(Run(" ", bold, italic))
    return tuple(runs)
