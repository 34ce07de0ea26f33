"""The deal of the day (tripeaks/daily.py): chosen from the secret, the same for a day, winnable."""

from __future__ import annotations

import inspect
from datetime import UTC, date, datetime, time, timedelta

import pytest

from tripeaks import daily
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import ActionKind, Game
from tripeaks.engine.rules import Rules
from tripeaks.solver import search as solver

SECRET = b"\x01" * 32
OTHER = b"\x02" * 32
DAYS = [date(2026, 12, 1) + timedelta(days=n) for n in range(12)]


def test_the_same_secret_and_day_give_the_same_code() -> None:
    for day in DAYS[:4]:
        first = daily.choose(SECRET, day)
        assert daily.choose(SECRET, day) == first
        assert daily.Dailies(SECRET).deal(day).code == first


def test_another_secret_gives_other_codes() -> None:
    ours = [daily.choose(SECRET, day) for day in DAYS]
    theirs = [daily.choose(OTHER, day) for day in DAYS]
    assert all(a != b for a, b in zip(ours, theirs, strict=True))
    assert len(set(ours)) == len(DAYS)  # and every day its own deal


def test_every_chosen_deal_is_an_easy_standard_deal_the_solver_wins() -> None:
    deals = daily.Dailies(SECRET)
    for day in DAYS:
        deal = deals.deal(day)
        assert deal.code.rules is Rules.EASY and deal.code.options == ""
        assert str(deal.code).startswith("TP2-E-") and len(deal.code.letters) == 48
        assert deal.code.long
        solution = solver.solve(deal.code)
        assert solution.winnable and deal.best_score == solution.final_score
        assert Game.replay(deal.code, solution.line).is_won


def test_the_day_skips_deals_that_cannot_be_won() -> None:
    """The day's code is the first winnable one of its sequence: find a day whose first candidate
    is lost and check it is passed over."""
    for offset in range(400):
        day = date(2030, 1, 1) + timedelta(days=offset)
        first = next(daily.candidates(SECRET, day))
        if not solver.is_winnable(first):
            chosen = daily.choose(SECRET, day)
            assert chosen != first and solver.is_winnable(chosen)
            return
    pytest.fail("no day in 400 whose first candidate is lost")


def test_nothing_is_computed_without_the_secret() -> None:
    """The deal comes from the HMAC of the secret only: no secret refuses, and the public
    parts (the date) alone do not give it (no TP1 deal numbered after the day deals its cards)."""
    for call in (lambda: daily.digest(b"", DAYS[0]), lambda: daily.Dailies(b"")):
        with pytest.raises(ValueError):
            call()
    assert list(inspect.signature(daily.choose).parameters) == ["secret", "day"]
    public = [
        GameCode.from_number(n, Rules.EASY)
        for n in range(DAYS[0].toordinal() - 5, DAYS[0].toordinal() + 5)
    ]
    assert daily.choose(SECRET, DAYS[0]).deck() not in {code.deck() for code in public}
    # a one-bit change of the secret changes the digest and so the code
    flipped = bytes([SECRET[0] ^ 1]) + SECRET[1:]
    assert daily.digest(flipped, DAYS[0]) != daily.digest(SECRET, DAYS[0])


def test_an_operators_secret_must_be_long_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(daily.SECRET_VARIABLE, raising=False)
    assert daily.operator_secret() is None
    with pytest.raises(daily.WeakSecret):
        daily.operator_secret("short")
    monkeypatch.setenv(daily.SECRET_VARIABLE, "x" * 16)
    assert daily.operator_secret() == b"x" * 16
    assert len(bytes.fromhex(daily.new_secret())) == daily.SECRET_BYTES


def test_the_ranked_attempt_refuses_undo_and_hints_and_nothing_else() -> None:
    """While its day is open; once the day has closed, a daily is a game like any other."""
    day = DAYS[0]
    ranked, unranked = daily.Tag(day, True), daily.Tag(day, False)
    during = datetime.combine(day, time(12), UTC)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(daily, "clock", lambda: during)
        assert daily.refusal(ranked, ActionKind.UNDO) == daily.RANKED_REFUSED
        assert daily.refusal(ranked, None) == daily.RANKED_REFUSED  # a hint
        assert daily.refusal(unranked, None) == daily.RANKED_REFUSED  # no daily of an open day
        for kind in (ActionKind.PLAY, ActionKind.DRAW):
            assert daily.refusal(ranked, kind) is None
        assert daily.refusal(unranked, ActionKind.UNDO) is None
        assert daily.secret(ranked) and daily.counts(ranked) and not daily.counts(unranked)
        patch.setattr(daily, "clock", lambda: daily.closes_at(day))
        for tag in (ranked, unranked, None):
            for kind in (ActionKind.UNDO, None, ActionKind.PLAY):
                assert daily.refusal(tag, kind) is None
        assert not daily.secret(ranked) and not daily.counts(ranked)


def test_a_day_closes_a_grace_after_utc_midnight() -> None:
    day = DAYS[0]
    midnight = datetime.combine(DAYS[1], time(0), UTC)
    assert daily.closes_at(day) == midnight + daily.GRACE
    assert timedelta(minutes=1) >= daily.GRACE
    assert daily.is_open(day, midnight) and daily.is_open(day, midnight + daily.GRACE / 2)
    assert not daily.is_open(day, midnight + daily.GRACE)
    assert daily.code_public(day, midnight + daily.GRACE) and not daily.code_public(day, midnight)
    assert daily.today(midnight) == DAYS[1]  # a new day's attempts start at midnight


def test_a_ranked_attempts_id_is_one_per_player_and_day_and_tells_neither() -> None:
    ids = {daily.attempt_id(p, d) for p in ("player-a" * 3, "player-b" * 3) for d in DAYS[:3]}
    assert len(ids) == 6
    assert daily.attempt_id("player-a" * 3, DAYS[0]) == daily.attempt_id("player-a" * 3, DAYS[0])
    assert all(len(i) == 32 and "player" not in i for i in ids)
