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
