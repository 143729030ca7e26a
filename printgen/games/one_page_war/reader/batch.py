"""Many photos at once: a team game from the photos of its pack's sheets, and a print run's
summary, for a referee at a table or a tournament.

API (the CLI and the web app call these):
    read_photos(paths, options, progress=None, workers=None) -> tuple[PhotoResult, ...]
        Reads every photo, on all cores (a process pool) when there are several; one photo that
        cannot be read is a result with its reason, never the end of the batch.
    player_names(text, where) -> tuple[str, ...]          "Ann,Ben" (`--players`), checked
    Seating.from_text("Ann,Cid vs Ben,Dee") / Seating.from_mapping(document, source)
        Who played: two teams, and optionally which sheet id each pair sat at.
    team_result(results, seating, partial=False) -> TeamResult
        The team referee's result for one pack's sheets, with each sheet's table.
    PrintRun(results)                                      .to_text() .to_json() .to_csv()
        One row per sheet: sheet id, players, arenas won, winner, final or provisional; a sheet
        id read twice is listed as a duplicate and counted once.

Exit codes, for a batch: 1 when any photo was refused or the team cannot be made up (a person
must act on it), else 3 when any result is provisional, else 0 (docs/rulings.md)."""

from __future__ import annotations

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
from printgen.games.one_page_war.geometry import SHEET_ID_PATTERN
from printgen.games.one_page_war.reader.errors import (
    PlayerNamesError,
    SeatingError,
    TeamSheetsError,
)
from printgen.games.one_page_war.reader.report import EXIT_PROVISIONAL, PhotoReport, describe
from printgen.games.one_page_war.sheet import ARENA_KEYS, GAME_NAME
from printgen.materials import PhotoOptions, ScoreOptions, ScoreReport

EXIT_FINAL = 0
EXIT_REFUSED = 1

# (photos read so far, photos in all, the photo just read)
BatchProgress = Callable[[int, int, Path], None]

MAX_NAME = 40


@dataclass(frozen=True)
class PhotoResult:
    """One photo of a batch: its report, or why it was refused."""

    path: Path
    report: PhotoReport | None
    error: str | None = None

    @property
    def exit_code(self) -> int:
        return self.report.exit_code if self.report is not None else EXIT_REFUSED


def _read_one(path: Path, options: PhotoOptions) -> PhotoResult:
    """Read one photo; whatever goes wrong becomes its result (runs in a worker process)."""
    from printgen.games.one_page_war.reader import read_photo

    try:
        return PhotoResult(path, read_photo(path, options))
    except PrintgenError as error:
        return PhotoResult(path, None, str(error))
    except MemoryError:
        return PhotoResult(path, None, f"{path}: not enough memory to read this photo")
    except Exception as error:  # a fault in the reader must not cost the rest of the batch
        return PhotoResult(
            path,
            None,
            f"{path}: the reader failed on this photo ({type(error).__name__}: {error}); "
            "type this sheet in, and please report the photo",
        )


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def read_photos(
    paths: Sequence[Path],
    options: PhotoOptions,
    progress: BatchProgress | None = None,
    workers: int | None = None,
) -> tuple[PhotoResult, ...]:
    """Every photo's result, in the order given. Several photos are read on every core."""
    options = replace(options, annotate=None) if len(paths) > 1 else options
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
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
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
class TeamSheet:
    """One sheet of a team game as photographed: which pair played on it."""

    sheet_id: str
    players: tuple[str, str]  # near edge first
    photo: PhotoResult


@dataclass(frozen=True)
class TeamResult:
    """A team game read from photos: each sheet's photo and players, and the team referee's
    result (None, with the reason, while unsure cells keep it from being scored)."""

    seating: Seating
    sheets: tuple[TeamSheet, ...]
    mapping: dict[str, Any]  # the team game as typed in, for the referee
    score: ScoreReport | None
    score_problem: str | None

    @property
    def unsure(self) -> int:
        return sum(len(s.photo.report.unsure) for s in self.sheets if s.photo.report is not None)

    @property
    def exit_code(self) -> int:
        if self.unsure or self.score is None:
            return EXIT_PROVISIONAL
        return self.score.exit_code

    def to_text(self) -> str:
        lines = []
        for sheet in self.sheets:
            report = sheet.photo.report
            assert report is not None
            near, far = sheet.players
            lines.append(f"Sheet {sheet.sheet_id} ({near} near, {far} far): {sheet.photo.path}")
            lines += [f"  advice: {a}" for a in report.advice]
            if report.unsure:
                lines.append(f"  {len(report.unsure)} unsure cell(s):")
                lines += [f"    {describe(r, sheet.players)}" for r in report.unsure]
        lines.append("")
        if self.score is not None:
            lines.append(self.score.to_text())
        else:
            lines.append(f"not scored: {self.score_problem}")
        if self.unsure:
            lines.append(
                "PROVISIONAL: check the unsure cells above; the team game as read is in "
                "--json (`team_game`), to correct and score with `printgen score`."
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "mode": "team",
            "provisional": bool(self.unsure) or self.score is None,
            "sheets": [
                {
                    "file": str(s.photo.path),
                    "sheet_id": s.sheet_id,
                    "players": list(s.players),
                    **{
                        k: v
                        for k, v in (s.photo.report.to_json() if s.photo.report else {}).items()
                        if k in ("unsure", "advice", "layout", "version", "paper")
                    },
                }
                for s in self.sheets
            ],
            "team_game": self.mapping,
            "score": self.score.to_json() if self.score is not None else None,
            "score_problem": self.score_problem,
        }

    def summary(self) -> str:
        head = self.score.summary() if self.score else f"not scored ({self.score_problem})"
        return f"PROVISIONAL ({self.unsure} unsure cells): {head}" if self.unsure else head


def _id_index(sheet_id: str) -> tuple[str, int]:
    """T-3F2A-0007 -> ("T-3F2A", 7)."""
    base, _, number = sheet_id.rpartition("-")
    return base, int(number)


def _seat_by_pack(found: dict[str, PhotoResult], seating: Seating) -> dict[str, tuple[str, str]]:
    """Without [sheets]: the photos must be the N sheets of one pack (N pairs), in id order."""
    pairs = seating.pairs
    not_team = sorted(i for i in found if not i.startswith("T-"))
    if not_team:
        raise TeamSheetsError(
            f"{', '.join(not_team)} is no team pack sheet (its id starts "
            f"{not_team[0][:1]}-); seat such sheets with [sheets] in a team file"
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
    first, second = seating.teams
    return {sheet_id: (first.players[k], second.players[k]) for k, sheet_id in enumerate(expected)}


def team_result(
    results: Sequence[PhotoResult], seating: Seating, partial: bool = False
) -> TeamResult:
    """The team referee's result for the photos of one pack's sheets (or those `seating`
    lists). Raises TeamSheetsError naming a refused photo, an unread, missing, duplicated or
    unexpected sheet id."""
    refused = [r for r in results if r.report is None]
    if refused:
        raise TeamSheetsError(
            f"{len(refused)} photo(s) could not be read, and a team game needs every sheet: "
            f"{', '.join(str(r.path) for r in refused)}"
        )
    found: dict[str, PhotoResult] = {}
    for r in results:
        assert r.report is not None
        sheet_id = r.report.tag.sheet_id
        if sheet_id is None:
            raise TeamSheetsError(
                f"{r.path}: its QR code could not be read, so which sheet of the pack it is "
                "is unknown; retake it with the QR code in focus"
            )
        if sheet_id in found:
            raise TeamSheetsError(
                f"sheet {sheet_id} is photographed twice ({found[sheet_id].path} and {r.path}); "
                "give one photo of each sheet"
            )
        found[sheet_id] = r
    if seating.sheets:
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
                f"sheet {', '.join(extra)} ({found[extra[0]].path}) is not in {seating.source}'s "
                "[sheets]; seat its players there, or leave the photo out"
            )
    else:
        seats = _seat_by_pack(found, seating)
    layouts = {r.report.tag.layout for r in found.values() if r.report is not None}
    if len(layouts) > 1:
        raise TeamSheetsError(f"the sheets are of different layouts ({', '.join(sorted(layouts))})")
    sheets = tuple(TeamSheet(i, seats[i], found[i]) for i in sorted(seats))
    mapping = _team_mapping(sheets, seating, layouts.pop())
    score, problem = _score(
        mapping,
        seating.source,
        partial,
        any(s.photo.report.unsure for s in sheets if s.photo.report is not None),
    )
    return TeamResult(seating, sheets, mapping, score, problem)


def _team_mapping(sheets: Sequence[TeamSheet], seating: Seating, layout: str) -> dict[str, Any]:
    from printgen.games.one_page_war.layout import load_layout
    from printgen.games.one_page_war.reader.report import sheet_mapping

    table = []
    for sheet in sheets:
        report = sheet.photo.report
        assert report is not None
        read = sheet_mapping(
            report.reading,
            load_layout(layout, report.tag.version),
            "duel",
            report.tag,
            sheet.players,
        )
        table.append(
            {"players": list(sheet.players), "id": sheet.sheet_id, "arenas": read["arenas"]}
        )
    return {
        "game": GAME_NAME,
        "layout": layout,
        "mode": "team",
        "teams": {team.name: list(team.players) for team in seating.teams},
        "sheets": table,
    }


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
    status: str  # final, provisional, refused, duplicate
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
                earlier = first_of[sheet_id]
                same = earlier.report is not None and earlier.report.mapping == report.mapping
                status = "duplicate"
                note = f"sheet {sheet_id} again (first {earlier.path}); " + (
                    "read the same, counted once"
                    if same
                    else "READ DIFFERENTLY: check which is right"
                )
            else:
                if sheet_id is not None:
                    first_of[sheet_id] = result
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
        counts = dict.fromkeys(("final", "provisional", "refused", "duplicate"), 0)
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
                    r.sheet_id or ("-" if r.status == "refused" else "(unread)"),
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
            "duplicate(s) not counted",
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


def _outcome(report: PhotoReport) -> tuple[dict[str, int], str | None, str]:
    """Arenas won, the winner (None for a draw, or while provisional) and the result in words."""
    from printgen.games.one_page_war.referee import SheetReport

    score = report.score
    if not isinstance(score, SheetReport):
        return {}, None, report.summary()
    winner = score.winner if report.exit_code == EXIT_FINAL else None
    return score.arenas_won, winner, report.summary()


def _shown(name: str) -> str:
    """A name for a terminal: control characters escaped."""
    return name if name.isprintable() else repr(name)
