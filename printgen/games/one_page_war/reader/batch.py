"""Many photos at once: a team game from the photos of its pack's sheets, and a print run's
summary, for a referee at a table or a tournament.

API (the CLI and the web app call these):
    read_photos(photos, options, progress=None, workers=None) -> tuple[PhotoResult, ...]
        Reads every photo (or page of a scan, `photo.sheets_in`), on all cores (a process pool)
        when there are several; one photo that cannot be read is a result with its reason,
        never the end of the batch.
    player_names(text, where) -> tuple[str, ...]          "Ann,Ben" (`--players`), checked
    Seating.from_text("Ann,Cid vs Ben,Dee") / Seating.from_mapping(document, source)
        Who played: two teams, and optionally which sheet id each pair sat at.
    team_from_sheets(sheets, seating, partial=False, refused=()) -> TeamResult
        The team referee's result for one pack's sheets (SheetRead: sheet id, the sheet as read
        or corrected, the cells still to confirm), with each sheet's table; seating None seats
        them as the pack prints (near sides Team 1). `printgen score` and `printgen serve` both
        combine a team game with it.
    team_result(results, seating, partial=False) -> TeamResult
        The same from the photos just read (`printgen score --team/--teams`).
    PrintRun(results)                                      .to_text() .to_json() .to_csv()
        One row per sheet: sheet id, players, arenas won, winner, final or provisional; a sheet
        id read twice is listed as a duplicate and counted once (said to be two games on copies
        of one sheet when a quarter of their cells differ), and so is a retake whose id was not
        read, known by its cells.

Exit codes, for a batch: 1 when any photo was refused or the team cannot be made up (a person
must act on it), else 3 when any result is provisional, else 0 (docs/rulings.md)."""

from __future__ import annotations

import copy
import csv
import io
import multiprocessing
import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from printgen.errors import PrintgenError
from printgen.games.one_page_war.geometry import SHEET_ID_PATTERN, Kind
from printgen.games.one_page_war.reader.errors import (
    PlayerNamesError,
    ReaderFault,
    SeatingError,
    TeamSheetsError,
)
from printgen.games.one_page_war.reader.photo import ScanPage
from printgen.games.one_page_war.reader.report import (
    EXIT_PROVISIONAL,
    PhotoReport,
    describe,
    players_for,
)
from printgen.games.one_page_war.reader.truth import Cell, cell_of
from printgen.games.one_page_war.sheet import ARENA_KEYS, GAME_NAME
from printgen.materials import PhotoOptions, ScoreOptions, ScoreReport

EXIT_FINAL = 0
EXIT_REFUSED = 1

# A photo, or one page of a scan of several.
Photo = Path | ScanPage
# (photos read so far, photos in all, the photo just read)
BatchProgress = Callable[[int, int, Photo], None]

MAX_NAME = 40


@dataclass(frozen=True)
class PhotoResult:
    """One photo of a batch: its report, or why it was refused."""

    path: Photo
    report: PhotoReport | None
    error: str | None = None
    blank: bool = False  # a blank page of a scan (`errors.BlankPage`), passed over

    @property
    def exit_code(self) -> int:
        return self.report.exit_code if self.report is not None else EXIT_REFUSED


def _one_reader_per_core() -> None:
    """In each worker: the cores are the workers', so the recogniser keeps to one thread."""
    from printgen.games.one_page_war.reader import digits

    digits.read_on_one_thread()


def _read_one(path: Photo, options: PhotoOptions) -> PhotoResult:
    """Read one photo; whatever goes wrong becomes its result (runs in a worker process)."""
    from printgen.games.one_page_war.reader import read_photo
    from printgen.games.one_page_war.reader.errors import BlankPage

    try:
        if isinstance(path, ScanPage):
            return PhotoResult(path, read_photo(path.path, replace(options, page=path.page)))
        return PhotoResult(path, read_photo(path, options))
    except BlankPage as error:
        return PhotoResult(path, None, str(error), blank=True)
    except PrintgenError as error:
        return PhotoResult(path, None, str(error))
    except MemoryError:
        return PhotoResult(path, None, f"{path}: not enough memory to read this photo")
    except Exception as error:  # a fault in the reader must not cost the rest of the batch
        return PhotoResult(path, None, str(ReaderFault.of(path, error)))


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def read_photos(
    paths: Sequence[Photo],
    options: PhotoOptions,
    progress: BatchProgress | None = None,
    workers: int | None = None,
) -> tuple[PhotoResult, ...]:
    """Every photo's result, in the order given. Several photos are read on every core."""
    options = replace(options, annotate=None, plain=None) if len(paths) > 1 else options
    workers = min(workers or cores(), len(paths))
    results: dict[int, PhotoResult] = {}
    if workers <= 1:
        for n, path in enumerate(paths):
            results[n] = _read_one(path, options)
            if progress is not None:
                progress(n + 1, len(paths), path)
        return tuple(results[n] for n in range(len(paths)))
    # Fresh interpreters: a forked copy of a process that has started OpenCV's or numpy's
    # threads can hang.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_one_reader_per_core
    ) as pool:
        futures = {pool.submit(_read_one, path, options): n for n, path in enumerate(paths)}
        for done, future in enumerate(as_completed(futures), start=1):
            n = futures[future]
            try:
                results[n] = future.result()
            except Exception as error:  # the worker itself died (killed, out of memory)
                results[n] = PhotoResult(
                    paths[n], None, f"{paths[n]}: the reading process failed ({error})"
                )
            if progress is not None:
                progress(done, len(paths), paths[n])
    return tuple(results[n] for n in range(len(paths)))


# Names --------------------------------------------------------------------------------------


def _name(text: str, where: str) -> str:
    name = text.strip()
    if not name:
        raise PlayerNamesError(f"{where}: an empty name; give names such as Ann,Ben")
    if len(name) > MAX_NAME:
        raise PlayerNamesError(f"{where}: the name {name[:20]!r}... is over {MAX_NAME} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name):
        raise PlayerNamesError(f"{where}: the name {name!r} holds a control character")
    if name in ARENA_KEYS:
        raise PlayerNamesError(f"{where}: a player cannot be called {name!r} (it is a sheet key)")
    return name


def _distinct(names: Sequence[str], where: str) -> None:
    seen = set()
    for name in names:
        if name in seen:
            raise PlayerNamesError(f"{where}: {name!r} is named twice")
        seen.add(name)


def player_names(text: str, where: str = "--players") -> tuple[str, ...]:
    """`--players "Ann,Ben"`: the sheet's players, near edge first (a solo sheet: one name, or
    two with the AI's)."""
    names = tuple(_name(part, where) for part in text.split(","))
    if len(names) not in (1, 2):
        raise PlayerNamesError(
            f"{where}: {text!r} names {len(names)} players; a sheet has two, near edge first "
            '("Ann,Ben"), or one for a solo sheet ("Ann")'
        )
    _distinct(names, where)
    return names


# Team games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Team:
    name: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Seating:
    """Who played a team game: two teams, and which sheet each pair played on.

    `sheets` maps a sheet id to its two players, near edge first. Without it the pack's k-th
    sheet (by sheet id) is played by the first team's k-th player at the near edge, facing the
    second team's k-th player: the team pack prints "Team 1" at the near edge."""

    teams: tuple[Team, Team]
    sheets: tuple[tuple[str, tuple[str, str]], ...] = ()
    source: str = "--teams"

    @property
    def pairs(self) -> int:
        return len(self.teams[0].players)

    def team_of(self, player: str) -> Team:
        return next(t for t in self.teams if player in t.players)

    @classmethod
    def from_text(cls, text: str, where: str = "--teams") -> Seating:
        """`--teams "Ann,Cid vs Ben,Dee"`: Team 1 and Team 2, players in sheet order."""
        halves = [h for h in (part.strip() for part in text.split(" vs ")) if h]
        if len(halves) != 2:
            raise SeatingError(
                f'{where}: {text!r} should name two teams of players, such as "Ann,Cid vs Ben,Dee"'
            )
        teams = tuple(
            Team(f"Team {n}", tuple(_name(p, where) for p in half.split(",")))
            for n, half in enumerate(halves, start=1)
        )
        return cls._checked((teams[0], teams[1]), (), where)

    @classmethod
    def from_mapping(cls, document: Mapping[str, Any], source: str) -> Seating:
        """A team file: `teams = { North = ["Ann", "Cid"], South = ["Ben", "Dee"] }`, and
        optionally `[sheets]` with `"T-3F2A-0001" = ["Ann", "Ben"]` (near edge first)."""
        example = 'teams = { North = ["Ann", "Cid"], South = ["Ben", "Dee"] }'
        unknown = sorted(set(document) - {"game", "mode", "teams", "sheets"})
        if unknown:
            raise SeatingError(
                f"{source}: unknown key {unknown[0]!r}; a team file holds `teams` and, "
                "optionally, `[sheets]` (sheet id = [near player, far player])"
            )
        if document.get("game", GAME_NAME) != GAME_NAME:
            raise SeatingError(
                f"{source}: game = {document.get('game')!r}; team files are {GAME_NAME}"
            )
        raw = document.get("teams")
        if not isinstance(raw, Mapping) or len(raw) != 2:
            raise SeatingError(f"{source}: `teams` should name two teams: {example}")
        teams = []
        for name, players in raw.items():
            where = f"{source}, team {name!r}"
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise SeatingError(f"{where}: should list its players' names, {example}")
            teams.append(
                Team(_name(str(name), f"{source}, teams"), tuple(_name(p, where) for p in players))
            )
        seats: list[tuple[str, tuple[str, str]]] = []
        sheets = document.get("sheets", {})
        if isinstance(sheets, list):
            raise SeatingError(
                f"{source}: [[sheets]] is how a typed-in team game lists its sheets; score that "
                "file on its own (printgen score FILE), or write [sheets] with "
                '"SHEET-ID" = ["near player", "far player"] to seat photos'
            )
        if not isinstance(sheets, Mapping):
            raise SeatingError(
                f'{source}: [sheets] should map sheet ids to two players: "T-..." = [...]'
            )
        for sheet_id, pair in sheets.items():
            where = f"{source}, sheet {sheet_id!r}"
            if not SHEET_ID_PATTERN.fullmatch(str(sheet_id).upper()):
                raise SeatingError(f"{where}: not a sheet id (such as T-3F2A-0001)")
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(p, str) for p in pair)
            ):
                raise SeatingError(f"{where}: should name its two players, near edge first")
            near, far = (_name(p, where) for p in pair)
            seats.append((str(sheet_id).upper(), (near, far)))
        return cls._checked((teams[0], teams[1]), tuple(seats), source)

    @classmethod
    def _checked(
        cls, teams: tuple[Team, Team], seats: tuple[tuple[str, tuple[str, str]], ...], where: str
    ) -> Seating:
        first, second = teams
        for team in teams:
            _distinct(team.players, f"{where}, team {team.name}")
        both = sorted(set(first.players) & set(second.players))
        if both:
            raise SeatingError(f"{where}: {', '.join(both)} cannot play on both teams")
        if first.name == second.name:
            raise SeatingError(f"{where}: both teams are called {first.name!r}")
        players = set(first.players) | set(second.players)
        for team in teams:
            if team.name in players:
                raise SeatingError(
                    f"{where}: team {team.name!r} has a player's name; name the teams apart "
                    "from their players, or the result cannot say who won"
                )
        if len(first.players) != len(second.players):
            raise SeatingError(
                f"{where}: team {first.name} has {len(first.players)} players and team "
                f"{second.name} {len(second.players)}: every player faces one opponent"
            )
        if not 2 <= len(first.players) <= 6:
            raise SeatingError(
                f"{where}: a team game has 2 to 6 players a team, not {len(first.players)}"
            )
        seated: dict[str, str] = {}
        for sheet_id, pair in seats:
            if (
                pair[0] in first.players
                and pair[1] in first.players
                or (pair[0] in second.players and pair[1] in second.players)
            ):
                raise SeatingError(f"{where}: on sheet {sheet_id} both players are on one team")
            for player in pair:
                if player not in players:
                    raise SeatingError(f"{where}: sheet {sheet_id}: {player!r} is on neither team")
                if player in seated:
                    raise SeatingError(
                        f"{where}: {player} plays on sheets {seated[player]} and {sheet_id}"
                    )
                seated[player] = sheet_id
        if seats and len(seated) != len(players):
            unseated = sorted(players - set(seated))
            raise SeatingError(f"{where}: {', '.join(unseated)} sit(s) at no sheet in [sheets]")
        return cls(teams, seats, where)


@dataclass(frozen=True)
class SheetRead:
    """One sheet of a team game as its photo was read, or as a person has since corrected it:
    what `team_from_sheets` combines. `printgen score` makes these from the photos it has just
    read; the web app from each sheet as corrected on its page."""

    source: str  # the photo, as messages name it (its path; on the web, its file name)
    sheet_id: str | None  # None: its QR code was not read
    # The duel sheet in the typed-in format: layout, players (near edge first), arenas.
    sheet: Mapping[str, Any]
    to_confirm: int = 0  # cells read but not yet checked by a person: provisional while any
    report: PhotoReport | None = None  # the reading, when just made: its advice and unsure cells

    @property
    def players(self) -> tuple[str, str]:
        players = self.sheet.get("players")
        if not isinstance(players, list | tuple) or len(players) != 2:
            raise TeamSheetsError(f"{self.source}: the sheet names no two players, near edge first")
        return str(players[0]), str(players[1])

    @property
    def layout(self) -> str:
        return str(self.sheet.get("layout", ""))

    @classmethod
    def from_photo(cls, result: PhotoResult) -> SheetRead:
        report = result.report
        if report is None:
            raise TeamSheetsError(f"{result.path}: not read ({result.error})")
        return cls(
            str(result.path), report.tag.sheet_id, report.mapping, len(report.unsure), report
        )


@dataclass(frozen=True)
class TeamSheet:
    """One sheet of a team game, seated: which pair played on it."""

    sheet_id: str
    players: tuple[str, str]  # near edge first
    read: SheetRead


@dataclass(frozen=True)
class TeamResult:
    """A team game from its sheets: each sheet with its players, the team game as the referee
    takes it typed in, and the team referee's result (None, with the reason, while cells still
    to confirm keep it from being scored)."""

    seating: Seating
    sheets: tuple[TeamSheet, ...]
    mapping: dict[str, Any]  # the team game as typed in, for the referee
    score: ScoreReport | None
    score_problem: str | None

    @property
    def to_confirm(self) -> int:
        return sum(s.read.to_confirm for s in self.sheets)

    @property
    def exit_code(self) -> int:
        if self.to_confirm or self.score is None:
            return EXIT_PROVISIONAL
        return self.score.exit_code

    def to_text(self) -> str:
        lines = []
        for sheet in self.sheets:
            near, far = sheet.players
            lines.append(f"Sheet {sheet.sheet_id} ({near} near, {far} far): {sheet.read.source}")
            report = sheet.read.report
            if report is not None:
                lines += [f"  advice: {a}" for a in report.advice]
                if report.unsure:
                    lines.append(f"  {len(report.unsure)} unsure cell(s):")
                    lines += [f"    {describe(r, sheet.players)}" for r in report.unsure]
            elif sheet.read.to_confirm:
                lines.append(f"  {sheet.read.to_confirm} cell(s) to confirm")
        lines.append("")
        if self.score is not None:
            lines.append(self.score.to_text())
        else:
            lines.append(f"not scored: {self.score_problem}")
        if self.to_confirm:
            lines.append(
                "PROVISIONAL: check the unsure cells above; the team game as read is in "
                "--json (`team_game`), to correct and score with `printgen score`."
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "mode": "team",
            "provisional": bool(self.to_confirm) or self.score is None,
            "sheets": [_sheet_json(s) for s in self.sheets],
            "team_game": self.mapping,
            "score": self.score.to_json() if self.score is not None else None,
            "score_problem": self.score_problem,
        }

    def summary(self) -> str:
        head = self.score.summary() if self.score else f"not scored ({self.score_problem})"
        return f"PROVISIONAL ({self.to_confirm} unsure cells): {head}" if self.to_confirm else head


def _sheet_json(sheet: TeamSheet) -> dict[str, Any]:
    data: dict[str, Any] = {
        "file": sheet.read.source,
        "sheet_id": sheet.sheet_id,
        "players": list(sheet.players),
        "to_confirm": sheet.read.to_confirm,
    }
    report = sheet.read.report
    if report is not None:
        read = report.to_json()
        # The reader named the sides as it read them; the team game names who sat there.
        seated = dict(zip(sheet.read.players, sheet.players, strict=True))
        data["unsure"] = [
            {**c, "player": seated.get(c["player"], c["player"])} for c in read["unsure"]
        ]
        data |= {k: read[k] for k in ("advice", "layout", "version", "paper")}
    return data


def team_result(
    results: Sequence[PhotoResult], seating: Seating, partial: bool = False
) -> TeamResult:
    """`printgen score --team/--teams`: the team game from the photos just read (see
    `team_from_sheets`; a refused photo is named in the error)."""
    refused = [str(r.path) for r in results if r.report is None]
    read = [SheetRead.from_photo(r) for r in results if r.report is not None]
    return team_from_sheets(read, seating, partial, refused)


def team_from_sheets(
    sheets: Sequence[SheetRead],
    seating: Seating | None,
    partial: bool = False,
    refused: Sequence[str] = (),
) -> TeamResult:
    """The team referee's result for the sheets of one team pack (or those `seating` seats).

    `seating` None seats the pack as it prints: every near side plays for Team 1, every far
    side for Team 2, each player by the name the sheet gives, with the sheet's number in the
    pack added to a reader's placeholder (First 1, Second 1) or to a name on several sheets.
    `refused`: photos of the game that could not be read. Raises TeamSheetsError naming a
    refused photo, an unread, missing, duplicated or unexpected sheet id; SeatingError when the
    sheets' own names cannot seat two teams."""
    if refused:
        photos = "1 photo" if len(refused) == 1 else f"{len(refused)} photos"
        raise TeamSheetsError(
            f"{photos} could not be read, and a team game needs every sheet: {', '.join(refused)}"
        )
    if not sheets:
        raise TeamSheetsError("no sheet was read, and a team game needs every sheet of its pack")
    found: dict[str, SheetRead] = {}
    for read in sheets:
        if read.sheet_id is None:
            raise TeamSheetsError(
                f"{read.source}: its QR code could not be read, so which sheet of the pack it "
                "is is unknown; retake it with the QR code in focus"
            )
        if read.sheet_id in found:
            raise TeamSheetsError(
                f"sheet {read.sheet_id} is photographed twice ({found[read.sheet_id].source} "
                f"and {read.source}); give one photo of each sheet (sheets photocopied from "
                "one print share its id: a team game needs the sheets of one team pack, each "
                "with its own id)"
            )
        found[read.sheet_id] = read
    layouts = {read.layout for read in found.values()}
    if len(layouts) > 1:
        raise TeamSheetsError(f"the sheets are of different layouts ({', '.join(sorted(layouts))})")
    if seating is not None and seating.sheets:
        seats = _seats_listed(found, seating)
    else:
        ids = _pack_ids(found, seating)
        if seating is None:
            seating = _seating_by_side([found[i] for i in ids])
        first, second = seating.teams
        seats = {i: (first.players[k], second.players[k]) for k, i in enumerate(ids)}
    seated = tuple(TeamSheet(i, seats[i], found[i]) for i in sorted(seats))
    mapping = {
        "game": GAME_NAME,
        "layout": layouts.pop(),
        "mode": "team",
        "teams": {team.name: list(team.players) for team in seating.teams},
        "sheets": [_seated_sheet(s) for s in seated],
    }
    unsure = any(s.read.to_confirm for s in seated)
    score, problem = _score(mapping, seating.source, partial, unsure)
    return TeamResult(seating, seated, mapping, score, problem)


def _seats_listed(found: dict[str, SheetRead], seating: Seating) -> dict[str, tuple[str, str]]:
    """A team file's [sheets]: the photos must be those it lists."""
    seats = dict(seating.sheets)
    missing = [i for i in seats if i not in found]
    extra = [i for i in found if i not in seats]
    if missing:
        raise TeamSheetsError(
            f"no photo of sheet {', '.join(missing)} ({seating.source} seats "
            f"{' and '.join(seats[missing[0]])} there); add its photo"
        )
    if extra:
        raise TeamSheetsError(
            f"sheet {', '.join(extra)} ({found[extra[0]].source}) is not in {seating.source}'s "
            "[sheets]; seat its players there, or leave the photo out"
        )
    return seats


def _id_index(sheet_id: str) -> tuple[str, int]:
    """T-3F2A-0007 -> ("T-3F2A", 7)."""
    base, _, number = sheet_id.rpartition("-")
    return base, int(number)


def pack_size(sheet_id: str, layout: str) -> int | None:
    """How many sheets a team pack holds, as its sheets' ids say: a pack printed without a print
    run's name (`--batch`) takes its four hex digits from the layout, paper and pack size. None
    when the id says nothing (a named print run)."""
    from printgen.games.one_page_war.geometry import sheet_id as make_id
    from printgen.games.one_page_war.sheets import MAX_PAIRS, MIN_PAIRS, _team_seed
    from printgen.render.units import Paper

    base, _ = _id_index(sheet_id)
    sizes = {
        pairs
        for paper in Paper
        for pairs in range(MIN_PAIRS, MAX_PAIRS + 1)
        if _id_index(make_id("team", layout, paper, 1, seed=_team_seed(pairs, "")))[0] == base
    }
    return sizes.pop() if len(sizes) == 1 else None


def _pack_ids(found: dict[str, SheetRead], seating: Seating | None) -> list[str]:
    """The ids of the one pack the sheets must make up, in order. Its size is the number of
    pairs `seating` names, else what the ids say, else the number of sheets."""
    not_team = sorted(i for i in found if not i.startswith("T-"))
    if not_team:
        raise TeamSheetsError(
            f"{', '.join(not_team)} is no team pack sheet (its id starts "
            f"{not_team[0][:1]}-); seat such sheets with [sheets] in a team file"
        )
    sizes = {i: size for i, r in found.items() if (size := pack_size(i, r.layout)) is not None}
    pairs = len(found)
    if seating is not None:
        pairs = seating.pairs
    elif sizes:
        pairs = min(sizes.values())
    other = sorted(i for i, size in sizes.items() if size != pairs)
    if other:
        size = sizes[other[0]]
        said = (
            f"{seating.source} seats {pairs} pairs: name {size} players a team"
            if seating is not None
            else f"sheet {min(i for i in sizes if i not in other)} is of a {pairs}-sheet pack"
        )
        raise TeamSheetsError(
            f"sheet {other[0]} ({found[other[0]].source}) is one of a pack of {size} sheets, "
            f"as its id says, but {said}, or give the photos of one pack"
        )
    packs: dict[tuple[str, int], list[str]] = {}
    for sheet_id in found:
        base, index = _id_index(sheet_id)
        packs.setdefault((base, (index - 1) // pairs), []).append(sheet_id)
    if len(packs) > 1:
        listed = "; ".join(", ".join(sorted(ids)) for ids in packs.values())
        raise TeamSheetsError(
            f"the photos hold sheets of {len(packs)} team packs ({listed}); give the "
            f"{pairs} sheets of one pack (one game) at a time"
        )
    base, pack = next(iter(packs))
    expected = [f"{base}-{pack * pairs + k:04d}" for k in range(1, pairs + 1)]
    missing = [sheet_id for sheet_id in expected if sheet_id not in found]
    if missing:
        raise TeamSheetsError(
            f"no photo of sheet {', '.join(missing)} (a team of {pairs} plays {pairs} sheets: "
            f"{', '.join(expected)}); add its photo"
        )
    return expected


def _seating_by_side(sheets: Sequence[SheetRead]) -> Seating:
    """The pack's own seating for its sheets in order: near sides Team 1, far sides Team 2, each
    player named by the sheet, numbered by the sheet where that name says nothing of who it is."""
    placeholders = set(players_for("duel"))
    named = [name for read in sheets for name in read.players]
    teams: tuple[list[str], list[str]] = ([], [])
    for k, read in enumerate(sheets, start=1):
        for team, name in zip(teams, read.players, strict=True):
            plain = name not in placeholders and named.count(name) == 1
            team.append(name if plain else f"{name} {k}")
    near, far = (Team(f"Team {n}", tuple(names)) for n, names in enumerate(teams, start=1))
    return Seating._checked((near, far), (), "the team's sheets")


def _seated_sheet(sheet: TeamSheet) -> dict[str, Any]:
    """A sheet as the team game lists it: its arenas under the names of who sat there."""
    seated = dict(zip(sheet.read.players, sheet.players, strict=True))
    arenas = {
        name: {seated.get(key, key): copy.deepcopy(value) for key, value in table.items()}
        for name, table in dict(sheet.read.sheet.get("arenas", {})).items()
    }
    return {"players": list(sheet.players), "id": sheet.sheet_id, "arenas": arenas}


def _score(
    mapping: dict[str, Any], source: str, partial: bool, unsure: bool
) -> tuple[ScoreReport | None, str | None]:
    from printgen.games.one_page_war.referee import score

    try:
        return score(mapping, source, ScoreOptions(partial=partial)), None
    except PrintgenError as error:
        if unsure:
            return None, str(error)  # the misread cells may be what the referee rejects
        raise


# Print runs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunRow:
    file: str
    sheet_id: str | None
    mode: str | None
    players: tuple[str, ...]
    arenas_won: dict[str, int]
    winner: str | None
    status: str  # final, provisional, refused, duplicate, blank (a blank page, passed over)
    note: str  # the result in words, why it was refused, or whose duplicate it is

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "sheet_id": self.sheet_id,
            "mode": self.mode,
            "players": list(self.players),
            "arenas_won": self.arenas_won,
            "winner": self.winner,
            "status": self.status,
            "note": self.note,
        }


@dataclass(frozen=True)
class PrintRun:
    """Every photo of a print run (a batch of sheets with their ids), one row each."""

    results: tuple[PhotoResult, ...]

    @property
    def rows(self) -> tuple[RunRow, ...]:
        rows = []
        first_of: dict[str, PhotoResult] = {}
        for result in self.results:
            report = result.report
            if result.blank:
                rows.append(
                    RunRow(str(result.path), None, None, (), {}, None, "blank", result.error or "")
                )
                continue
            if report is None:
                rows.append(
                    RunRow(
                        str(result.path), None, None, (), {}, None, "refused", result.error or ""
                    )
                )
                continue
            sheet_id = report.tag.sheet_id
            won, winner, note = _outcome(report)
            if sheet_id is not None and sheet_id in first_of:
                status, note = "duplicate", _again(sheet_id, first_of[sheet_id], report)
            # A retake whose sheet id was not read, or whose id was read where the first
            # photo's was not, is known by what it reads.
            elif (
                retaken := _read_the_same(
                    report,
                    [
                        r
                        for r in first_of.values()
                        if sheet_id is None or r.report is None or r.report.tag.sheet_id is None
                    ],
                )
            ) is not None:
                status = "duplicate"
                if sheet_id is not None:  # later photos of this id are the same sheet's
                    first_of[sheet_id] = retaken
                unread = "its sheet id" if sheet_id is None else "the sheet id of the first"
                note = (
                    f"again (first {retaken.path}): {unread} could not be read, but every cell "
                    "read surely on both reads the same; a retake of one sheet, counted once"
                )
            else:
                first_of[sheet_id or f"(unread) {result.path}"] = result
                status = "provisional" if report.exit_code != EXIT_FINAL else "final"
            rows.append(
                RunRow(
                    str(result.path),
                    sheet_id,
                    report.tag.mode,
                    report.players,
                    won,
                    winner,
                    status,
                    note,
                )
            )
        return tuple(rows)

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(("final", "provisional", "refused", "duplicate", "blank"), 0)
        for row in self.rows:
            counts[row.status] += 1
        return counts

    @property
    def exit_code(self) -> int:
        rows = self.rows
        if any(r.status == "refused" for r in rows):
            return EXIT_REFUSED
        if any(r.status == "provisional" or "DIFFERENTLY" in r.note for r in rows):
            return EXIT_PROVISIONAL
        return EXIT_FINAL

    def to_text(self) -> str:
        header = ("Photo", "Sheet", "Players", "Arenas won", "Winner", "Status")
        table = [header]
        for r in self.rows:
            table.append(
                (
                    r.file,
                    r.sheet_id or ("-" if r.status in ("refused", "blank") else "(unread)"),
                    " vs ".join(_shown(p) for p in r.players) or "-",
                    "-".join(str(r.arenas_won[p]) for p in r.players) if r.arenas_won else "-",
                    _shown(r.winner) if r.winner else "-",
                    r.status,
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines = [
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in table
        ]
        notes = [
            r.note if r.note.startswith(r.file) else f"{r.file}: {r.note}"
            for r in self.rows
            if r.status != "final" and r.note
        ]
        counts = self.counts()
        sheets = counts["final"] + counts["provisional"]
        lines += [
            "",
            f"{sheets} sheet(s) read: {counts['final']} final, {counts['provisional']} "
            f"provisional; {counts['refused']} photo(s) refused; {counts['duplicate']} "
            "duplicate(s) not counted"
            + (f"; {counts['blank']} blank page(s) passed over" if counts["blank"] else ""),
        ]
        if notes:
            lines += ["", *notes]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "sheets": [r.to_json() for r in self.rows],
            "counts": self.counts(),
        }

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(
            (
                "file",
                "sheet_id",
                "mode",
                "first_player",
                "second_player",
                "first_arenas",
                "second_arenas",
                "winner",
                "status",
                "note",
            )
        )
        for r in self.rows:
            first, second = (r.players + ("", ""))[:2]
            writer.writerow(
                (
                    r.file,
                    r.sheet_id or "",
                    r.mode or "",
                    first,
                    second,
                    r.arenas_won.get(first, "") if r.arenas_won else "",
                    r.arenas_won.get(second, "") if r.arenas_won else "",
                    r.winner or "",
                    r.status,
                    r.note,
                )
            )
        return buffer.getvalue()


# Two photos of one sheet id whose cells differ in this share or more of the cells written on
# either are two games, not one sheet read two ways: players photocopied one printed sheet.
COPIES_SHARE = 0.25


def _cells(report: PhotoReport, sure_only: bool = False) -> dict[Cell, str]:
    """What each cell of the photo's sheet reads (with `sure_only`, each cell read surely)."""
    return {cell_of(r.element): r.value for r in report.reading.all if not (sure_only and r.unsure)}


def _blank(value: str) -> bool:
    return value in ("_", "empty")


def _again(sheet_id: str, earlier: PhotoResult, report: PhotoReport) -> str:
    """The note of a second photo of `sheet_id`: read the same, read a little differently (a
    retake to check), or so differently that they are two games on copies of one sheet."""
    first = f"sheet {sheet_id} again (first {earlier.path}); "
    assert earlier.report is not None
    if earlier.report.mapping == report.mapping:
        return first + "read the same, counted once"
    before, now = _cells(earlier.report), _cells(report)
    written = [k for k in now if not (_blank(now[k]) and _blank(before.get(k, "_")))]
    differ = sum(now[k] != before.get(k) for k in written)
    if written and differ >= COPIES_SHARE * len(written):
        return first + (
            f"READ DIFFERENTLY: {differ} of the {len(written)} cells written differ, so these "
            "look like two games on copies of one printed sheet, and only the first is counted; "
            "give each game a sheet of its own id (printgen build one-page-war --copies N) or "
            "score it on its own"
        )
    return first + (
        f"READ DIFFERENTLY in {differ} of the {len(written)} cells written: check which is right"
    )


# A photo whose sheet id was not read is a retake of an earlier photo when the cells both read
# surely agree, and as many number squares as this or more hold the same number on both: few
# numbers in the same squares could be two games' first turns.
RETAKE_NUMBERS = 6


def _read_the_same(report: PhotoReport, earlier: Sequence[PhotoResult]) -> PhotoResult | None:
    """The earlier photo of which `report`'s is a retake (RETAKE_NUMBERS), if any."""
    sure = _cells(report, sure_only=True)
    for result in earlier:
        if result.report is None:
            continue
        theirs = _cells(result.report, sure_only=True)
        both = sure.keys() & theirs.keys()
        if any(sure[k] != theirs[k] for k in both):
            continue
        numbers = sum(k[0] == Kind.SQUARE.value and not _blank(sure[k]) for k in both)
        if numbers >= RETAKE_NUMBERS:
            return result
    return None


def _outcome(report: PhotoReport) -> tuple[dict[str, int], str | None, str]:
    """Arenas won, the winner and the result in words. The winner is None for a draw, and
    while the sheet is provisional unless no unsure cell can change who wins (stakes.py): the
    summary line said "First wins" where the table's winner was "-"."""
    from printgen.games.one_page_war.referee import SheetReport

    score = report.score
    if not isinstance(score, SheetReport):
        return {}, None, report.summary()
    holds = report.stakes is not None and report.stakes.holds
    winner = score.winner if report.exit_code == EXIT_FINAL or holds else None
    return score.arenas_won, winner, report.summary()


def _shown(name: str) -> str:
    """A name for a terminal: control characters escaped."""
    return name if name.isprintable() else repr(name)
