"""Flowing a story of paragraphs through a row of boxes, in reading order: a rules card's panels,
the columns of notes on its spare paper.

ReportLab's frames would do the flowing, but not the two things a folded card needs: columns
balanced to a common depth (rather than a full first panel and a near-empty last one), and an
exact account of what did not fit. So the flow is done here, with the flowables' own `wrap` and
`split`, and the result is a plan that is drawn only once it fits.

Rules: a flowable whose style says keepWithNext (a heading) never ends a box; a paragraph splits
between boxes only where its style allows (no single orphan or widow line); space before an item
is dropped at the top of a box.

Balancing flows one story a dozen times, at different depths. ReportLab's line breaking (inside
`wrap`) is nearly all the cost of a flow, and its result depends only on the width, so every
height and every split is measured once per story and width (`Measures`) and reused."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.pdfgen.canvas import Canvas

from printgen.render.platypus import Flowable
from printgen.render.units import Box

# Balancing narrows the fill depth to within this many points (about 0.1 mm).
_BALANCE_PRECISION = 0.25
# Heights and rooms are compared to within this many points.
_FUZZ = 1e-6


@dataclass
class _Split:
    """One way a flowable splits at one width: into `parts`, whose first is `low` points high,
    for any room over `low` up to `high` (the largest room it was asked for so far)."""

    low: float
    high: float
    parts: tuple[Flowable, Flowable]


class Measures:
    """The heights of a story's flowables, and how they split, by width: what every flow of the
    same story can share. It holds each flowable it measured, so no id is reused meanwhile.

    A split is kept by how high its first part is. ReportLab splits a paragraph after as many
    lines as the room holds, so the split made for a room stands for every room from its first
    part's height up to that room; and a room too small to split in is too small for any less."""

    def __init__(self) -> None:
        self._heights: dict[tuple[int, float], tuple[Flowable, float]] = {}
        self._splits: dict[tuple[int, float], tuple[Flowable, list[_Split]]] = {}
        self._no_split: dict[tuple[int, float], tuple[Flowable, float]] = {}
        # The width each flowable was last wrapped at: ReportLab splits and draws a paragraph
        # by the lines of its last wrap, which need not be redone at the same width.
        self._wrapped: dict[int, tuple[Flowable, float]] = {}

    def height(self, item: Flowable, width: float) -> float:
        key = (id(item), width)
        if key not in self._heights:
            self._heights[key] = (item, self._wrap(item, width))
        return self._heights[key][1]

    def ready(self, item: Flowable, width: float) -> None:
        """Have `item` hold its lines at `width`, for a split or for drawing."""
        if self._wrapped.get(id(item), (item, None))[1] != width:
            self._wrap(item, width)

    def _wrap(self, item: Flowable, width: float) -> float:
        height = float(item.wrap(width, 1e9)[1])
        self._wrapped[id(item)] = (item, width)
        return height

    def split(self, item: Flowable, width: float, room: float) -> tuple[Flowable, Flowable] | None:
        """`item` split so that its first part takes at most `room` points of a box `width`
        points wide; None where it cannot split so (too little room for two lines, say)."""
        key = (id(item), width)
        if room <= self._no_split.get(key, (item, 0.0))[1]:
            return None
        known = self._splits.setdefault(key, (item, []))[1]
        for split in known:
            if split.low < room <= split.high:
                return split.parts
        self.ready(item, width)
        parts = item.split(width, room)
        if len(parts) < 2:
            self._no_split[key] = (item, room)
            self._wrapped.pop(id(item), None)  # a failed split drops the lines it read
            return None
        first, rest = parts
        low = self.height(first, width)
        for split in known:  # the same lines as a split made for another room: that one
            if abs(split.low - low) <= _FUZZ:
                split.high = max(split.high, room)
                return split.parts
        known.append(_Split(low, room, (first, rest)))
        return first, rest


@dataclass(frozen=True)
class Placed:
    flowable: Flowable
    box: int  # index into the boxes
    top: float  # from the box's top edge down to the flowable's top, in points
    height: float


@dataclass(frozen=True)
class Flowed:
    boxes: tuple[Box, ...]
    placed: tuple[Placed, ...]
    # What did not fit, in order: whole flowables, or the rest of one that was split.
    left_over: tuple[Flowable, ...]
    left_over_height: float  # points, as the left-over text would stand in the last box
    # What the flow measured, for flowing the same story again (see `balanced`).
    measures: Measures = field(repr=False, compare=False)

    @property
    def fits(self) -> bool:
        return not self.left_over

    def depth(self, box: int) -> float:
        """How far down box `box` the text reaches, in points."""
        return max((p.top + p.height for p in self.placed if p.box == box), default=0.0)

    def draw(self, canvas: Canvas) -> None:
        for piece in self.placed:
            box = self.boxes[piece.box]
            self.measures.ready(piece.flowable, box.width)
            piece.flowable.drawOn(canvas, box.x, box.y + box.height - piece.top - piece.height)


def flowable_text(item: Flowable) -> str:
    """The words a flowable prints, one space between them. The second part of a simply split
    paragraph keeps its words in a list rather than as text, which getPlainText() misses."""
    text = item.getPlainText() if hasattr(item, "getPlainText") else ""
    if not text.strip():
        text = " ".join(" ".join(getattr(f, "words", [])) for f in getattr(item, "frags", []))
    return " ".join(text.split())


def flow(
    story: Sequence[Flowable],
    boxes: Sequence[Box],
    fill: float | None = None,
    split: bool = True,
    measures: Measures | None = None,
) -> Flowed:
    """Place `story` through `boxes` in order, each box filled to at most `fill` points deep
    (its own height when None). With `split` False, every flowable stays whole in one box.
    `measures` are those of earlier flows of the same story, if any."""
    measures = measures if measures is not None else Measures()
    queue: deque[Flowable] = deque(story)
    placed: list[Placed] = []
    for index, box in enumerate(boxes):
        limit = box.height if fill is None else min(box.height, fill)
        in_box: list[Placed] = []
        used = 0.0
        after = 0.0  # the last item's space after, owed only if something follows it
        while queue:
            item = queue[0]
            gap = after + item.getSpaceBefore() if in_box else 0.0
            room = limit - used - gap
            height = measures.height(item, box.width)
            whole = height <= room + _FUZZ
            if whole:
                queue.popleft()
            else:
                parts = measures.split(item, box.width, room) if split and room > 0 else None
                if parts is None:
                    break
                item, queue[0] = parts
                height = measures.height(item, box.width)
            in_box.append(Placed(item, index, used + gap, height))
            used += gap + height
            after = item.getSpaceAfter()
            if not whole:
                break
        # A heading may not end a box: it goes back, to lead the next box with its text.
        while in_box and in_box[-1].flowable.getKeepWithNext() and queue:
            queue.appendleft(in_box.pop().flowable)
        placed.extend(in_box)
        if not queue:
            break
    left_over = tuple(queue)
    width = boxes[-1].width if boxes else 0.0
    height = sum(
        (item.getSpaceBefore() if position else 0.0) + measures.height(item, width)
        for position, item in enumerate(left_over)
    )
    return Flowed(tuple(boxes), tuple(placed), left_over, height, measures)


def balanced(
    story: Sequence[Flowable],
    boxes: Sequence[Box],
    split: bool = True,
    full: Flowed | None = None,
) -> Flowed:
    """The flow at the smallest common fill depth that still takes the whole story, so the
    boxes end at about the same depth. A story that does not fit is returned as flowed.
    `full` is the story already flowed through `boxes` to their full depth, if it was."""
    if full is None:
        full = flow(story, boxes, split=split)
    if not full.fits:
        return full
    best, low, high = full, 0.0, max(map(full.depth, range(len(boxes))))
    while high - low > _BALANCE_PRECISION:
        middle = (low + high) / 2
        trial = flow(story, boxes, fill=middle, split=split, measures=full.measures)
        if trial.fits:
            # What the trial reached is as good as what it was allowed.
            best, high = trial, max(map(trial.depth, range(len(boxes))))
        else:
            low = middle
    return best
