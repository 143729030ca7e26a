"""The words printed on One Page War sheets, taken from the rules-text source
`seeds/one-page-war.md` (one source: the sheet never carries a second copy of a rule).

Sections the sheets use:
    ## The powers        one bullet per power: `**Power name:** the full explanation`
    ## Power reminders   one bullet per power: `**Power name:** a few words` (under each arena)
    ## Using powers      the general power rules, above the full explanations
    ## The AI's turn     the solo sheet's reminder of the AI's rules
    ## Team play         the team rules, on the team pack's tally sheet
    ## The team result   the tally sheet's way of deciding the winner, tiebreak included
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from printgen.errors import LayoutError
from printgen.games.one_page_war.layout import Layout, load_layout
from printgen.paths import SEEDS_DIR
from printgen.rules_text import Block, RulesText, load_rules

SOURCE = SEEDS_DIR / "one-page-war.md"


@dataclass(frozen=True)
class PowerText:
    name: str
    reminder: str  # plain text, one short line
    explanation: str  # ReportLab paragraph markup (bold runs as <b>)


@dataclass(frozen=True)
class SheetTexts:
    powers: tuple[PowerText, ...]  # in the layout's arena order
    using_powers: tuple[str, ...]  # markup, one item per bullet
    ai_turn: tuple[str, ...]
    team_play: tuple[str, ...]
    team_result: tuple[str, ...]

    def power(self, name: str) -> PowerText:
        for power in self.powers:
            if power.name == name:
                return power
        raise LayoutError(f"no text for the power {name!r}")


def markup(block: Block) -> str:
    """A block's runs as paragraph markup: text escaped, bold and italic kept."""
    parts = []
    for run in block.runs:
        text = escape(run.text, quote=False)
        if run.bold:
            text = f"<b>{text}</b>"
        if run.italic:
            text = f"<i>{text}</i>"
        parts.append(text)
    return "".join(parts)


def _named_bullets(rules: RulesText, title: str) -> dict[str, tuple[str, Block]]:
    """`**Name:** text` bullets of a section, by name: (plain text after the name, the block)."""
    found: dict[str, tuple[str, Block]] = {}
    for block in rules.section(title).blocks:
        first = block.runs[0] if block.runs else None
        if first is None or not first.bold or not first.text.rstrip().endswith(":"):
            raise LayoutError(
                f"{rules.source}, section {title!r}: every bullet starts with **Power name:**, "
                f"not {block.text[:40]!r}"
            )
        name = first.text.rstrip()[:-1].strip()
        rest = Block(block.kind, block.runs[1:])
        found[name] = (rest.text.strip(), rest)
    return found


@cache
def _texts(layout_name: str, source: Path) -> SheetTexts:
    layout = load_layout(layout_name)
    rules = load_rules(source)
    full = _named_bullets(rules, "The powers")
    short = _named_bullets(rules, "Power reminders")
    powers = []
    for arena in layout.arenas:
        for table, section in ((full, "The powers"), (short, "Power reminders")):
            if arena.power not in table:
                raise LayoutError(
                    f"{source}: section {section!r} has no bullet for the power "
                    f"{arena.power!r} (arena {arena.name} of layout {layout.name!r})"
                )
        powers.append(
            PowerText(arena.power, short[arena.power][0], markup(full[arena.power][1]).strip())
        )
    return SheetTexts(
        powers=tuple(powers),
        using_powers=tuple(markup(b) for b in rules.section("Using powers").blocks),
        ai_turn=tuple(markup(b) for b in rules.section("The AI's turn").blocks),
        team_play=tuple(markup(b) for b in rules.section("Team play").blocks),
        team_result=tuple(markup(b) for b in rules.section("The team result").blocks),
    )


def sheet_texts(layout: Layout | str, source: Path = SOURCE) -> SheetTexts:
    name = layout if isinstance(layout, str) else layout.name
    return _texts(name, source)
