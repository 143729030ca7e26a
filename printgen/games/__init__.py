"""The games printgen knows and what each prints: the registry, one table read by the CLI and the
web app.

Nothing here imports a game. Every entry names its code as a string, "package.module:attribute",
and printgen.materials.load imports it on first use, so `printgen list` and `--help` cost no
game at all and `printgen build war-card` costs only the War card.

To register a material, add one `Material(...)` line to its game's `materials` below:

    Material(
        "one-counters",                              # the name `printgen build` takes
        "ONE: counter sheet, ...",                   # its line in `printgen list`
        "printgen.games.one.materials:build_counters",  # a Builder: (options, progress) -> bytes
        accepts=frozenset({"layout"}),               # BuildOptions fields it takes beyond --paper
        papers=(Paper.A4, Paper.LETTER),             # the default; add Paper.A3 if it offers it
    ),

A rules card printed from a source in seeds/ names that file in `rules_source` and uses the
card builder, `printgen.accordion:build_rules_card`, which receives it as `options.rules`.
A test (tests/test_registry.py) imports every name in this table, so a typo fails there rather
than in front of a player."""

from __future__ import annotations

from printgen.materials import Game, Material
from printgen.render.units import Paper

_RULES_CARD = "printgen.accordion:build_rules_card"
_CARD_OPTIONS = frozenset({"panels", "large_print", "fold"})


def _rules_card(name: str, description: str, source: str) -> Material:
    """A game's folding rules card, printed from its rules source in seeds/."""
    return Material(
        name,
        description,
        _RULES_CARD,
        accepts=_CARD_OPTIONS,
        rules_source=source,
    )


# Any rules source as a card: not a game's, and not standalone (it needs --rules FILE).
CARD = Material(
    "card",
    "Any rules source as a folding rules card: --rules FILE [--fold accordion|double]",
    _RULES_CARD,
    accepts=frozenset({"rules"}) | _CARD_OPTIONS,
    # A3 takes longer rules than A4 or Letter can: six panels a row.
    papers=(Paper.A4, Paper.LETTER, Paper.A3),
    standalone=False,
)

GAMES = (
    Game(
        name="war",
        title="War",
        materials=(
            _rules_card(
                "war-card",
                "War: one-sheet 4-panel accordion rules card with FOLD and FOLD & TEAR marks",
                "war.md",
            ),
        ),
        commands="printgen.games.war.cli:war",
        commands_help="Play War exactly as the War card says, or simulate many deals.",
    ),
    Game(
        name="one-page-war",
        title="One Page War",
        materials=(
            Material(
                "one-page-war",
                "One Page War duel sheet (landscape; --copies N for a batch, each its own id)",
                "printgen.games.one_page_war.sheets:build_duel",
                accepts=frozenset({"copies", "layout", "batch"}),
            ),
            Material(
                "one-page-war-solo",
                "One Page War solo sheet: the far side is the AI's, with its rules",
                "printgen.games.one_page_war.sheets:build_solo",
                accepts=frozenset({"copies", "layout", "batch"}),
            ),
            Material(
                "one-page-war-team",
                "One Page War team pack: --pairs N duel sheets (2-6) and a team tally sheet",
                "printgen.games.one_page_war.sheets:build_team",
                accepts=frozenset({"pairs", "copies", "layout", "batch"}),
            ),
            _rules_card(
                "one-page-war-card",
                "One Page War: the whole rules (team and solo too) as a folding rules card",
                "one-page-war.md",
            ),
        ),
        score="printgen.games.one_page_war.referee:score",
        commands="printgen.games.one_page_war.cli:commands",
        commands_help="One Page War: the solo AI's turn on a typed-in sheet; a photo's answer key.",
        layout="printgen.games.one_page_war.geometry:layout_json",
        read_photo="printgen.games.one_page_war.reader:read_photo",
    ),
    Game(
        name="one",
        title="ONE",
        materials=(
            Material(
                "one-board",
                "ONE: the circular board, as large as the paper allows, with how to play and the "
                "largest counter that fits",
                "printgen.games.one.materials:build_board",
                accepts=frozenset({"layout"}),
                papers=(Paper.A4, Paper.LETTER, Paper.A3),
            ),
            Material(
                "one-board-tiled",
                "ONE: a larger board on two sheets that tile, with alignment marks and an overlap",
                "printgen.games.one.materials:build_tiled_board",
                accepts=frozenset({"layout"}),
            ),
            Material(
                "one-score",
                "ONE: score sheet, each player's largest group, captured stones and total",
                "printgen.games.one.materials:build_score_sheet",
                accepts=frozenset({"layout"}),
            ),
            Material(
                "one-counters",
                "ONE: counters to cut out, six colours each patterned and lettered, sized to fit "
                "every board",
                "printgen.games.one.counters:build_counter_sheet",
                accepts=frozenset({"layout"}),
            ),
            _rules_card("one-card", "ONE: the rules as a folding rules card", "one.md"),
        ),
        score="printgen.games.one.referee:score_document",
        commands="printgen.games.one.cli:one",
        commands_help="ONE: check a capture on a typed-in position (score one with `printgen "
        "score FILE`).",
        layout="printgen.games.one.materials:layout_data",
    ),
    Game(
        name="package-war",
        title="Package War!",
        materials=(
            Material(
                "package-war-pad",
                "Package War! score pad: both players' columns, start 5, a row per round",
                "printgen.games.package_war.materials:build_pad",
                accepts=frozenset({"rules"}),
            ),
            Material(
                "package-war-mat",
                "Package War! play mat: the line of five, the pool, two tables each, reminders",
                "printgen.games.package_war.materials:build_mat",
                accepts=frozenset({"rules"}),
            ),
            _rules_card(
                "package-war-card",
                "Package War!: the whole rules as a folding rules card",
                "package-war.md",
            ),
        ),
        score="printgen.games.package_war.referee:score_round",
        commands="printgen.games.package_war.cli:commands",
        commands_help="Package War!: replay and check a game from its log.",
        layout="printgen.games.package_war.materials:layout_data",
    ),
    Game(
        name="aiue-battle",
        title="aiue battle",
        materials=(
            Material(
                "aiue-board",
                "aiue battle letter board: alphabet side and kana side, 2 pages",
                "printgen.games.aiue_battle.materials:build_board",
                accepts=frozenset({"layout"}),
            ),
            Material(
                "aiue-cards",
                "aiue battle letter cards: 40 fold-to-stand tent cards, 8 in each of 5 colours",
                "printgen.games.aiue_battle.materials:build_cards",
                accepts=frozenset({"layout"}),
            ),
            Material(
                "aiue-record",
                "aiue battle record sheet, one row per round, and the topic card",
                "printgen.games.aiue_battle.materials:build_record",
                accepts=frozenset({"layout"}),
            ),
            _rules_card(
                "aiue-battle-card",
                "aiue battle: the rules and topic ideas as a folding rules card",
                "aiue-battle.md",
            ),
        ),
        score="printgen.games.aiue_battle.referee:score",
        layout="printgen.games.aiue_battle.layout:geometry",
    ),
)


def all_games() -> tuple[Game, ...]:
    return GAMES


def all_materials() -> tuple[Material, ...]:
    """Every material, as `printgen list` shows them: the generic card, then each game's."""
    return (CARD, *(material for game in GAMES for material in game.materials))


def standalone_materials() -> tuple[Material, ...]:
    """What `printgen build all` builds: every material that needs no input file."""
    return tuple(m for m in all_materials() if m.standalone)


def game_named(name: str) -> Game | None:
    return next((game for game in GAMES if game.name == name), None)


def material_named(name: str) -> Material | None:
    return next((m for m in all_materials() if m.name == name), None)
