"""docs/rules.md §1: 28 positions in rows of 3, 6, 9 and 10; who covers whom; the three peaks."""

from tripeaks.engine.layout import CENTRE_X, COVERED_BY, COVERS, PEAK_OF, PEAKS, ROWS, position


def test_rows_and_flat_indexes() -> None:
    assert [len(r) for r in ROWS] == [3, 6, 9, 10]
    assert position(1, 0) == 0 and position(2, 0) == 3 and position(3, 0) == 9
    assert position(4, 0) == 18 and position(4, 9) == 27


def test_covering_follows_spec() -> None:
    for i in range(3):
        assert COVERED_BY[position(1, i)] == (position(2, 2 * i), position(2, 2 * i + 1))
    for i in range(6):
        p, k = divmod(i, 2)
        assert COVERED_BY[position(2, i)] == (position(3, 3 * p + k), position(3, 3 * p + k + 1))
    for j in range(9):
        assert COVERED_BY[position(3, j)] == (position(4, j), position(4, j + 1))
    assert all(COVERED_BY[p] == () for p in ROWS[3])
    # Row 2 has gaps after its 2nd and 4th card: those neighbours share no row-3 card.
    assert not set(COVERED_BY[position(2, 1)]) & set(COVERED_BY[position(2, 2)])
    assert COVERS[position(3, 2)] == (position(2, 1),)
    assert COVERS[position(4, 4)] == (position(3, 3), position(3, 4))


def test_peaks_are_nine_nine_and_ten_cards() -> None:
    assert [len(p) for p in PEAKS] == [9, 9, 10]
    assert set().union(*PEAKS) == set(range(28))
    assert [PEAK_OF[p] for p in ROWS[3]] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    assert [PEAK_OF[p] for p in ROWS[2]] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_each_card_is_drawn_centred_over_the_two_that_cover_it() -> None:
    assert [CENTRE_X[p] for p in ROWS[3]] == [float(i) for i in range(10)]
    assert [CENTRE_X[p] for p in ROWS[2]] == [i + 0.5 for i in range(9)]
    assert [CENTRE_X[p] for p in ROWS[1]] == [1.0, 2.0, 4.0, 5.0, 7.0, 8.0]
    assert [CENTRE_X[p] for p in ROWS[0]] == [1.5, 4.5, 7.5]


def test_three_peaks_tables_are_the_ones_hard_coded_before_layouts_were_data() -> None:
    """The module-level tables every importer reads: their literal values before issue 38."""
    from tripeaks.engine import layout

    before: dict[str, object] = {
        "ROW_SIZES": (3, 6, 9, 10),
        "ROW_STARTS": (0, 3, 9, 18),
        "TABLEAU_SIZE": 28,
        "BOTTOM_ROW": 4,
        "POSITIONS": tuple(range(28)),
        "ROW_OF": (1, 1, 1, *[2] * 6, *[3] * 9, *[4] * 10),
        "INDEX_IN_ROW": (0, 1, 2, *range(6), *range(9), *range(10)),
        "ROWS": (
            (0, 1, 2),
            (3, 4, 5, 6, 7, 8),
            (9, 10, 11, 12, 13, 14, 15, 16, 17),
            (18, 19, 20, 21, 22, 23, 24, 25, 26, 27),
        ),
        "COVERED_BY": (
            (3, 4), (5, 6), (7, 8), (9, 10), (10, 11), (12, 13), (13, 14), (15, 16), (16, 17),
            (18, 19), (19, 20), (20, 21), (21, 22), (22, 23), (23, 24), (24, 25), (25, 26),
            (26, 27), (), (), (), (), (), (), (), (), (), (),
        ),
        "COVERS": (
            (), (), (), (0,), (0,), (1,), (1,), (2,), (2,), (3,), (3, 4), (4,), (5,), (5, 6),
            (6,), (7,), (7, 8), (8,), (9,), (9, 10), (10, 11), (11, 12), (12, 13), (13, 14),
            (14, 15), (15, 16), (16, 17), (17,),
        ),
        "PEAKS": (
            frozenset({0, 3, 4, 9, 10, 11, 18, 19, 20}),
            frozenset({1, 5, 6, 12, 13, 14, 21, 22, 23}),
            frozenset({2, 7, 8, 15, 16, 17, 24, 25, 26, 27}),
        ),
        "PEAK_OF": (
            0, 1, 2, 0, 0, 1, 1, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2,
        ),
        "CENTRE_X": (
            1.5, 4.5, 7.5, 1.0, 2.0, 4.0, 5.0, 7.0, 8.0, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5,
            8.5, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
        ),
        "COVERED_BY_MASK": (
            24, 96, 384, 1536, 3072, 12288, 24576, 98304, 196608, 786432, 1572864, 3145728,
            6291456, 12582912, 25165824, 50331648, 100663296, 201326592, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0,
        ),
        "PEAK_MASKS": (1838617, 14708834, 251888004),
        "ALL_MASK": 268435455,
    }  # fmt: skip
    for name, value in before.items():
        now = getattr(layout, name)
        assert now == value and type(now) is type(value), name
        if isinstance(value, tuple):
            assert [type(v) for v in now] == [type(v) for v in value], name


def test_three_peaks_layout_is_its_tables() -> None:
    from tripeaks.engine.layout import COVERED_BY_MASK, PEAK_MASKS, THREE_PEAKS

    assert THREE_PEAKS.id == "three_peaks" and THREE_PEAKS.size == 28
    assert THREE_PEAKS.covered_by == COVERED_BY and THREE_PEAKS.covers == COVERS
    assert THREE_PEAKS.covered_by_mask == COVERED_BY_MASK
    assert THREE_PEAKS.group_masks == PEAK_MASKS and THREE_PEAKS.group_of == PEAK_OF
    assert THREE_PEAKS.reading_order == tuple(range(28))
    assert THREE_PEAKS.face_up_at_start == frozenset(ROWS[3])
    # the API's y: the row, from 0 at the top
    assert THREE_PEAKS.centre_y == tuple(
        float(r - 1) for r in (1,) * 3 + (2,) * 6 + (3,) * 9 + (4,) * 10
    )
