"""ReportLab's paragraphs, and the Flowable they are, imported without the rest of its page
layout package (platypus): what printgen's text is set with, at a fifth of the import time.

Importing `reportlab.platypus.paragraph` the plain way pays for two things printgen never uses,
which take four times as long as the rest (`python -X importtime`; bench/bench_build.py):
- `reportlab/platypus/__init__.py`, which imports every flowable, tables and page templates
  included. Here the package is entered without it; the first name asked of the package that
  is not there yet (`from reportlab.platypus import Table`, say) runs it after all, so code that
  imports the whole package still gets the whole package.
- Two patterns that the paragraph module and its line splitter compile as they are imported,
  for URL-aware line breaking (`uriWasteReduce`) and for CJK wrapping. Their character ranges
  run to U+FFFF, and one is case-insensitive, which makes compiling them slow. They compile on
  their first use instead.
The modules and all they do are ReportLab's own: nothing here changes a paragraph."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from typing import Any

import reportlab

_PACKAGE = "reportlab.platypus"
_compile = re.compile


class _PatternOnFirstUse:
    """Stands for a compiled regular expression, and compiles it when first used: wherever a
    method of the pattern is called, which is all ReportLab does with these two (test:
    tests/test_platypus_import.py)."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = _compile(*self._source)
        return getattr(self._compiled, name)


def _compile_wide_ranges_later(pattern: Any, flags: int = 0) -> Any:
    if isinstance(pattern, str) and "\uffff" in pattern:
        return _PatternOnFirstUse(pattern, flags)
    return _compile(pattern, flags)


def _enter_package() -> None:
    """Put reportlab.platypus in sys.modules without running its __init__ (see above)."""
    if _PACKAGE in sys.modules:
        return
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or spec.loader is None:
        return  # not a package this can enter: the plain import below does it all
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def run_init(name: str) -> Any:
        # Called (PEP 562) for a name the package lacks: `Table`, or `__all__` for a `*`.
        del package.__getattr__
        loader.exec_module(package)
        return getattr(package, name)

    package.__getattr__ = run_init  # type: ignore[method-assign]
    sys.modules[_PACKAGE] = package
    reportlab.platypus = package


def _import_paragraph() -> None:
    _enter_package()
    # Only for as long as the module imports. A pattern another thread compiles meanwhile gets
    # the same stand-in at worst, which works as the pattern does.
    re.compile = _compile_wide_ranges_later
    try:
        importlib.import_module(f"{_PACKAGE}.paragraph")
    finally:
        re.compile = _compile


_import_paragraph()

# Imported now that the module is in sys.modules: these cost nothing more.
from reportlab.platypus.flowables import Flowable  # noqa: E402
from reportlab.platypus.paragraph import Paragraph  # noqa: E402

__all__ = ["Flowable", "Paragraph"]
