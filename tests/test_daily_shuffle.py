"""The deal of the day dealt from the secret (issue 34): a full shuffle driven by HMAC-SHA256 keyed with
the day's digest, written out as a long TP2 code, so that walking the 26^7 TP1 codes finds nothing.

docs/decisions.md "The daily is dealt from the secret" says why; docs/deal-format.md defines TP2."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

from tripeaks import daily
from tripeaks.engine.codes import CODE_SPACE, GameCode, deal
from tripeaks.engine.layout import ROWS
from tripeaks.engine.rules import Rules
from tripeaks.solver import _search
from tripeaks.solver import search as solver

ROOT = Path(__file__).resolve().parent.parent
SECRET = b"\x01" * 32
DAY = date(2026, 12, 1)
DAYS = [DAY + timedelta(days=n) for n in range(12)]
PINNED = "TP2-E-ARBPBBSJXESZUTFIJYQXRPXQZNITIKQPTPIWZIZKJOZCMENX"
"""The first candidate and the daily of SECRET on DAY: a change of the construction changes every
server's coming days, so it is pinned."""
VISIBLE = slice(ROWS[3][0], ROWS[3][-1] + 2)
"""The deck positions a player sees at the start: the bottom row (18-27) and the discard (28)."""
SLICE = 2_000_000
"""TP1 numbers the attack walks: a slice of the 26^7 (about 2 s with the compiled dealing)."""


def written_out_deck(secret: bytes, day: date, candidate: int) -> list[int]:
    """The daily's shuffle again, from its description alone (tripeaks/daily.py): 64-bit big-endian
    words from HMAC-SHA256(digest, candidate || block), 4 bytes each; Fisher-Yates from the end with
    the fair draws of docs/deal-format.md step 3."""
    key = hmac.new(secret, b"daily:" + day.isoformat().encode(), hashlib.sha256).digest()
    pending: list[int] = []
    block = 0

    def below(k: int) -> int:
        nonlocal block
        while True:
            if not pending:
                mac = hmac.new(
                    key, candidate.to_bytes(4, "big") + block.to_bytes(4, "big"), hashlib.sha256
                ).digest()
                pending.extend(int.from_bytes(mac[i : i + 8], "big") for i in range(0, 32, 8))
                block += 1
            word = pending.pop(0)
            if word < (1 << 64) - (1 << 64) % k:
                return word % k

    deck = list(range(52))
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def visible_cards(code: GameCode) -> bytes:
    """What a player sees of a deal at its start, as card indices in deck order."""
    cards = deal(code)
    assert cards.discard is not None
    return bytes([*(cards.tableau[p].index for p in ROWS[3]), cards.discard.index])


def walk(targets: set[bytes], start: int, count: int) -> dict[int, bytes]:
    """The brute force: every TP1 number of the slice whose dealt deck shows one of ``targets``."""
    found = {}
    for number in range(start, start + count):
        seen = _search.deal(number % CODE_SPACE)[VISIBLE]
        if seen in targets:
            found[number % CODE_SPACE] = seen
    return found


def near(code: GameCode) -> int:
    """The TP1 number nearest a code: its letters read in base 26, modulo 26^7 (a TP1 code's own
    number; for a long one, its rank's last seven letters)."""
    n = 0
    for letter in code.letters:
        n = n * 26 + ord(letter) - ord("A")
    return n % CODE_SPACE


def test_the_brute_force_search_over_the_tp1_space_finds_no_code_for_todays_visible_cards() -> None:
    """Walk two million TP1 numbers around the one nearest the daily's code, looking for its bottom
    row and discard; a TP1 deal planted in the slice (the control) is found, so the walk works.

    A daily among the TP1 codes would be found so (the whole space in about two hours on one core
    of this machine, minutes on a few); the daily dealt from the secret is not: see the next test."""
    code = daily.Dailies(SECRET).deal(DAY).code
    target = visible_cards(code)
    start = near(code) - SLICE // 2
    control = GameCode.from_number((start + SLICE // 3) % CODE_SPACE)
    found = walk({target, visible_cards(control)}, start, SLICE)
    assert found.get(control.number) == visible_cards(control)
    assert target not in found.values()


def test_the_dailys_code_is_long_and_no_tp1_code_deals_its_deck() -> None:
    """Why no TP1 code can be found in general: the daily's deck is a Fisher-Yates shuffle whose
    every draw comes from HMAC-SHA256 keyed with the day's digest, so without the secret it is any
    of the 52! ≈ 8.1e67 orders, each as likely. The TP1 codes deal at most 26^7 ≈ 8.0e9 decks: the
    chance that one of them is the day's is below 1e-58, and even that one of them shows the same
    eleven cards at the start (bottom row and discard, 52!/41! ≈ 2.4e18 possibilities) is about
    3e-9, so a walk of the whole TP1 space finds nothing, and the 41 unseen cards keep their
    41! > 2^164 arrangements. Here: the code is TP2 and its deck is neither that of the TP1 number
    nearest it nor that of the TP1 code the day would have had when the daily was one (the first
    winnable of SHA-256(digest || counter) modulo 26^7)."""
    chosen = daily.choose(SECRET, DAY)
    assert chosen.long and str(chosen).startswith("TP2-E-")
    assert chosen.deck() != GameCode.from_number(near(chosen)).deck()
    seed = daily.digest(SECRET, DAY)
    for counter in range(daily.TRIES):
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        old = GameCode.from_number(int.from_bytes(block[:8], "big") % CODE_SPACE)
        if solver.is_winnable(old):
            break
    assert chosen.deck() != old.deck()
    assert visible_cards(chosen) != visible_cards(old)


def test_the_candidates_are_long_easy_codes_shuffled_from_the_secret() -> None:
    for day in DAYS[:2]:
        for candidate, code in enumerate(itertools.islice(daily.candidates(SECRET, day), 3)):
            assert code.long and code.rules is Rules.EASY and code.options == ""
            assert list(code.deck()) == written_out_deck(SECRET, day, candidate)
    first = next(daily.candidates(SECRET, DAY))
    assert str(first) == PINNED == str(daily.choose(SECRET, DAY))


def test_the_same_secret_and_day_give_the_same_deal_in_every_worker() -> None:
    """Another process (another hash seed) deals the same candidates and chooses the same code."""
    script = (
        "import itertools; from datetime import date; from tripeaks import daily;"
        f"print(*itertools.islice(daily.candidates({SECRET!r}, date(2026, 12, 1)), 50), sep='\\n')"
    )
    env = {"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    assert out == [str(code) for code in itertools.islice(daily.candidates(SECRET, DAY), 50)]
    assert out[0] == PINNED


def test_days_and_candidates_each_have_their_own_deal() -> None:
    dailies = [daily.choose(SECRET, day) for day in DAYS]
    assert len({code.deck() for code in dailies}) == len(DAYS)
    firsts = [next(daily.candidates(SECRET, day)).deck() for day in DAYS]
    assert len(set(firsts)) == len(DAYS)
    one_day = [code.deck() for code in itertools.islice(daily.candidates(SECRET, DAY), 40)]
    assert len(set(one_day)) == 40
    other = daily.choose(b"\x02" * 32, DAY)
    assert other.deck() != dailies[0].deck()
