"""Every layout is a sound table (docs/rules.md "Layouts"), and Layout refuses unsound ones."""

import pytest

from tripeaks.engine.codes import GameCode, deal
from tripeaks.engine.game import Game, Slot
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules

every_layout = pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
new_layouts = pytest.mark.parametrize("layout", LAYOUTS[1:], ids=lambda layout: layout.id)


def test_seven_layouts_each_with_its_own_id() -> None:
    assert len(LAYOUTS) >= 7 and LAYOUTS[0] is THREE_PEAKS
    assert len(BY_ID) == len(LAYOUTS)
    assert len({layout.places for layout in LAYOUTS}) == len(LAYOUTS)


@new_layouts
def test_sizes_leave_the_stock_at_least_sixteen_cards(layout: Layout) -> None:
    assert 20 <= layout.size <= 35
    assert 52 - layout.size - 1 >= 16


@every_layout
def test_the_covering_is_acyclic_and_every_card_is_eventually_free(layout: Layout) -> None:
    left = set(range(layout.size))
    while left:
        free = {p for p in left if not set(layout.covered_by[p]) & left}
        assert free, f"{sorted(left)} can never be freed"
        left -= free


@every_layout
def test_covers_is_the_inverse_of_covered_by(layout: Layout) -> None:
    for p in range(layout.size):
        for q in range(layout.size):
            assert (q in layout.covered_by[p]) == (p in layout.covers[q])
        assert p not in layout.covered_by[p]
        assert layout.covered_by_mask[p] == sum(1 << q for q in layout.covered_by[p])


@every_layout
def test_the_picture_tells_the_truth_about_covering(layout: Layout) -> None:
    """Two cards of neighbouring rows half a card apart or less lie one over the other: exactly then
    does one of them cover the other."""
    for p, (x, y) in enumerate(layout.places):
        for q, (qx, qy) in enumerate(layout.places):
            overlap = abs(qx - x) <= 1 and abs(qy - y) == 2
            assert overlap == (q in layout.covered_by[p] or p in layout.covered_by[q]), (p, q)
            assert not (q in layout.covered_by[p] and p in layout.covered_by[q])


@every_layout
def test_no_two_cards_lie_on_the_same_place(layout: Layout) -> None:
    for p, (x, y) in enumerate(layout.places):
        assert x >= 0 and y >= 0
        for q in range(p):
            qx, qy = layout.places[q]
            assert abs(qx - x) >= 2 or abs(qy - y) >= 2, (q, p)


@every_layout
def test_the_uncovered_cards_start_face_up_and_no_others(layout: Layout) -> None:
    uncovered = {p for p in range(layout.size) if not layout.covered_by[p]}
    assert layout.face_up_at_start == uncovered and uncovered
    game = Game.new(GameCode.from_number(38), layout)
    face_up = {p for p, slot in enumerate(game.slots()) if slot is Slot.FACE_UP}
    assert face_up == uncovered == set(game.free_positions())


@every_layout
def test_groups_partition_the_table_into_connected_groups(layout: Layout) -> None:
    every = sorted(p for group in layout.groups for p in group)
    assert every == list(range(layout.size)) and len(layout.groups) >= 2
    for k, group in enumerate(layout.groups):
        assert all(layout.group_of[p] == k for p in group)
        assert layout.group_masks[k] == sum(1 << p for p in group)
        reached, todo = {group[0]}, [group[0]]
        while todo:  # a group is one piece: cards touching (side by side or overlapping) link
            p = todo.pop()
            x, y = layout.places[p]
            for q in group:
                qx, qy = layout.places[q]
                if abs(qx - x) <= 2 and abs(qy - y) <= 2 and q not in reached:
                    reached.add(q)
                    todo.append(q)
        assert reached == set(group), layout.id


@every_layout
def test_reading_order_is_rows_top_to_bottom_each_left_to_right(layout: Layout) -> None:
    order = sorted(range(layout.size), key=lambda p: (layout.places[p][1], layout.places[p][0]))
    assert list(layout.reading_order) == order
    assert [p for row in layout.rows for p in row] == order
    for p in range(layout.size):
        assert layout.rows[layout.row_of[p] - 1][layout.index_in_row[p]] == p


@new_layouts
def test_positions_are_numbered_in_reading_order(layout: Layout) -> None:
    assert layout.reading_order == tuple(range(layout.size))


@every_layout
def test_a_layout_drawn_from_its_own_picture_is_itself(layout: Layout) -> None:
    assert Layout.drawn(layout.id, layout.picture()) == layout


@every_layout
def test_a_deal_puts_the_first_cards_of_the_same_shuffle_on_the_table(layout: Layout) -> None:
    code = GameCode.from_number(123_456, Rules.CLASSIC)
    cards = deal(code, layout)
    three_peaks = deal(code)
    dealt = [*cards.tableau, cards.discard, *cards.stock]
    assert dealt == [*three_peaks.tableau, three_peaks.discard, *three_peaks.stock]
    assert len(cards.tableau) == layout.size and len(cards.stock) == 51 - layout.size


def test_a_game_refuses_a_deal_of_another_size_than_its_layout() -> None:
    other = BY_ID["bridge"]
    with pytest.raises(ValueError, match="bridge has 33 cards, not 28"):
        Game(deal(GameCode.from_number(1)), Rules.EASY, layout=other)


def test_layout_refuses_unsound_tables() -> None:
    with pytest.raises(ValueError, match="circle"):
        Layout("loop", ((0, 0), (4, 0)), ((1,), (0,)), ((0, 1),))
    with pytest.raises(ValueError, match="same place"):
        Layout("stacked", ((0, 0), (1, 1)), ((), ()), ((0, 1),))
    with pytest.raises(ValueError, match="exactly once"):
        Layout("split", ((0, 0), (2, 0)), ((), ()), ((0,), (0, 1)))
    with pytest.raises(ValueError, match="exactly once"):
        Layout("missing", ((0, 0), (2, 0)), ((), ()), ((0,),))
    with pytest.raises(ValueError, match="other positions"):
        Layout("self", ((0, 0),), ((0,),), ((0,),))
    with pytest.raises(ValueError, match="id"):
        Layout("Three Peaks", ((0, 0),), ((),), ((0,),))
    with pytest.raises(ValueError, match="share a layer"):
        Layout.drawn("flat", "a0\n a0")
    with pytest.raises(ValueError, match="not a card"):
        Layout.drawn("bad", "a0 A1")
    with pytest.raises(ValueError, match="1 to 51"):
        Layout.drawn("huge", "\n".join(f"a{i}" * 13 for i in range(4)))


@every_layout
def test_near_the_end_is_at_most_eight_cards_left_or_under_four_in_the_stock(
    layout: Layout,
) -> None:
    game = Game.new(GameCode.from_number(7), layout)
    assert not game.near_the_end
    left = set(range(layout.size))
    while len(left) > 8:  # take cards off as a player could not: the rule looks at counts alone
        p = min(p for p in left if not set(layout.covered_by[p]) & left)
        left.discard(p)
        game.present &= ~(1 << p)
        assert game.near_the_end == (len(left) <= 8), len(left)


def test_a_picture_keeps_its_empty_rows_and_refuses_what_it_cannot_show() -> None:
    gapped = Layout.drawn("gapped", "a0  b0\n\n a0")
    assert gapped.places == ((0, 0), (4, 0), (1, 4)) and gapped.picture() == "a0  b0\n\n a0"
    with pytest.raises(ValueError, match="cannot be drawn"):
        Layout("half_rows", ((0, 0), (2, 1)), ((), ()), ((0, 1),)).picture()
