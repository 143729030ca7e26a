"""The games printgen knows: one package each, a pure rules engine beside what it prints."""

from __future__ import annotations

from printgen.materials import Game, Material


def all_games() -> tuple[Game, ...]:
    # Imported here, not at module level, so `printgen --help` stays fast and a game's heavy
    # imports (OpenCV) load only when that game is used.
    from printgen.games import aiue_battle, one, one_page_war, package_war, war

    return (war.GAME, one_page_war.GAME, one.GAME, package_war.GAME, aiue_battle.GAME)


def all_materials() -> tuple[Material, ...]:
    from printgen import accordion

    materials: list[Material] = [accordion.CARD]
    for game in all_games():
        materials.extend(game.materials)
    return tuple(materials)


def standalone_materials() -> tuple[Material, ...]:
    """What `printgen build all` builds: every material that needs no input file."""
    return tuple(m for m in all_materials() if m.standalone)


def game_named(name: str) -> Game | None:
    return next((game for game in all_games() if game.name == name), None)
