"""The web app: routes that parse a request, call the engines as the CLI does, and render a page.

Every sheet scored is kept for the night (printgen.web.store): a form post answers with a
redirect to the result's own page, so reloading it never sends the photo again, and the result
can be corrected, shown again and downloaded. An uploaded photo itself is deleted as soon as it
is read; what is kept is the sheet read from it and the annotated picture of the sheet."""

from __future__ import annotations

import atexit
import csv
import io
import json
import re
import secrets
import shutil
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from flask import Flask, abort, redirect, render_template, request, url_for
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from printgen.errors import InputError, PrintgenError, quote
from printgen.games.one_page_war.reader.errors import BlankPage, ReaderFault
from printgen.games.one_page_war.reader.photo import ScanPage, sheets_in, source_name
from printgen.materials import PhotoOptions, ScoreReport
from printgen.paths import ROOT
from printgen.scoring import read_photo
from printgen.web import guard, printing, typed
from printgen.web.photo import (
    Corrections,
    PhotoSheet,
    corrected_sheet,
    first_corrections,
    photo_sheet,
    read_corrections,
)
from printgen.web.store import Kept, Store
from printgen.web.uploads import (
    MAX_PHOTO_BYTES,
    MAX_PHOTOS,
    MAX_UPLOAD_BYTES,
    MB,
    Refused,
    prepare,
)
from printgen.web.views import ResultView, plural, result_view

PhotoReader = Callable[[Path, PhotoOptions], ScoreReport]

# HTTP statuses for the ways a sheet can be wrong. 422: understood, but not a sheet that scores.
UNPROCESSABLE = 422
SEE_OTHER = 303
TEXT_LIMIT = 400_000  # characters of a pasted sheet


@dataclass(frozen=True)
class Entry:
    """One result of the night: a sheet typed in, a photo read, or several photos at once."""

    source: str  # the photo's or file's own name, or "the pasted sheet"
    made: float
    sheet: Mapping[str, Any] | None  # the sheet as scored (corrected, renamed)
    result: ResultView | None
    problem: str | None = None  # why the sheet cannot be scored, when it cannot
    photo: PhotoSheet | None = None
    corrections: Corrections | None = None
    members: tuple[str, ...] = ()  # several photos: the keys of their results
    refused: tuple[str, ...] = ()  # several photos: those that could not be read, and why
    refused_photos: tuple[str, ...] = ()  # their names
    passed_over: tuple[str, ...] = ()  # several pages of a scan: the blank ones, passed over
    team: bool = False  # several photos of a team pack: scored together

    @property
    def size(self) -> int:
        text = len(self.result.text) * 2 if self.result else 0
        return 2048 + text + (self.photo.size if self.photo else 0)


@dataclass(frozen=True)
class Settings:
    """What one app instance needs, fixed when it is created."""

    upload_root: Path
    read_photo: PhotoReader
    # Reading a photo holds a few hundred MB; this bounds how many are read at once so that
    # twenty phones cannot exhaust memory. Other pages never wait on it.
    photo_slots: threading.BoundedSemaphore
    results: Store[Entry]


def create_app(
    token: str | None = None,
    upload_root: Path | None = None,
    photo_reader: PhotoReader | None = None,
    photo_workers: int = 2,
    hosts: Collection[str] = guard.LOOPBACK_NAMES,
    max_results: int | None = None,
    max_result_bytes: int | None = None,
) -> Flask:
    """The app. With `token`, every request must carry `?t=TOKEN` (links made here do).
    `upload_root`: where photos are put while read (a new temporary folder by default);
    `photo_reader`: the reader to use (the registry's, as `printgen score photo.jpg` uses);
    `photo_workers`: how many photos are read at the same time; `hosts`: the names the server
    answers to (its address); `max_results`, `max_result_bytes`: the caps on kept results."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    app.config["MAX_FORM_MEMORY_SIZE"] = TEXT_LIMIT * 4
    if upload_root is None:
        upload_root = Path(tempfile.mkdtemp(prefix="printgen-serve-"))
        atexit.register(shutil.rmtree, upload_root, ignore_errors=True)
    caps: dict[str, int] = {}
    if max_results is not None:
        caps["max_entries"] = max_results
    if max_result_bytes is not None:
        caps["max_bytes"] = max_result_bytes
    settings = Settings(
        upload_root=upload_root,
        read_photo=photo_reader or read_photo,
        photo_slots=threading.BoundedSemaphore(photo_workers),
        results=Store(lambda entry: entry.size, **caps),
    )
    app.extensions["printgen"] = settings
    guard.install(app, token, hosts)

    def public(message: str) -> str:
        """A message as the page may show it: no path of this machine in it."""
        for root in (upload_root, ROOT):
            message = message.replace(f"{root}/", "").replace(str(root), "")
        return message

    @app.errorhandler(guard.Refusal)
    def refused(error: guard.Refusal) -> tuple[str, int]:
        return _error_page(error.status, error.message)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        status = error.code or 500
        if isinstance(error, InternalServerError):
            status = 500
        messages = {
            403: "This page needs the link from the QR code shown where the server runs.",
            404: "There is no such page.",
            405: "This address takes a form; start again from the page.",
            413: (
                f"The upload is over {MAX_UPLOAD_BYTES // MB} MB in all: send fewer photos at "
                "once, each at the phone's normal size."
            ),
            500: "Something went wrong on the server; the sheet was not scored. Try again.",
        }
        message = messages.get(status, public(error.description or ""))
        return _error_page(status, message, back="photo_form" if status == 413 else "index")

    app.jinja_env.globals["plural"] = plural
    _routes(app, settings, public)
    return app


def _error_page(status: int, message: str, back: str | None = "index") -> tuple[str, int]:
    # A refusal before the token was checked has no link of the app's: none could carry it.
    from flask import g

    if status in (403, 421) and g.get("token") is None:
        back = None
    return render_template("error.html", status=status, message=message, back=back), status


def _routes(app: Flask, settings: Settings, public: Callable[[str], str]) -> None:
    results = settings.results

    @app.get("/")
    def index() -> str:
        return render_template("index.html", night=len(results.all()))

    # --- materials ------------------------------------------------------------------------

    @app.get("/materials")
    def materials() -> str:
        return render_template("materials.html", groups=printing.groups())

    @app.get("/materials/<name>.pdf")
    def material_pdf(name: str) -> Response | tuple[str, int]:
        material = printing.material_named(name)
        if material is None:
            abort(404)
        try:
            options = printing.options_from(material, request.args)
        except InputError as error:
            return _error_page(400, str(error), back="materials")
        try:
            data = material.build(options, None)
        except PrintgenError as error:
            shown = printing.in_page_words(public(str(error)))
            return _error_page(UNPROCESSABLE, shown, back="materials")
        return _download(data, printing.file_name(material, options), "application/pdf")

    # --- a typed-in sheet -----------------------------------------------------------------

    @app.get("/type")
    def type_form() -> tuple[str, int]:
        chosen = request.args.get("blank", "")
        text = ""
        if chosen:
            blank = typed.blank_named(chosen)
            if blank is None:
                return _type_page(error=f"there is no blank sheet called {quote(chosen)}"), 404
            text = blank.text
        return _type_page(text=text), 200

    @app.get("/format/<name>")
    def sheet_format(name: str) -> str:
        blank = typed.blank_named(name)
        if blank is None:
            abort(404)
        return render_template("format.html", blank=blank)

    @app.post("/type")
    def type_score() -> Response | tuple[str, int]:
        form_format = request.form.get("format", "auto")
        if form_format not in {"auto", "toml", "json"}:
            form_format = "auto"
        try:
            text, source, form_format = _typed_sheet(request.form, request.files.get("file"))
        except InputError as error:
            return _type_page(error=str(error), form_format=form_format), UNPROCESSABLE
        if not text.strip():
            return _type_page(error="Paste a sheet, start from a blank one, or choose a file."), 400
        if len(text) > TEXT_LIMIT:
            message = (
                f"{source} is {len(text):,} characters long; a sheet is at most {TEXT_LIMIT:,}"
            )
            return _type_page(error=message, form_format=form_format), 413
        try:
            document = typed.parse(text, source, form_format)
            report = typed.score(document, source)
        except PrintgenError as error:
            return _type_page(error=public(str(error)), text=text, form_format=form_format), (
                UNPROCESSABLE
            )
        entry = Entry(source, time.time(), dict(document), result_view(report))
        return _see(results.add(entry))

    # --- photos of One Page War sheets ----------------------------------------------------

    @app.get("/photo")
    def photo_form() -> str:
        return render_template("photo.html", first="", second="")

    @app.post("/photo")
    def photo_score() -> Response | tuple[str, int]:
        names = (request.form.get("first", ""), request.form.get("second", ""))
        uploads = [
            f for key in ("photo", "photos") for f in request.files.getlist(key) if f.filename
        ]

        def form_again(message: str, status: int) -> tuple[str, int]:
            page = render_template("photo.html", error=message, first=names[0], second=names[1])
            return page, status

        if not uploads:
            return form_again("Take or choose a photo first.", 400)
        if len(uploads) > MAX_PHOTOS:
            return form_again(f"At most {MAX_PHOTOS} photos at once, not {len(uploads)}.", 413)
        # Read here one by one, not by the batch reader's process pool: the app-wide photo
        # slots bound the memory of every request's reads together, and each photo keeps its
        # annotated picture for the crops beside its unsure cells.
        read: list[Kept[Entry]] = []
        refused: list[tuple[str, Refused]] = []
        passed_over: list[str] = []
        sheets = 0
        for upload in uploads:
            for name, outcome in _read_upload(settings, upload, names, public, MAX_PHOTOS - sheets):
                if outcome is None:
                    passed_over.append(f"{name}: a blank page, passed over")
                    continue
                sheets += 1
                if isinstance(outcome, Refused):
                    refused.append((name, outcome))
                else:
                    read.append(results.add(outcome))
        if sheets == 1:
            if refused:
                return form_again(refused[0][1].message, refused[0][1].status)
            return _see(read[0])
        if not read:
            return form_again("\n".join(r.message for _, r in refused), refused[0][1].status)
        batch = Entry(
            source=f"{sheets} photos" if sheets == len(uploads) else f"{sheets} sheets",
            made=time.time(),
            sheet=None,
            result=None,
            members=tuple(k.key for k in read),
            refused=tuple(r.message for _, r in refused),
            refused_photos=tuple(name for name, _ in refused),
            passed_over=tuple(passed_over),
            team=_is_team_pack([k.item for k in read]),
        )
        return _see(results.add(batch))

    # --- the night's results --------------------------------------------------------------

    @app.get("/results")
    def night() -> str:
        kept = results.all()
        found = {k.key: k for k in kept}
        teams = {k.key: _team_of(found, k)[0] for k in kept if k.item.team}
        return render_template("results.html", kept=kept, teams=teams)

    @app.get("/results.csv")
    def night_csv() -> Response:
        return _download(_night_table(results.all()).encode("utf-8"), "night.csv", "text/csv")

    def entry_or_404(key: str) -> Kept[Entry]:
        kept = results.get(key)
        if kept is None:
            abort(404)
        return kept

    @app.get("/results/<key>")
    def result_page(key: str) -> tuple[str, int]:
        kept = entry_or_404(key)
        if kept.item.members:
            return _batch_page(results, kept), 200
        return _result_page(kept, batch=_batch_of(results, key)), 200

    @app.post("/results/<key>")
    def correct(key: str) -> Response | tuple[str, int]:
        kept = entry_or_404(key)
        photo = kept.item.photo
        if photo is None:
            abort(405)
        corrections = read_corrections(photo, request.form)
        if corrections.problems:
            # Shown again as sent, every other correction kept, the message on its field.
            shown = replace(kept, item=replace(kept.item, corrections=corrections))
            page = _result_page(shown, corrections.problems, _batch_of(results, key))
            return page, UNPROCESSABLE
        updated = results.update(key, _scored_photo(kept.item, photo, corrections))
        if updated is None:
            abort(404)
        return _see(updated)

    @app.get("/results/<key>/sheet.jpg")
    def sheet_picture(key: str) -> Response:
        photo = entry_or_404(key).item.photo
        if photo is None or not photo.image:
            abort(404)
        return Response(photo.image, mimetype="image/jpeg")

    @app.get("/results/<key>/<kind>")
    def download(key: str, kind: str) -> Response:
        kept = entry_or_404(key)
        entry = kept.item
        stem = f"result-{kept.number}"
        if kind == "sheet.toml" and entry.sheet is not None:
            return _download(_toml(entry.sheet).encode("utf-8"), f"{stem}.toml", "text/plain")
        if kind == "result.json" and entry.result is not None:
            data = json.dumps(entry.result.data, indent=2, ensure_ascii=False) + "\n"
            return _download(data.encode("utf-8"), f"{stem}.json", "application/json")
        abort(404)


def _see(kept: Kept[Entry]) -> Response:
    return redirect(url_for("result_page", key=kept.key), code=SEE_OTHER)


def _type_page(error: str | None = None, text: str = "", form_format: str = "auto") -> str:
    return render_template(
        "type.html", error=error, text=text, form_format=form_format, blanks=typed.blanks()
    )


def _download(data: bytes, name: str, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _typed_sheet(form: Mapping[str, str], upload: FileStorage | None) -> tuple[str, str, str]:
    """(text, source name, format) from the pasted text or, when chosen, the uploaded file."""
    form_format = form.get("format", "auto")
    if form_format not in {"auto", "toml", "json"}:
        form_format = "auto"
    if upload is not None and upload.filename:
        name = _sent_name(upload, "uploaded sheet")
        raw = upload.read(TEXT_LIMIT * 4 + 1)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise InputError(f"{name}: not a UTF-8 text file ({error.reason})") from None
        if form_format == "auto" and name.lower().endswith((".json", ".toml")):
            form_format = name.lower().rsplit(".", 1)[1]
        return text, name, form_format
    return form.get("text", ""), "the pasted sheet", form_format


# --- photos ---------------------------------------------------------------------------------


def _read_upload(
    settings: Settings,
    upload: FileStorage,
    names: tuple[str, str],
    public: Callable[[str], str],
    room: int,
) -> list[tuple[str, Entry | Refused | None]]:
    """An uploaded photo read and scored, or each page of a scan of several, at most `room` of
    them: each named as messages name it, with its Entry, Refused when it cannot be read, or
    None for a blank page (passed over)."""
    shown_as = _sent_name(upload, "the photo")
    # The photo in a folder of its own, so that no name it comes with can clash with ours.
    folder = settings.upload_root / secrets.token_urlsafe(18)
    folder.mkdir()
    try:
        photo_path = _staged(folder, upload, shown_as)
        pages = sheets_in(photo_path)
        if len(pages) > MAX_PHOTOS:
            raise Refused(
                413,
                f"{shown_as} holds {len(pages)} pages, more than the {MAX_PHOTOS} sheets read "
                f"at once; save it in parts of at most {MAX_PHOTOS} pages and send each on its own",
            )
        if len(pages) > room:
            holds = f" (it holds {len(pages)} pages)" if len(pages) > 1 else ""
            raise Refused(
                413,
                f"{shown_as} would make more than {MAX_PHOTOS} sheets read at once{holds}; "
                "send it again on its own",
            )
        outcomes: list[tuple[str, Entry | Refused | None]] = []
        for page in pages:
            number = page.page if isinstance(page, ScanPage) else None
            name = source_name(Path(shown_as), number)
            try:
                entry = _read_photo(settings, photo_path, number, name, names, public)
            except BlankPage:
                outcomes.append((name, None))
                continue
            except Refused as refusal:
                outcomes.append((name, refusal))
                continue
            outcomes.append((name, entry))
        if all(outcome is None for _, outcome in outcomes):
            raise Refused(UNPROCESSABLE, f"{shown_as}: every page is blank; scan the sheets")
        return outcomes
    except Refused as refusal:
        return [(shown_as, refusal)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # the photo goes as soon as it is read


def _staged(folder: Path, upload: FileStorage, shown_as: str) -> Path:
    """The upload saved in `folder` as a file the reader reads; Refused when it is no photo."""
    staged = folder / "upload"
    upload.save(staged)
    size = staged.stat().st_size
    # A scan of several pages may hold as much as as many photos (a flatbed's TIFF of a team
    # pack is some 25 MB a page).
    pages = len(sheets_in(staged)) if size > MAX_PHOTO_BYTES else 1
    if size > MAX_PHOTO_BYTES * pages:
        megabytes, limit = f"{size / MB:.1f} MB", MAX_PHOTO_BYTES // MB
        raise Refused(
            413,
            f"{shown_as} is {megabytes} for its {pages} pages, over the {limit} MB a page may "
            "be; scan at 300 dpi or less"
            if pages > 1
            else f"{shown_as} is {megabytes}, over the {limit} MB a photo may be; take it at "
            "the phone's normal size",
        )
    inbox = folder / "photo"
    inbox.mkdir()
    return prepare(staged, shown_as, inbox / "photo")


def _read_photo(
    settings: Settings,
    photo_path: Path,
    page: int | None,
    shown_as: str,
    names: tuple[str, str],
    public: Callable[[str], str],
) -> Entry:
    """A staged photo (or a page of a scan) read and scored; Refused when it cannot be read,
    BlankPage when it is a blank page of a scan."""
    annotated = photo_path.parent.parent / f"annotated-{page or 1}.png"
    plain = photo_path.parent.parent / f"plain-{page or 1}.png"
    options = PhotoOptions(annotate=annotated, plain=plain, partial=True, page=page)
    try:
        with settings.photo_slots:
            report = settings.read_photo(photo_path, options)
    except BlankPage:
        raise
    except PrintgenError as error:
        # Its messages name the file as the player sent it, not as the server keeps it.
        sent_as = shown_as.removesuffix(f" (page {page})") if page else shown_as
        shown = public(str(error).replace(str(photo_path), sent_as))
        # The reader's own fault is the server's (500), not the photo's.
        raise Refused(500 if isinstance(error, ReaderFault) else UNPROCESSABLE, shown) from None
    photo = photo_sheet(report, shown_as, annotated, plain)
    corrections = first_corrections(photo, names)
    if corrections.problems:
        corrections = first_corrections(photo, ("", ""))
    base = Entry(shown_as, time.time(), None, None, photo=photo)
    return _scored_photo(base, photo, corrections)


# A file name is shown whole up to this many characters.
NAME_LENGTH = 120


def _sent_name(upload: FileStorage, fallback: str) -> str:
    """The file's own name, as the player's phone or computer gave it, for every message and
    page to name it by (escaped where shown): its last part, without control characters. Never
    a path on the server: an upload is kept under a name of ours (_staged). Made safe for a
    file system instead, 写真.jpg had been shown as "jpg", and a batch's refusals could not be
    told apart."""
    name = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(c for c in name if unicodedata.category(c)[0] != "C").strip()
    return name[:NAME_LENGTH] or fallback


def _unconfirmed(photo: PhotoSheet, corrections: Corrections | None) -> int:
    """How many of the photo's unsure cells nobody has confirmed yet."""
    confirmed = corrections.confirmed if corrections is not None else frozenset()
    return len({c.field for c in photo.to_confirm} - confirmed)


def _scored_photo(entry: Entry, photo: PhotoSheet, corrections: Corrections) -> Entry:
    sheet = corrected_sheet(photo, corrections)
    unconfirmed = _unconfirmed(photo, corrections)
    try:
        report = typed.score(sheet, photo.photo_name)
    except PrintgenError as error:
        return replace(entry, sheet=sheet, result=None, problem=str(error), corrections=corrections)
    view = result_view(report, to_confirm=unconfirmed)
    return replace(entry, sheet=sheet, result=view, problem=None, corrections=corrections)


def _is_team_pack(entries: list[Entry]) -> bool:
    """Photos sent together that hold sheets of one printed team pack: the sheet ids read that
    are team ids (T-XXXX-NNNN) all have the pack's XXXX. Then those photos are one team game,
    and what keeps them from being one (a photo refused, an id unread, a sheet missing or twice)
    is named on the page; a duel or solo sheet sent with them is scored on its own beside it
    (sent with one, the pack's team result had gone without a word)."""
    return len(_packs(entries)) == 1


def _packs(entries: list[Entry]) -> set[str]:
    ids = [e.photo.sheet_id for e in entries if e.photo is not None and e.photo.sheet_id]
    return {i.rsplit("-", 1)[0] for i in ids if i.startswith("T-")}


def _of_the_pack(entries: list[Entry]) -> list[Entry]:
    """The photos of the team pack among `entries` (_is_team_pack): its sheets, and sheets
    whose id was not read unless another game's sheet was read beside them."""
    (pack,) = _packs(entries)
    others = any(
        e.photo is not None and e.photo.sheet_id and not e.photo.sheet_id.startswith(pack + "-")
        for e in entries
    )
    return [
        e
        for e in entries
        if e.photo is not None
        and (e.photo.sheet_id.startswith(pack + "-") if e.photo.sheet_id else not others)
    ]


def _team_result(
    members: list[Entry], refused: tuple[str, ...]
) -> tuple[ResultView | None, str | None]:
    """A team pack's sheets, each as corrected on its own page, scored together by the batch
    reader's team combination (as `printgen score --teams` does): near sides are Team 1, far
    sides Team 2 (the pack's seating, docs/rulings.md), each player by the name on the sheet,
    or by side and sheet (First 1, Second 1, ...)."""
    from printgen.games.one_page_war.reader.batch import SheetRead, team_from_sheets

    sheets = [
        SheetRead(
            entry.source,
            entry.photo.sheet_id or None,
            entry.sheet if entry.sheet is not None else entry.photo.sheet,
            _unconfirmed(entry.photo, entry.corrections),
        )
        for entry in members
        if entry.photo is not None
    ]
    try:
        team = team_from_sheets(sheets, None, partial=True, refused=refused)
    except PrintgenError as error:
        return None, str(error)
    if team.score is None:
        return None, team.score_problem
    return result_view(team.score, to_confirm=team.to_confirm), None


# --- pages ----------------------------------------------------------------------------------


def _batch_of(results: Store[Entry], key: str) -> Kept[Entry] | None:
    """The photos sent together that a result is one of (a team game's sheets), if any: its
    page leads back there, where a correction changes the team's result."""
    return next((k for k in results.all() if key in k.item.members), None)


def _result_page(
    kept: Kept[Entry],
    problems: Mapping[str, str] | None = None,
    batch: Kept[Entry] | None = None,
) -> str:
    entry = kept.item
    corrections = entry.corrections
    # The referee's objection to a square a player corrected stands on that field too; a
    # mistyped field's own message replaces it (the objection was to the value before).
    marked = dict(problems or _rules_problem_fields(entry))
    return render_template(
        "result.html",
        kept=kept,
        entry=entry,
        result=entry.result,
        photo=entry.photo,
        corrections=corrections,
        problems=marked,
        corrected=bool(corrections and corrections.confirmed),
        batch=batch,
        error="Some corrections need another look; see the marked fields." if problems else None,
    )


# How the referee names a square in its objection: "arena Politics, Bob's square 1: ...".
_SQUARE_NAMED = re.compile(r"arena (?P<arena>[^,]+), (?P<player>.+?)'s square (?P<square>\d+): ")


def _rules_problem_fields(entry: Entry) -> dict[str, str]:
    """The unsure square the referee's objection (`entry.problem`) names, with the objection,
    where it names one of them."""
    photo, corrections = entry.photo, entry.corrections
    found = _SQUARE_NAMED.search(entry.problem or "")
    if photo is None or corrections is None or found is None:
        return {}
    names = corrections.names
    if found["player"] not in names:
        return {}
    field = f"square|{found['arena']}|{names.index(found['player'])}|{found['square']}"
    if field not in {c.field for c in photo.to_confirm}:
        return {}
    return {field: (entry.problem or "")[found.end() :]}


def _batch_page(results: Store[Entry], kept: Kept[Entry]) -> str:
    shown = [m for m in (results.get(key) for key in kept.item.members) if m is not None]
    team, problem, apart = _team_of({m.key: m for m in shown}, kept)
    return render_template(
        "batch.html", kept=kept, members=shown, team=team, team_problem=problem, apart=apart
    )


def _team_of(
    found: Mapping[str, Kept[Entry]], kept: Kept[Entry]
) -> tuple[ResultView | None, str | None, set[str]]:
    """A team batch's team result, or why there is none yet, from its photos among `found`; and
    the photos sent with the pack that are not of it (none for a batch of no team game)."""
    if not kept.item.team:
        return None, None, set()
    shown = [found[key] for key in kept.item.members if key in found]
    if len(shown) < len(kept.item.members):
        gone = len(kept.item.members) - len(shown)
        return (
            None,
            f"{'a sheet' if gone == 1 else f'{gone} sheets'} of this game "
            f"{'is' if gone == 1 else 'are'} no longer kept (the server keeps the night's "
            "latest results); send the photos again",
            set(),
        )
    pack = _of_the_pack([m.item for m in shown])
    apart = {m.key for m in shown if not any(m.item is e for e in pack)}
    team, problem = _team_result(pack, kept.item.refused_photos)
    return team, problem, apart


def _night_table(entries: tuple[Kept[Entry], ...]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["number", "time", "game", "source", "players", "winner", "standing", "result"])
    found = {kept.key: kept for kept in entries}
    for kept in entries:
        entry, result = kept.item, kept.item.result
        if entry.members:
            # A team game is a result of its own (each sheet has its row too); other batches
            # are their photos' rows.
            if not entry.team:
                continue
            result, problem = _team_of(found, kept)[:2]
            entry = replace(entry, problem=problem)
        writer.writerow(
            _cell_text(value)
            for value in [
                kept.number,
                time.strftime("%H:%M", time.localtime(entry.made)),
                result.title if result else "One Page War",
                entry.source,
                " / ".join(result.players or _sheet_players(entry)) if result else "",
                result.winner or "" if result else "",
                result.status_word if result else "not scored",
                result.summary if result else (entry.problem or ""),
            ]
        )
    return out.getvalue()


def _sheet_players(entry: Entry) -> tuple[str, ...]:
    """The players as the sheet names them, for a result that does not (an aiue battle's,
    whose report names only who went out and who won)."""
    named = entry.sheet.get("players") if entry.sheet is not None else None
    return tuple(str(p) for p in named) if isinstance(named, list) else ()


def _cell_text(value: object) -> str:
    """A value as a CSV cell that no spreadsheet takes for a formula."""
    text = str(value)
    return "'" + text if text[:1] in {"=", "+", "-", "@", "\t", "\r"} else text


def _toml(sheet: Mapping[str, Any]) -> str:
    import tomlkit

    return tomlkit.dumps(dict(sheet))
