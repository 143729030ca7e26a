"""The commands that read a typed-in file, for the hostile-input tests: each as the arguments
that hand it `path`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

CHECK_CAPTURE = ["--from", "1,1", "--path", "1,3"]
AI_TURN = ["--die", "3", "--human-arena", "Land"]

READERS: dict[str, Callable[[Path], list[str]]] = {
    "score": lambda p: ["score", str(p)],
    "package-war play": lambda p: ["package-war", "play", str(p)],
    "one check-capture": lambda p: ["one", "check-capture", str(p), *CHECK_CAPTURE],
    "ai-turn": lambda p: ["one-page-war", "ai-turn", str(p), *AI_TURN],
    "war play --deck": lambda p: ["war", "play", "--deck", str(p)],
}
