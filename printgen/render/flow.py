"""Flowing a story of paragraphs through a row of boxes, in reading order: a rules card's panels,
the columns of notes on its spare paper.

ReportLab's frames would do the flowing, but not the two things a folded card needs: columns
balanced to a common depth (rather than a full first panel and a near-empty last one), and an
exact account of what did not fit. So the flow is done here, with the flowables' own `wrap` and
`split`, and the result is a plan that is drawn only once it fits.

Rules: a flowable whose style says keepWithNext (a heading) never ends a box; a paragraph splits
between boxes only where its style allows (no single orphan or widow line); space before an item
is dropped at the top of a box."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from printgen.render.units import Box

# Balancing narrows the fill depth to within this many points (about 0.1 mm).
_BALANCE_PRECISION = 0.25


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

    @property
    def fits(self) -> bool:
        return not self.left_over

    def depth(self, box: int) -> float:
        """How far down box `box` the text reaches, in points."""
        return max((p.top + p.height for p in self.placed if p.box == box), default=0.0)

    def draw(self, canvas: Canvas) -> None:
        for piece in self.placed:
            box = self.boxes[piece.box]
            piece.flowable.wrapOn(canvas, box.width, box.height)
            piece.flowable.drawOn(canvas, box.x, box.y + box.height - piece.top - piece.height)


def flowable_text(item: Flowable) -> str:
    """The words a flowable prints, one space between them. The second part of a simply split
    paragraph keeps its words in a list rather than as text, which getPlainText() misses."""
    text = item.getPlainText() if hasattr(item, "getPlainText") else ""
    if not text.strip():
        text = " ".join(" ".join(getattr(f, "words", [])) for f in getattr(item, "frags", []))
    return " ".join(text.split())


Heights = dict[tuple[int, float], float]


def flow(
    story: Sequence[Flowable],
    boxes: Sequence[Box],
    fill: float | None = None,
    split: bool = True,
    heights: Heights | None = None,
) -> Flowed:
    """Place `story` through `boxes` in order, each box filled to at most `fill` points deep
    (its own height when None). With `split` False, every flowable stays whole in one box.
    `heights` keeps the story's wrapped heights by width between calls on the same story."""
    queue: deque[Flowable] = deque(story)
    known = heights if heights is not None else {}
    whole_items = {id(item) for item in story}

    def height_of(item: Flowable, width: float) -> float:
        # Only the story's own flowables are remembered: split parts are new each time, and
        # an id is only unique while its object lives.
        key = (id(item), width)
        if key not in known or id(item) not in whole_items:
            known[key] = item.wrap(width, 1e9)[1]
        return known[key]

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
            height = height_of(item, box.width)
            whole = height <= room + 1e-6
            if whole:
                queue.popleft()
            else:
                # A split reads the lines of the last wrap, which must be at this width.
                item.wrap(box.width, room)
                parts = item.split(box.width, room) if split and room > 0 else []
                if len(parts) < 2:
                    break
                item, queue[0] = parts[0], parts[1]
                height = item.wrap(box.width, room)[1]
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
    last = boxes[-1] if boxes else Box(0, 0, 0, 0)
    height = 0.0
    for position, item in enumerate(left_over):
        height += (item.getSpaceBefore() if position else 0.0) + item.wrap(last.width, 1e9)[1]
    return Flowed(tuple(boxes), tuple(placed), left_over, height)


def balanced(story: Sequence[Flowable], boxes: Sequence[Box], split: bool = True) -> Flowed:
    """The flow at the smallest common fill depth that still takes the whole story, so the
    boxes end at about the same depth. A story that does not fit is returned as flowed."""
    heights: Heights = {}
    full = flow(story, boxes, split=split, heights=heights)
    if not full.fits:
        return full
    best, low, high = full, 0.0, max(full.depth(i) for i in range(len(boxes)))
    while high - low > _BALANCE_PRECISION:
        middle = (low + high) / 2
        trial = flow(story, boxes, fill=middle, split=split, heights=heights)
        if trial.fits:
            best, high = trial, middle
        else:
            low = middle
    return best
