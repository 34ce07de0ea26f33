"""The winnable deals kept ready (tripeaks/solver/pool.py): each proved winnable, of the kind asked
for, handed out once and in the order found, bounded, refilled off the caller's path, and used by
the app's "winnable deals only" before its own loop."""

from __future__ import annotations

import itertools
import threading

from tripeaks.engine.codes import GameCode
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import search
from tripeaks.solver.pool import WinnablePool
from tripeaks.web.backend.solving import Solvers

SETTLE = 300.0
"""Seconds a test waits for a refill before it fails instead of hanging the run."""


class Counting:
    """A prover handing out deal numbers 0, 1, 2, ... in order, as the kind asked for."""

    def __init__(self) -> None:
        self.numbers = itertools.count()
        self.lock = threading.Lock()
        self.handed: list[GameCode] = []

    def __call__(self, variant: Variant, layout: Layout) -> tuple[GameCode | None, int]:
        with self.lock:
            code = GameCode.from_number(next(self.numbers), variant, layout)
            self.handed.append(code)
        return code, 3


def test_a_kinds_first_take_finds_none_and_the_refill_fills_it() -> None:
    pool = WinnablePool(size=3, prove=Counting())
    try:
        assert pool.take(Rules.CLASSIC) is None
        assert pool.settle(SETTLE)
        assert pool.ready(Rules.CLASSIC) == 3
        assert pool.ready(Rules.EASY) == 0  # another kind is not filled unasked
    finally:
        pool.close()


def test_every_deal_proved_is_handed_out_once_in_the_order_found() -> None:
    """Nothing is filtered, chosen or repeated: the pool hands out exactly what the prover found,
    so its deals are distributed as the prover's are (uniform over the winnable deals)."""
    prover = Counting()
    pool = WinnablePool(size=2, prove=prover)
    taken: list[GameCode] = []
    try:
        pool.take(Rules.EASY)
        for _ in range(20):
            assert pool.settle(SETTLE)
            code = pool.take(Rules.EASY)
            assert code is not None
            taken.append(code)
        assert pool.settle(SETTLE)
    finally:
        pool.close()
    assert len(set(taken)) == len(taken)
    assert taken == prover.handed[: len(taken)]
    assert len(prover.handed) == len(taken) + 2  # the two still ready: proved, never handed out
    refills = pool.refills
    assert (refills.proved, refills.tried) == (22, 66)


def test_deals_are_of_the_kind_asked_for_and_kinds_are_bounded() -> None:
    pool = WinnablePool(size=1, kinds=2, prove=Counting())
    diamonds = BY_ID["diamonds"]
    joker = Variant(Rules.CLASSIC).with_options("J")
    try:
        for kind in [(Rules.EASY, THREE_PEAKS), (joker, diamonds)]:
            pool.take(*kind)
            assert pool.settle(SETTLE)
            code = pool.take(*kind)
            assert code is not None
            variant = kind[0] if isinstance(kind[0], Variant) else Variant(kind[0])
            assert (code.variant, code.layout) == (variant, kind[1])
        pool.take(Rules.CLASSIC, BY_ID["bridge"])  # a third kind: the least recently asked goes
        assert pool.settle(SETTLE)
        assert pool.ready(Rules.EASY) == 0
        assert pool.ready(joker, diamonds) == 1
        assert pool.ready(Rules.CLASSIC, BY_ID["bridge"]) == 1
    finally:
        pool.close()


def test_a_kind_with_no_winnable_deal_is_dropped() -> None:
    pool = WinnablePool(size=2, prove=lambda variant, layout: (None, 1000))
    try:
        assert pool.take(Rules.CLASSIC) is None
        assert pool.settle(SETTLE)
        assert pool.ready(Rules.CLASSIC) == 0
        assert pool.refills.proved == 0 and pool.refills.tried >= 1000
    finally:
        pool.close()


def test_the_real_refill_proves_each_deal_winnable() -> None:
    bridge = BY_ID["bridge"]  # lost three times in four under Classic
    pool = WinnablePool(size=4)
    try:
        pool.take(Rules.CLASSIC, bridge)
        assert pool.settle(SETTLE)
        codes = [pool.take(Rules.CLASSIC, bridge) for _ in range(4)]
    finally:
        pool.close()
    assert all(code is not None for code in codes)
    assert len({str(code) for code in codes}) == 4
    for code in codes:
        assert code is not None and code.layout is bridge and code.rules is Rules.CLASSIC
        assert search.is_winnable(code)
    assert pool.refills.tried >= pool.refills.proved >= 4


def test_a_closed_pool_hands_out_nothing_and_its_thread_is_gone() -> None:
    pool = WinnablePool(size=2, prove=Counting())
    pool.take(Rules.EASY)
    assert pool.settle(SETTLE)
    pool.close()
    assert pool.take(Rules.EASY) is None
    assert pool._thread is not None and not pool._thread.is_alive()


def test_the_apps_winnable_deals_come_from_the_pool_once_it_is_filled() -> None:
    solvers = Solvers()
    try:
        first = solvers.winnable_code(Variant(Rules.CLASSIC))  # the loop: the pool was empty
        assert first is not None and search.is_winnable(first)
        pool = solvers._winnable
        assert pool.settle(SETTLE)
        kept = list(pool._ready[Variant(Rules.CLASSIC), THREE_PEAKS])
        assert len(kept) == pool.size and first not in kept
        code = solvers.winnable_code(Variant(Rules.CLASSIC))
        assert code == kept[0] and search.is_winnable(code)
    finally:
        solvers.close()
    assert solvers._winnable.take(Rules.CLASSIC) is None
