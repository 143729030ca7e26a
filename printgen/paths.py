"""Where the project's data lives: the repository's own folders, beside the package."""

from __future__ import annotations

import os
from pathlib import Path

# The package is installed editable from the checkout (see the Makefile), so the data folders
# are the checkout's own. PRINTGEN_ROOT lets a test or a packager point elsewhere.
ROOT = Path(os.environ.get("PRINTGEN_ROOT", Path(__file__).resolve().parent.parent))
FONTS_DIR = ROOT / "fonts"
LAYOUTS_DIR = ROOT / "layouts"
SEEDS_DIR = ROOT / "seeds"
OUTPUT_DIR = ROOT / "output"
