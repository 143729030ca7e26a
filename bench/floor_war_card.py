"""The floor for `printgen build war-card`: bare ReportLab drawing the same War card.

The same landscape page, the same four embedded DejaVu faces, the card's text (seeds/war.md,
wrapped into four panels with ReportLab's simple line splitter), the dashed FOLD and FOLD & TEAR
lines with their labels, and the 50 mm scale bar. No printgen, no Markdown parser, no
templates, no paragraph layout: what any Python process writing this PDF has to pay.

    python bench/floor_war_card.py OUT.pdf [a4|letter]
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

ROOT = Path(__file__).resolve().parents[1]
FACES = {
    "Sans": "DejaVuSans.ttf",
    "Bold": "DejaVuSans-Bold.ttf",
    "Cond": "DejaVuSansCondensed.ttf",
    "CondBold": "DejaVuSansCondensed-Bold.ttf",
}


def main() -> None:
    out = Path(sys.argv[1])
    paper = landscape(LETTER if sys.argv[2:] == ["letter"] else A4)
    for name, file in FACES.items():
        pdfmetrics.registerFont(TTFont(name, str(ROOT / "fonts" / file)))
    text = (ROOT / "seeds" / "war.md").read_text(encoding="utf-8").split("+++")[-1]
    canvas = Canvas(str(out), pagesize=paper, invariant=1, pageCompression=1)
    width, height = paper
    panel = (width - 20 * mm) / 4
    top = height - 12 * mm
    column, y = 0, top
    for line in text.splitlines():
        face, size = ("Bold", 8.0) if line.startswith("#") else ("Sans", 7.0)
        for piece in simpleSplit(line.lstrip("#- ").replace("**", ""), face, size, panel - 8 * mm):
            if y < height / 2:
                column, y = column + 1, top
            canvas.setFont(face, size)
            canvas.drawString(10 * mm + column * panel + 3 * mm, y, piece)
            y -= size * 1.25
    canvas.setDash([3 * mm, 1.5 * mm], 0)
    for fold in range(1, 4):
        x = 10 * mm + fold * panel
        canvas.line(x, height / 2 - 4 * mm, x, height - 8 * mm)
        canvas.setFont("CondBold", 6.5)
        canvas.drawCentredString(x, height / 2 - 8 * mm, "FOLD")
    canvas.setDash([1.2 * mm, 1.2 * mm], 0)
    canvas.line(8 * mm, height / 2 - 2 * mm, width - 8 * mm, height / 2 - 2 * mm)
    canvas.drawString(10 * mm, height / 2 - 6 * mm, "FOLD & TEAR")
    canvas.setDash([], 0)
    canvas.line(10 * mm, 12 * mm, 60 * mm, 12 * mm)
    canvas.setFont("Cond", 6.5)
    canvas.drawString(10 * mm, 8 * mm, "50 mm: measure this bar")
    canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main()
