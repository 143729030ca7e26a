"""The materials page: each material under its game, in words for a person (no command-line
flags, no machine names as headings), with a form for the options it takes that a page can set:
copies (each with its own sheet id) and a print run's name, team pairs, large print, panels.

Options that name a file on this machine (a rules source) are never taken from a page; a
layout is taken only by one of the names the project ships."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from printgen.errors import InputError, quote
from printgen.materials import BuildOptions, Material
from printgen.render.units import Paper

# What a page may set, and the ranges it may set them in.
COPIES = (1, 60)
PAIRS = (2, 6)
PANELS = (2, 8)
MAX_BATCH = 24
BATCH = re.compile(r"^[A-Za-z0-9 ._-]*$")
PAPER_WORDS = {Paper.A4: "A4", Paper.LETTER: "Letter", Paper.A3: "A3"}
FLAG = re.compile(r"\s*--[a-z-]+(?: [A-Z]+)?")


@dataclass(frozen=True)
class Shown:
    material: Material
    heading: str
    detail: str
    layouts: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.material.name

    def takes(self, option: str) -> bool:
        return option in self.material.accepts

    def paper_words(self, paper: Paper) -> str:
        return PAPER_WORDS.get(paper, paper.value)


def groups() -> tuple[tuple[str, tuple[Shown, ...]], ...]:
    """(game title, its materials) for every game with printable materials."""
    from printgen.games import all_games

    found = []
    for game in all_games():
        shown = tuple(_shown(m, game.title, game.name) for m in game.materials if m.standalone)
        if shown:
            found.append((game.title, shown))
    return tuple(found)


def material_named(name: str) -> Material | None:
    """A shipped, standalone material by name; None for anything else."""
    from printgen.games import material_named as shipped

    found = shipped(name)
    return found if found is not None and found.standalone else None


def _shown(material: Material, title: str, game: str) -> Shown:
    from printgen.layouts import layout_names

    text = FLAG.sub("", material.description)
    # A parenthesis that only held a command-line hint goes with it.
    text = re.sub(r"\s*\((?:[^()]*;)?\s*for a batch, each its own id\)", "", text)
    text = text.removeprefix(title).lstrip(" :")
    heading, _, detail = text.partition(":")
    heading, detail = heading.strip(), detail.strip()
    return Shown(material, _first_up(heading), _first_up(detail), layout_names(game))


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def options_from(material: Material, args: Mapping[str, str]) -> BuildOptions:
    """The build options a materials form sends; InputError naming the field when out of range."""
    paper_name = args.get("paper", "a4")
    papers = {p.value: p for p in material.papers}
    if paper_name not in papers:
        known = ", ".join(PAPER_WORDS.get(p, p.value) for p in material.papers)
        raise InputError(f"paper: {quote(paper_name)} is not one of {known}")
    options = BuildOptions(paper=papers[paper_name])
    takes = material.accepts
    values: dict[str, object] = {}
    if "copies" in takes:
        values["copies"] = _number(args, "copies", COPIES, 1)
    if "pairs" in takes:
        values["pairs"] = _number(args, "pairs", PAIRS, 2)
    if "panels" in takes and args.get("panels"):
        values["panels"] = _number(args, "panels", PANELS, 4)
    if "large_print" in takes:
        values["large_print"] = args.get("large_print") in {"on", "1", "yes"}
    if "batch" in takes:
        batch = " ".join(args.get("batch", "").split())
        if len(batch) > MAX_BATCH or not BATCH.match(batch):
            raise InputError(
                f"print run name: {quote(batch)} should be up to {MAX_BATCH} letters, "
                "digits, spaces, dots or dashes"
            )
        values["batch"] = batch
    if "layout" in takes and args.get("layout"):
        values["layout"] = _layout(material, args["layout"])
    from dataclasses import replace

    return replace(options, **values)  # type: ignore[arg-type]


def _number(args: Mapping[str, str], field: str, bounds: tuple[int, int], default: int) -> int:
    raw = args.get(field, "").strip() or str(default)
    low, high = bounds
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise InputError(f"{field}: {quote(raw)} should be a whole number from {low} to {high}")
    return int(raw)


def _layout(material: Material, name: str) -> str:
    from printgen.games import all_games
    from printgen.layouts import layout_names

    game = next(g for g in all_games() if material in g.materials)
    known = layout_names(game.name)
    if name not in known:
        raise InputError(f"layout: {quote(name)} is not one of {', '.join(known)}")
    return name


def file_name(material: Material, options: BuildOptions) -> str:
    name = material.file_name(options)
    extra = []
    if options.copies > 1:
        extra.append(f"{options.copies}-copies")
    if options.pairs != 2 and "pairs" in material.accepts:
        extra.append(f"{options.pairs}-pairs")
    if options.large_print:
        extra.append("large")
    if not extra:
        return name
    return name.removesuffix(".pdf") + "-" + "-".join(extra) + ".pdf"


# A build's refusal speaks the command line's words (`--panels 7`, and the command that would
# build it); on the materials page its choices have names of their own.
_IN_PAGE_WORDS = (
    (re.compile(r": printgen build [^;]*$"), ""),
    (re.compile(r"--panels (\d+)"), r"\1 panels"),
    (re.compile(r"--large-print"), "Large print"),
    (re.compile(r"a larger --paper"), "larger paper"),
    (re.compile(r"--(paper|fold) "), r"\1 "),
)


def in_page_words(message: str) -> str:
    """A build's refusal as the materials page names its choices."""
    for pattern, words in _IN_PAGE_WORDS:
        message = pattern.sub(words, message)
    return message
