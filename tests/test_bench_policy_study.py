"""bench/policy_study.py, briefly: its players (bench/policy_study.c) decide from what a player
sees only, the tuned strategy's fitted weights win more than the greedy strategy's, and a short run
prints every player's row. No figure of the study is asserted."""

from __future__ import annotations

import random
import statistics
import struct
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import fair_hint
import policy_study
from reference import fixed_codes

from tripeaks.engine.game import Game
from tripeaks.engine.rules import Rules
from tripeaks.solver import explain, kernel
from tripeaks.solver.compiled import strategy_tables

PLAYERS = ["greedy", "flat:40", "nested:6,4", "ismcts:400,0.7", "endgame:10,40", "tuned"]
PLAYERS += ["tunedflat:40", "tunedismcts:400,0.7"]


def hidden_shuffled(arguments: tuple, shift: int) -> tuple:
    """The same position with the unseen cards (face down, or still in the stock) dealt otherwise:
    the same multiset, rotated by ``shift`` over their places."""
    return hidden_dealt(arguments, lambda unseen: unseen[shift:] + unseen[:shift])


def face_down(arguments: tuple) -> list[int]:
    """The positions of the position's face-down cards."""
    ranks, _, _, covered_by, _, present, *_ = arguments
    masks = [int.from_bytes(covered_by[8 * p : 8 * p + 8], "little") for p in range(len(ranks))]
    return [p for p in range(len(ranks)) if present >> p & 1 and present & masks[p]]


def unseen_count(arguments: tuple) -> int:
    """How many cards are unseen (face down, or still in the stock) at the position."""
    return len(face_down(arguments)) + len(arguments[1]) - arguments[6]


def hidden_dealt(arguments: tuple, order: Callable[[list[int]], list[int]]) -> tuple:
    """The same position with its unseen cards put back in their places in ``order``."""
    ranks, stock, fits, covered_by, covers, present, drawn, *rest = arguments
    hidden = face_down(arguments)
    unseen = order([ranks[p] for p in hidden] + list(stock[drawn:]))
    ranks = bytearray(ranks)
    for p, rank in zip(hidden, unseen, strict=False):
        ranks[p] = rank
    stock = bytes(stock[:drawn]) + bytes(unseen[len(hidden) :])
    return (bytes(ranks), stock, fits, covered_by, covers, present, drawn, *rest)


@pytest.mark.parametrize("rules", [Rules.EASY, Rules.CLASSIC])
@pytest.mark.parametrize("who", PLAYERS)
def test_a_player_makes_a_legal_move_alike_on_deals_that_look_alike(rules: Rules, who: str) -> None:
    """At every position of six games, the player's move is a legal one, and the same when the
    unseen cards lie otherwise."""
    study, player = policy_study.built(), policy_study.player(who)
    positions = 0
    for code in fixed_codes(6, rules, seed=7):
        game = Game.new(code)
        for step in range(40):
            moves = list(game.legal_moves())
            legal = [255 if move.pos is None else move.pos for move in moves]
            if not legal:
                break
            arguments = policy_study.arguments(code, player, first=True, game=game)
            move = study.play(*arguments)
            others = [study.play(*hidden_shuffled(arguments, shift)) for shift in (1, 5, 17)]
            assert move in legal and others == [move] * 3, f"{code} step {step}"
            positions += 1
            game.apply(moves[step % len(moves)])
    assert positions > 100


def test_the_unseen_cards_dealt_otherwise_change_how_games_end() -> None:
    """The shuffle the test above uses changes the deals, and so the outcome of games: a player
    that read a hidden card would be caught."""
    study, ended = policy_study.built(), set()
    for code in fixed_codes(12, Rules.EASY, seed=7):
        arguments = policy_study.arguments(code, policy_study.player("flat:40"))
        shuffled = hidden_shuffled(arguments, 5)
        assert shuffled[:2] != arguments[:2]
        assert sorted(shuffled[0] + shuffled[1]) == sorted(arguments[0] + arguments[1])
        ended.add((study.play(*arguments), study.play(*shuffled)))
    assert (0, 1) in ended or (1, 0) in ended


@pytest.mark.parametrize("rules", [Rules.EASY, Rules.CLASSIC])
def test_the_endgame_value_is_the_chance_its_player_wins_and_no_player_beats_it(
    rules: Rules,
) -> None:
    """The endgame player's expectimax value of a position with few unseen cards is the share its
    player wins of the deals that look alike there (the unseen cards dealt at random), and the flat
    player wins no more; the value reads no hidden card."""
    study = policy_study.built()
    best, flat = policy_study.player("endgame:9,40"), policy_study.player("flat:40")
    rng, checked = random.Random(40), 0
    for code in fixed_codes(16, rules, seed=11):
        game = Game.new(code)
        while (
            game.legal_moves() and unseen_count(policy_study.arguments(code, best, game=game)) > 9
        ):
            move = study.play(
                *policy_study.arguments(code, policy_study.player("greedy"), True, game)
            )
            game.apply(
                next(m for m in game.legal_moves() if (255 if m.pos is None else m.pos) == move)
            )
        arguments = policy_study.arguments(code, best, game=game)
        value = study.value(*arguments)
        if not game.legal_moves() or value is None or not 0.05 < value < 0.95:
            continue
        assert study.value(*hidden_shuffled(arguments, 3)) == value
        deals = [hidden_dealt(arguments, lambda u: rng.sample(u, len(u))) for _ in range(400)]
        won = [study.play(*dealt) for dealt in deals]
        flat_won = [study.play(*dealt[:8], *flat, *dealt[12:]) for dealt in deals]
        error = 4 * (value * (1 - value) / len(deals)) ** 0.5
        assert abs(statistics.mean(won) - value) < error, (code, value)
        assert statistics.mean(flat_won) < value + error, (code, value)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize(
    "text",
    [
        *["random", "flat", "flat:0", "flat:x", "nested:5", "ismcts:100", "greedy:3", "endgame:9"],
        *["tuned:2", "tunedflat", "tunedismcts:100"],
    ],
)
def test_a_malformed_player_is_refused_with_its_reason(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        policy_study.main(["--deals", "1", "--players", text])
    assert exit_.value.code == 2
    assert text.split(":")[0] in capsys.readouterr().err


@pytest.mark.parametrize("rules", [Rules.EASY, Rules.CLASSIC])
def test_the_tuned_strategy_plays_as_the_greedy_one_with_its_weights_and_wins_more_with_its_own(
    rules: Rules,
) -> None:
    """With the greedy strategy's weights the tuned strategy makes the greedy strategy's moves (the
    same games won, tie for tie); with the weights fitted for the rules it wins more of 2,000
    deals it was not fitted on."""
    study = policy_study.built()
    greedy, tuned = policy_study.player("greedy"), policy_study.player("tuned")
    deals = fixed_codes(2000, rules, seed=12)
    as_greedy = [
        study.play(*policy_study.arguments(c, tuned, weights=policy_study.GREEDY)) for c in deals
    ]
    assert as_greedy == [study.play(*policy_study.arguments(c, greedy)) for c in deals]
    fitted = [study.play(*policy_study.arguments(c, tuned)) for c in deals]
    assert sum(fitted) > sum(as_greedy) + 60


def test_its_rollouts_are_the_apps_with_the_greedy_weights_and_others_with_the_tuned_ones() -> None:
    """The study's rollouts() plays the app's fair-hint rollouts (the kernel's, tie for tie) with the
    greedy strategy's weights, and other ones with the tuned strategy's."""
    study, differ = policy_study.built(), 0
    for code in fixed_codes(4, Rules.CLASSIC, seed=7):
        game = Game.new(code)
        game.apply(next(iter(game.legal_moves())))
        deals = explain.consistent_deals(game, 200, 0)
        tableaux = b"".join(bytes(card.rank for card in sample.tableau) for sample in deals)
        stocks = b"".join(bytes(card.rank for card in sample.stock) for sample in deals)
        firsts = bytes(255 if move.pos is None else move.pos for move in game.legal_moves())
        position = (game.present, game.drawn, game.top_rank)
        apps = kernel.KERNEL.rollouts(
            tableaux, stocks, game.rules, *position, firsts, 2, 9, game.layout
        )
        common = (tableaux, stocks, *strategy_tables(game.rules, game.layout), *position, 2, 9)
        greedy = struct.pack("9d", *policy_study.GREEDY)
        tuned = struct.pack("9d", *policy_study.TUNED[Rules.CLASSIC])
        assert study.rollouts(*common, firsts, greedy) == apps
        differ += study.rollouts(*common, firsts, tuned) != apps
    assert differ >= 3


def test_the_tuned_fair_hint_weighs_the_same_moves_otherwise_and_puts_the_kernel_back() -> None:
    """bench/fair_hint.py's "tuned" follower asks the fair hint with its plays made by the tuned
    strategy: the same legal moves, other counts of plays won, and the app's kernel in place
    after."""
    served, differ = kernel.KERNEL, 0
    for code in fixed_codes(4, Rules.CLASSIC, seed=7):
        game = Game.new(code)
        game.apply(next(iter(game.legal_moves())))
        tuned = fair_hint.tuned_hint(game, 100)
        assert kernel.KERNEL is served
        plain = explain.played_hint(game, 100)
        assert tuned.moves == plain.moves and tuned.move in tuned.moves
        differ += tuned.wins != plain.wins
    assert differ >= 3


def test_rollouts_refuse_a_first_move_that_cannot_be_made_and_a_rank_over_13() -> None:
    """A covered card as a first move, or a sample with a rank past the king, is refused with its
    reason instead of being played on (the app's rollouts refuse them alike)."""
    game = Game.new(fixed_codes(1, Rules.EASY, seed=7)[0])
    deals = explain.consistent_deals(game, 3, 0)
    tableaux = b"".join(bytes(card.rank for card in sample.tableau) for sample in deals)
    stocks = b"".join(bytes(card.rank for card in sample.stock) for sample in deals)
    tables = strategy_tables(game.rules, game.layout)
    covered = next(p for p in range(len(deals[0].tableau)) if not game.is_free(p))
    weights = struct.pack("9d", *policy_study.TUNED[Rules.EASY])
    position = (game.present, game.drawn, game.top_rank, 1, 9)
    study = policy_study.built()
    legal = bytes(255 if move.pos is None else move.pos for move in game.legal_moves())
    assert len(study.rollouts(tableaux, stocks, *tables, *position, legal, weights)) == len(legal)
    with pytest.raises(ValueError, match="first move"):
        study.rollouts(tableaux, stocks, *tables, *position, bytes([covered]), weights)
    with pytest.raises(ValueError, match="rank"):
        study.rollouts(b"\x30" + tableaux[1:], stocks, *tables, *position, legal, weights)
    arguments = policy_study.arguments(game.code, policy_study.player("tuned"))
    with pytest.raises(ValueError, match="rank"):
        study.play(b"\x30" + arguments[0][1:], *arguments[1:])


def test_a_weights_blob_of_the_wrong_size_is_refused() -> None:
    arguments = policy_study.arguments(
        fixed_codes(1, Rules.EASY, seed=7)[0], policy_study.player("tuned")
    )
    with pytest.raises(ValueError, match="malformed"):
        policy_study.built().play(*arguments[:-1], bytes(8))


def test_tuning_keeps_only_steps_that_win_more_and_checks_them_on_other_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fitted = policy_study.tune(Rules.EASY, 300, 100, 30)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("easy, 300 deals (seed 100): the greedy strategy wins")
    shares = [float(line.split()[1].rstrip("%")) for line in printed[1:-1]]
    assert shares == sorted(set(shares)) and len(shares) >= 1
    assert printed[-1].startswith(f"weights {fitted}:") and "(seed 101)" in printed[-1]


def test_a_short_run_prints_every_player_and_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    assert policy_study.main(["--rules", "classic", "--deals", "3", "--players", *PLAYERS]) == 0
    printed = capsys.readouterr().out
    assert "Classic, 3 random deals (seed 4)" in printed
    for who in [*PLAYERS, "perfect information"]:
        assert f"| {who} |" in printed
