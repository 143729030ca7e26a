"""The web app: routes that parse a request, call the engines as the CLI does, and render a page.

Nothing is kept in memory between requests. An uploaded photo lives in its own folder under the
app's temporary upload root, which is removed as soon as the photo is scored, unless the player
asked to keep the result for download (then it stays under an unguessable name until the server
stops)."""

from __future__ import annotations

import atexit
import base64
import hmac
import io
import re
import secrets
import shutil
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, abort, render_template, request, send_file
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import HTTPException
from werkzeug.utils import secure_filename
from werkzeug.wrappers import Response

from printgen.errors import InputError, PrintgenError
from printgen.materials import BuildOptions, Material, PhotoOptions, ScoreReport
from printgen.render.units import Paper
from printgen.scoring import parse_document, read_photo, score_document
from printgen.web import photo
from printgen.web.uploads import MAX_UPLOAD_BYTES, Refused, photo_suffix

PhotoReader = Callable[[Path, PhotoOptions], ScoreReport]

KEPT_NAME = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
KEPT_FILES = ("annotated.png", "sheet.json")

# HTTP statuses for the ways a sheet can be wrong. 422: understood, but not a sheet that scores.
UNPROCESSABLE = 422


@dataclass(frozen=True)
class Settings:
    """What one app instance needs, fixed when it is created."""

    token: str | None
    upload_root: Path
    read_photo: PhotoReader
    # Reading a photo holds a few hundred MB; this bounds how many are read at once so that
    # twenty phones cannot exhaust memory. Other pages never wait on it.
    photo_slots: threading.BoundedSemaphore


def create_app(
    token: str | None = None,
    upload_root: Path | None = None,
    photo_reader: PhotoReader | None = None,
    photo_workers: int = 2,
) -> Flask:
    """The app. With `token`, every request must carry `?t=TOKEN` (links made here do).
    `upload_root`: where photos are put while read (a new temporary folder by default);
    `photo_reader`: the reader to use (the registry's, as `printgen score photo.jpg` uses);
    `photo_workers`: how many photos are read at the same time."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    if upload_root is None:
        upload_root = Path(tempfile.mkdtemp(prefix="printgen-serve-"))
        atexit.register(shutil.rmtree, upload_root, ignore_errors=True)
    settings = Settings(
        token=token,
        upload_root=upload_root,
        read_photo=photo_reader or read_photo,
        photo_slots=threading.BoundedSemaphore(photo_workers),
    )
    app.extensions["printgen"] = settings

    if token is not None:

        @app.before_request
        def require_token() -> None:
            given = request.args.get("t", "")
            if not hmac.compare_digest(given.encode(), token.encode()):
                abort(403)

        @app.url_defaults
        def carry_token(endpoint: str, values: dict[str, Any]) -> None:
            values.setdefault("t", token)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        messages = {
            403: "This page needs the link from the QR code shown where `printgen serve` runs.",
            404: "There is no such page.",
            413: "The upload is over 20 MB. Take the photo at the phone's normal size.",
        }
        message = messages.get(error.code or 500, error.description or "")
        return render_template("error.html", status=error.code, message=message), (
            error.code or 500
        )

    _routes(app, settings)
    return app


def _routes(app: Flask, settings: Settings) -> None:
    @app.get("/")
    def index() -> str:
        return render_template("index.html")

    # --- materials ------------------------------------------------------------------------

    @app.get("/materials")
    def materials() -> str:
        return render_template("materials.html", materials=_materials().values())

    @app.get("/materials/<name>-<paper>.pdf")
    def material_pdf(name: str, paper: str) -> Response:
        material = _materials().get(name)
        if material is None or paper not in {p.value for p in material.papers}:
            abort(404)
        options = BuildOptions(paper=Paper(paper))
        try:
            data = material.build(options, None)
        except PrintgenError as error:
            return _error_page(500, f"{material.name}: {error}")
        return _download(data, material.file_name(options), "application/pdf")

    # --- a typed-in sheet -----------------------------------------------------------------

    @app.context_processor
    def referees() -> dict[str, Any]:
        from printgen.games import all_games

        return {"referees": [(g.name, g.title) for g in all_games() if g.score is not None]}

    @app.get("/type")
    def type_form() -> str:
        return render_template("type.html", text="", form_format="auto", partial=False)

    @app.post("/type")
    def type_score() -> tuple[str, int]:
        partial = "partial" in request.form
        form: dict[str, Any] = {"text": "", "form_format": "auto", "partial": partial}
        try:
            text, source, form_format = _typed_sheet(request.form, request.files.get("file"))
            form.update(text=text, form_format=form_format)
            if not text.strip():
                return render_template(
                    "type.html", error="Paste a sheet or choose a file.", **form
                ), 400
            as_json = form_format == "json" or (form_format == "auto" and _looks_like_json(text))
            report = score_document(parse_document(text, source, as_json), source, partial)
        except PrintgenError as error:
            return render_template("type.html", error=str(error), **form), UNPROCESSABLE
        return render_template("result.html", result=_result_view(report), text=text), 200

    # --- a photo of a One Page War sheet --------------------------------------------------

    @app.get("/photo")
    def photo_form() -> str:
        return render_template("photo.html")

    @app.post("/photo")
    def photo_score() -> tuple[str, int]:
        upload = request.files.get("photo")
        if upload is None or not upload.filename:
            return render_template("photo.html", error="Choose or take a photo first."), 400
        keep = "keep" in request.form
        partial = "partial" in request.form
        folder = settings.upload_root / secrets.token_urlsafe(24)
        folder.mkdir()
        page, status = "", 500
        try:
            page, status = _score_photo(settings, upload, folder, keep=keep, partial=partial)
        finally:
            if not (keep and status == 200):
                shutil.rmtree(folder, ignore_errors=True)
        return page, status

    @app.post("/photo/correct")
    def photo_correct() -> tuple[str, int]:
        given = request.form.get("kept", "")
        kept = given if KEPT_NAME.match(given) else None
        partial = "partial" in request.form
        try:
            view = photo.corrected_view(request.form)
            sheet = photo.corrected_sheet(request.form)
        except PrintgenError as error:
            return render_template("error.html", status=UNPROCESSABLE, message=str(error)), (
                UNPROCESSABLE
            )
        page = {"photo": view, "image": None, "kept": kept, "partial": partial}
        try:
            report = score_document(sheet, "the corrected sheet", partial)
        except PrintgenError as error:
            # Show the fields again so the slip can be put right.
            return render_template(
                "photo_result.html", result=None, error=str(error), **page
            ), UNPROCESSABLE
        return render_template("photo_result.html", result=_result_view(report), **page), 200

    @app.get("/kept/<key>/<filename>")
    def kept(key: str, filename: str) -> Response:
        path = settings.upload_root / key / filename
        if not KEPT_NAME.match(key) or filename not in KEPT_FILES or not path.is_file():
            abort(404)
        return send_file(path, as_attachment=True, download_name=f"printgen-{filename}")


def _materials() -> dict[str, Material]:
    from printgen.games import standalone_materials

    return {m.name: m for m in standalone_materials()}


def _download(data: bytes, name: str, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _error_page(status: int, message: str) -> Response:
    return Response(render_template("error.html", status=status, message=message), status)


def _typed_sheet(form: Mapping[str, str], upload: FileStorage | None) -> tuple[str, str, str]:
    """(text, source name, format) from the pasted text or, when chosen, the uploaded file."""
    form_format = form.get("format", "auto")
    if form_format not in {"auto", "toml", "json"}:
        form_format = "auto"
    if upload is not None and upload.filename:
        name = secure_filename(upload.filename) or "uploaded sheet"
        raw = upload.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"{name}: not a UTF-8 text file ({error.reason})") from None
        if form_format == "auto" and name.lower().endswith((".json", ".toml")):
            form_format = name.lower().rsplit(".", 1)[1]
        return text, name, form_format
    return form.get("text", "").replace("\r\n", "\n"), "the pasted sheet", form_format


def _looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def _score_photo(
    settings: Settings, upload: FileStorage, folder: Path, keep: bool, partial: bool
) -> tuple[str, int]:
    shown_as = secure_filename(upload.filename or "") or "the photo"
    # The photo in a folder of its own, so that no name it comes with can clash with ours.
    inbox = folder / "photo"
    inbox.mkdir()
    staged = inbox / "upload"
    upload.save(staged)
    try:
        suffix = photo_suffix(staged, shown_as)
    except Refused as refused:
        return render_template("photo.html", error=refused.message), refused.status
    # The reader is told the photo's own name, so its messages quote what the player sent.
    named = inbox / (Path(shown_as).stem + suffix)
    staged.rename(named)
    annotated = folder / "annotated.png"
    try:
        with settings.photo_slots:
            report = settings.read_photo(named, PhotoOptions(annotate=annotated, partial=partial))
    except PrintgenError as error:
        message = str(error).replace(f"{inbox}/", "")
        return render_template("photo.html", error=message), UNPROCESSABLE
    finally:
        shutil.rmtree(inbox, ignore_errors=True)  # kept or not, the photo itself goes now
    view = photo.photo_view(report)
    image = _preview(annotated) if annotated.is_file() else None
    kept = None
    if keep:
        kept = folder.name
        (folder / "sheet.json").write_text(view.sheet_json, encoding="utf-8")
    return render_template(
        "photo_result.html",
        result=_result_view(report),
        photo=view,
        image=image,
        kept=kept,
        partial=partial,
    ), 200


def _preview(path: Path) -> str:
    """The annotated sheet inline in the page, as a JPEG: a tenth of the PNG's weight over a
    phone's Wi-Fi. The PNG itself is what a kept result downloads."""
    from PIL import Image

    buffer = io.BytesIO()
    with Image.open(path) as image:
        image.convert("RGB").save(buffer, "JPEG", quality=85)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


@dataclass(frozen=True)
class ArenaRow:
    name: str
    cells: tuple[tuple[str, str], ...]  # per side: (numbers, combination)
    winner: str
    reason: str


@dataclass(frozen=True)
class ResultView:
    """A score report as the page shows it: the headline, the table if the game has arenas,
    and the referee's own text."""

    summary: str
    final: bool
    winner: str | None
    players: tuple[str, ...]
    tables: tuple[tuple[str, tuple[ArenaRow, ...]], ...]
    text: str


def _result_view(report: ScoreReport) -> ResultView:
    data = report.to_json()
    # A photo report carries the referee's own JSON under "score".
    if isinstance(data.get("score"), dict):
        data = data["score"]
    found = data.get("sheets")
    sheets: list[Any] = found if isinstance(found, list) else [data]
    tables: list[tuple[str, tuple[ArenaRow, ...]]] = []
    players: tuple[str, ...] = ()
    for n, sheet in enumerate(sheets, start=1):
        if not isinstance(sheet, dict) or not isinstance(sheet.get("arenas"), list):
            continue
        players = tuple(sheet.get("players", ()))
        title = f"Sheet {n}: {' vs '.join(players)}" if len(sheets) > 1 else ""
        tables.append((title, tuple(_arena_row(a, players) for a in sheet["arenas"])))
    winner = data.get("winner")
    return ResultView(
        summary=report.summary(),
        final=report.exit_code == 0,
        winner=winner if isinstance(winner, str) else None,
        players=players,
        tables=tuple(tables),
        text=report.to_text(),
    )


def _arena_row(arena: Mapping[str, Any], players: tuple[str, ...]) -> ArenaRow:
    combinations = arena.get("combinations", {})
    cells = []
    for player in players:
        side = combinations.get(player, {})
        numbers = " ".join("_" if n is None else str(n) for n in side.get("numbers", ()))
        cells.append((numbers, side.get("rank") or "-"))
    name = str(arena.get("name", "")) + (" (S)" if arena.get("allies") else "")
    is_open = any(side.get("rank") is None for side in combinations.values())
    winner = arena.get("winner") or ("-" if is_open else "tie")
    return ArenaRow(name, tuple(cells), str(winner), str(arena.get("reason", "")))
