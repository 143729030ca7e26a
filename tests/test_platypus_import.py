"""printgen.render.platypus: ReportLab's paragraphs without the rest of platypus, and without
compiling the patterns printgen never uses; in a fresh interpreter each, as a command has it."""

from __future__ import annotations

import json
import subprocess
import sys

# Sets a paragraph with a long web address (URL-aware breaking, which uses one of the patterns
# compiled later) and splits some CJK text with the other (ReportLab's cjkwrap, its only user,
# does not run), and prints the result: the same whether ReportLab was imported plainly or
# through printgen.
_SET_TEXT = """
import json, sys
if sys.argv[1] == "printgen":
    import printgen.render.platypus
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib import textsplit
from reportlab.platypus.paragraph import Paragraph
style = ParagraphStyle("p", fontName="Helvetica", fontSize=9, leading=11, uriWasteReduce=0.3)
text = "See https://www.pagat.com/war/war.html?ref=printgen-test-of-a-long-address now"
para = Paragraph(text, style)
para.wrap(90, 1000)
lines = [[str(w) for w in line[1]] for line in para.blPara.lines]
print(json.dumps([lines, textsplit.rx.split("CJK: 日本語 text")]))
"""


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_only_the_paragraph_modules_are_imported() -> None:
    out = run(
        "import re, sys, json; compile_ = re.compile; import printgen.render.platypus; "
        "print(json.dumps([sorted(sys.modules), re.compile is compile_]))"
    )
    modules, compile_restored = json.loads(out)
    assert "reportlab.platypus.paragraph" in modules
    for heavy in ("tables", "doctemplate", "frames", "multicol", "xpreformatted"):
        assert f"reportlab.platypus.{heavy}" not in modules
    assert compile_restored


def test_the_whole_package_is_there_for_whoever_asks() -> None:
    out = run(
        "import printgen.render.platypus as light\n"
        "from reportlab.platypus import Table, SimpleDocTemplate, Paragraph\n"
        "import reportlab.platypus as package\n"
        "names = {}\n"
        "exec('from reportlab.platypus import *', names)\n"
        "print(Paragraph is light.Paragraph, 'Frame' in names, package.Spacer.__name__)"
    )
    assert out.split() == ["True", "True", "Spacer"]


def test_paragraphs_set_as_plainly_imported_reportlab_sets_them() -> None:
    assert run(_SET_TEXT, "printgen") == run(_SET_TEXT, "plain")
    lines, cjk = json.loads(run(_SET_TEXT, "printgen"))
    assert len(lines) > 2 and any("https://" in " ".join(line) for line in lines)
    assert len(cjk) > 1
