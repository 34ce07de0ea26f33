"""Every layout the engine knows, as pictures: Three Peaks and six more (docs/rules.md "Layouts").

Each picture is read by :meth:`Layout.drawn`: a card is its group's letter and its layer's digit,
at its place (a column is half a card width, a line a row); of two overlapping cards, the higher
layer lies on top and covers the other. Positions are numbered in reading order, rows top to bottom
and each left to right. Every one is offered (codes.OFFERED_LAYOUTS); the deal of the day stays on
Three Peaks.
"""

from __future__ import annotations

from tripeaks.engine.layout import THREE_PEAKS, Layout

FOUR_PEAKS = Layout.drawn(
    "four_peaks",
    """
   a0  b0  c0  d0
  a1a1b1b1c1c1d1d1
 a2a2b2b2b2c2c2d2d2
a3a3a3b3b3c3c3d3d3d3
""",
)
"""Four peaks of three rows on a shared bottom row of ten: 31 cards, 10 face up; the peaks hold 8,
8, 7 and 8 cards, and neighbouring peaks share the cards between them as Three Peaks' bottom rows do."""

DIAMONDS = Layout.drawn(
    "diamonds",
    """
  a0    b0    c0
 a1a1  b1b1  c1c1
a2a2a2b2b2b2c2c2c2
 a1a1  b1b1  c1c1
  a0    b0    c0
""",
)
"""Three diamonds of 9 cards: the widest row, in the middle, lies on top and is face up (9 cards);
it covers the rows above and below it, and they each cover a tip: every diamond is freed from its
middle outwards, its top half from below and its bottom half from above. 27 cards."""

VALLEY = Layout.drawn(
    "valley",
    """
a4a4a4a4        c4c4c4c4
 a3a3a3          c3c3c3
  a2a2a2        c2c2c2
   a1a1b1b1b1b1b1c1c1
        b0b0b0b0
""",
)
"""A valley between two slopes: each row lies on the one below it, so the slopes' top rows and the
middle of the floor's upper row are face up (11 cards), and the floor's last row is the deepest. The
left slope (12 cards), the floor (9) and the right slope (12) are the groups: 33 cards."""

UP_AND_DOWN = Layout.drawn(
    "up_and_down",
    """
   a0b7b7b7b7c0
  a2a2b5b5b5c2c2
 a4a4a4b3b3c4c4c4
a6a6a6a6b1c6c6c6c6
""",
)
"""Two peaks pointing up and one pointing down between them, 10 cards each: the up peaks covered
from below as Three Peaks' are, the down peak from above; the wide rows are face up (12 cards), and
where the peaks meet, each lies over the other's edge. 30 cards."""

THEATRE = Layout.drawn(
    "theatre",
    """
a2a2                c2c2
 a1a1  b0b0b0b0b0  c1c1
a0a0a0  b1b1b1b1  c0c0c0
         b2b2b2
""",
)
"""Stalls and two boxes: the stalls (12 cards) narrow towards the stage at the bottom, each row lying
on the one behind it, so the front row is face up; the boxes (7 cards each) hang from their top row,
which is face up. 26 cards, 7 face up, 12 wide."""

BRIDGE = Layout.drawn(
    "bridge",
    """
 b5b5b5b5b5b5b5b5b5
a4a4    c4c4    d4d4
 a3a3    c3c3    d3d3
a2a2    c2c2    d2d2
 a1a1    c1c1    d1d1
""",
)
"""Our own: a span of 9 cards, face up, lying over three pillars of 8 cards in four staggered
pairs, each pair lying on the one below it. The groups are the left pillar, the span, the middle
pillar and the right pillar. 33 cards."""

LAYOUTS: tuple[Layout, ...] = (
    THREE_PEAKS,
    FOUR_PEAKS,
    DIAMONDS,
    VALLEY,
    UP_AND_DOWN,
    THEATRE,
    BRIDGE,
)
"""Every layout, Three Peaks first."""

BY_ID: dict[str, Layout] = {layout.id: layout for layout in LAYOUTS}

BY_WORD: dict[str, Layout] = {layout.word: layout for layout in LAYOUTS}
"""Every layout by the word a game code names it with (``VALLEY``; docs/deal-format.md "Layouts")."""
