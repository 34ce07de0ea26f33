"""The solver explains: where a game was lost, a fair hint that sees only what the player sees, and
how hard a deal is for a player who follows those hints (issues 16 and 40; docs/solver.md
"Explaining" and "The fair hint's honesty").

Everything here asks the exact solver's public answers (``solver.Answers``, ``solver.solve``,
``solver.is_winnable``); the engine (tripeaks/engine/game.py) replays every line, so no rule is decided here.
Every layout is explained alike: each function reads the game's (or the code's) layout, its size
and which cards cover which.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from enum import Enum

from tripeaks.engine.cards import JOKER, Card
from tripeaks.engine.codes import Deal, GameCode, deal
from tripeaks.engine.game import DRAW, Action, ActionKind, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring
from tripeaks.solver import kernel as seam
from tripeaks.solver import search as solver
from tripeaks.solver.kernel import Kernel
from tripeaks.solver.tables import WILD

# Where a game was lost ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LostAt:
    """The last position of a game's line of play from which a win still existed.

    ``index`` counts the moves of ``line`` made before that position (0 is the deal's start);
    ``move`` is the move made there that lost the game, None when the line ends at that position
    (a game left, or still playing, while it could still be won). ``win`` is a best win (fewest
    draws) from that position, for a replay that shows it."""

    index: int
    move: Action | None
    line: tuple[Action, ...]
    win: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Draws:
    """A won game's draws against the fewest any win of its deal needs."""

    used: int
    fewest: int


def line_of_play(game: Game) -> tuple[Action, ...]:
    """The game's moves as they stand: its log with every undone action taken out. Replayed through
    the engine from the deal, it must come to the game's own position (checked here)."""
    line: list[Action] = []
    for action in game.actions:
        if action.kind is ActionKind.UNDO:
            line.pop()
        else:
            line.append(action)
    replayed = _fresh(game)
    for action in line:
        replayed.apply(action)
    if (replayed.present, replayed.drawn) != (game.present, game.drawn):
        raise ValueError("the game's log does not replay to its position")
    return tuple(line)


def _fresh(game: Game, ours: bool = False) -> Game:
    """The game's deal from its start (under our scoring with ``ours``: the best win the solver
    finds is our scoring's, and the fewest draws and the cards removed do not depend on it)."""
    variant = replace(game.variant, scoring=Scoring.OURS) if ours else game.variant
    return Game(game.deal, variant, game.code, game.layout)


def _positions(game: Game, line: tuple[Action, ...]) -> list[tuple[int, int, int]]:
    """(present, drawn, top rank) before each move of ``line`` and after the last, by the engine."""
    replayed = _fresh(game)
    seen = [(replayed.present, replayed.drawn, replayed.top_rank)]
    for action in line:
        replayed.apply(action)
        seen.append((replayed.present, replayed.drawn, replayed.top_rank))
    return seen


def lost_at(game: Game) -> LostAt | None:
    """Where the game was lost; None when it is won or its deal could never be won (see
    :func:`most_removed`). A lost position only leads to lost ones, so the winnable positions of a
    line are its first ``index + 1``."""
    if game.is_won:
        return None
    line = line_of_play(game)
    answers = solver.Answers.of(game)
    positions = _positions(game, line)
    if not answers.winnable_at(*positions[0]):
        return None
    index = 0
    while index + 1 < len(positions) and answers.winnable_at(*positions[index + 1]):
        index += 1
    there = _fresh(game, ours=True)
    for action in line[:index]:
        there.apply(action)
    win = answers.solve(there).line
    move = line[index] if index < len(line) else None
    return LostAt(index, move, line, win)


def best_win(game: Game) -> solver.Solution:
    """The solver's best win of the game's deal from its start (our scoring's: fewest draws), or
    for a deal that cannot be won the most cards any line removes."""
    return solver.solve(_fresh(game, ours=True))


def most_removed(game: Game) -> int:
    """The most tableau cards any line of the game's deal removes (all of its layout's when it can
    be won)."""
    return best_win(game).max_removed


def draws_used(game: Game, best: solver.Solution | None = None) -> Draws:
    """A won game's draws against the fewest of a best win of its deal (``best``: that win, if
    the caller has it already)."""
    if not game.is_won:
        raise ValueError("only a won game is measured against the fewest draws")
    used = sum(1 for action in line_of_play(game) if action == DRAW)
    return Draws(used, (best or best_win(game)).draws)


# A fair hint ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SolvedHint:
    """The sampling hint served as the fair hint until issue 40, kept as the bench's yardstick
    (bench/fair_hint.py, "today"): the move after which the most deals consistent with the visible
    cards can still be won by someone who sees every card, each solved exactly. ``chance`` is that
    share, an upper bound and not a chance (the plan that wins each sample is not one a player can
    follow: "strategy fusion"); ``wins`` counts the samples won after each legal move. ``move`` is
    None when no move is left."""

    move: Action | None
    chance: float
    moves: tuple[Action, ...]
    wins: tuple[int, ...]
    samples: int

    @property
    def chances(self) -> dict[Action, float]:
        return {move: won / self.samples for move, won in zip(self.moves, self.wins, strict=True)}


def _hidden(game: Game) -> tuple[list[int], list[Card], bool]:
    """The face-down positions (lowest first), the cards the player has not seen (in deck order;
    the joker set apart) and whether the joker is still in the stock."""
    covered_by_mask = game.layout.covered_by_mask
    hidden = [
        p
        for p in game.layout.positions
        if game.present >> p & 1
        and game.present & covered_by_mask[p]
        and not game.variant.open_peaks
    ]
    unseen = [game.deal.tableau[p] for p in hidden] + list(game.deal.stock[game.drawn :])
    joker = JOKER in unseen
    return hidden, sorted((c for c in unseen if not c.is_joker), key=lambda c: c.index), joker


def visible_key(game: Game) -> bytes:
    """What the player sees, as bytes: the layout (its word, as a code names it: none for Three
    Peaks), the game, the cards on the table face up, the discard pile and how many are left in
    the stock. Two games with these equal get the same fair hint."""
    hidden = set(_hidden(game)[0])
    table = bytes(
        255 if p in hidden else 254 if not game.present >> p & 1 else game.deal.tableau[p].index
        for p in game.layout.positions
    )
    pile = bytes(card.index for card in game.discard)
    word = "" if game.layout is THREE_PEAKS else f"{game.layout.word}-"
    head = f"{word}{game.variant.key}|{game.stock_size}|".encode()
    return head + table + b"|" + pile


def _seed(key: bytes, seed: int) -> int:
    """A seed from the visible position and the caller's: blake2b, the same in every run (Python's
    own hash() of bytes is salted per process)."""
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") ^ seed


def consistent_deals(game: Game, samples: int = 200, seed: int = 0) -> list[Deal]:
    """``samples`` deals that agree with everything the player sees of ``game``: the unseen cards
    shuffled into the face-down places and the stock still to draw (the joker, when not drawn yet,
    at a random place of it). The cards seen stay where they are."""
    hidden, unseen, joker = _hidden(game)
    rng = random.Random(_seed(visible_key(game), seed))
    cards = game.deal
    gone = cards.stock[: game.drawn]
    left = len(cards.stock) - game.drawn
    out = []
    for _ in range(samples):
        shuffled = list(unseen)
        rng.shuffle(shuffled)
        tableau = list(cards.tableau)
        for p, card in zip(hidden, shuffled, strict=False):
            tableau[p] = card
        stock = shuffled[len(hidden) :]
        if joker:
            stock.insert(rng.randrange(left), JOKER)
        out.append(Deal(tuple(tableau), cards.discard, gone + tuple(stock)))
    return out


def solved_hint(
    game: Game, samples: int = 200, seed: int = 0, deals: list[Deal] | None = None
) -> SolvedHint:
    """The sampling hint (:class:`SolvedHint`): the best move from what the player sees, each legal
    move weighed by the share of consistent deals (:func:`consistent_deals`) that can still be won
    after it, each deal solved exactly. Ties go to the first of the engine's legal moves (plays
    lowest first, then the draw).
    ``deals``, when given, are the samples (the first ``samples`` of :func:`consistent_deals`
    with this seed: a caller that dealt them already)."""
    if deals is not None:
        deals = deals[:samples]
    if samples < 1:
        raise ValueError("a fair hint needs at least one sample")
    moves = tuple(game.legal_moves())
    if not moves:
        return SolvedHint(None, 0.0, (), (), samples)
    present, drawn, rules = game.present, game.drawn, game.rules
    after = [
        (present & ~(1 << move.pos), drawn, game.deal.tableau[move.pos].rank)
        for move in moves
        if move.pos is not None
    ]
    draws = moves[-1] == DRAW
    wins = [0] * len(moves)
    for sample in deals if deals is not None else consistent_deals(game, samples, seed):
        drawing = [(present, drawn + 1, sample.stock[drawn].rank)] if draws else []
        for i, won in enumerate(_winnable_positions(sample, rules, after + drawing, game.layout)):
            wins[i] += won
    best = max(range(len(moves)), key=lambda i: (wins[i], -i))
    return SolvedHint(moves[best], wins[best] / samples, moves, tuple(wins), samples)


def _winnable_positions(
    cards: Deal, rules: Rules, positions: list[tuple[int, int, int]], layout: Layout
) -> list[bool]:
    """Can each position of a sampled deal on ``layout`` still be won? Through the search's
    winnable_positions (the capped search, then the backward pass), on any layout."""
    return solver.winnable_positions(cards, rules, positions, layout)


# The fair hint: rollouts of the visible-card strategy (issue 40) ---------------------------------

HINT_SAMPLES = 1000
"""Consistent deals a fair hint plays on from each legal move. More samples choose better moves:
followed to the end, hints by rollouts alone won 29.2 % of the bench's Classic deals with 200,
31.4 % with 500 and 32.2 % with 1,000 (docs/solver.md "The fair hint's honesty")."""
SOLVED_SAMPLES = 200
"""Of those, the first ones also solved exactly to find the moves worth playing on (SCREEN)."""
SOLVED_BY_LAYOUT: dict[str, int] = {"valley": 100}
"""Tables (by id) whose exact solves are dear enough to take fewer of them than SOLVED_SAMPLES, so
that a hint stays within the issue's 400 ms of CPU at the p99: with 200, Valley Classic's later
hints took 451 ms at the p99 and its first hint up to 488 ms; with 100, 193 and 255
(docs/solver.md "On every layout")."""
SCREEN = 0.05
"""A move is a candidate when the share of the solved samples still winnable after it is within
this of the best move's. Among 0.02, 0.05 and 0.1, 0.05 won the most of the bench's first 300
Classic deals (36.3 %, against 31.0 % by rollouts alone) and as many Easy ones (65.7 % against
66.0 %); over its 1,000 Classic deals the hints won 34.0 %, against 32.2 % by rollouts alone."""


@dataclass(frozen=True, slots=True)
class PlayedHint:
    """The fair hint, weighed by playing on (:func:`played_hint`): the move after which the
    visible-card strategy wins most often on deals consistent with what the player sees.
    ``wins`` counts, for each legal move, the plays won after it out of ``plays``; ``share`` is
    the move's share of them and ``chance`` that share through the table's calibration map
    (:data:`CALIBRATION`): the measured chance that a player who follows every such hint from
    here wins. ``move`` is None when no move is left."""

    move: Action | None
    chance: float
    share: float
    moves: tuple[Action, ...]
    wins: tuple[int, ...]
    plays: int


_THREE_PEAKS_CLASSIC = (
    0.006, 0.09, 0.175, 0.24, 0.297, 0.357, 0.417, 0.453, 0.498, 0.535, 0.564,
    0.61, 0.677, 0.706, 0.753, 0.789, 0.833, 0.861, 0.911, 0.965, 1.0,
)  # fmt: skip
"""Three Peaks' Classic map, which Classic Bridge takes too (:data:`CALIBRATION`)."""

CALIBRATION: dict[tuple[Rules, str], tuple[float, ...]] = {
    # Three Peaks, share by share: bench/fair_hint.py --rules R --players played
    # --seed 4 5 6 7 8 9 --cross --fit
    (Rules.EASY, "three_peaks"): (
        0.004, 0.092, 0.16, 0.226, 0.288, 0.344, 0.407, 0.465, 0.52, 0.568, 0.604,
        0.646, 0.678, 0.723, 0.764, 0.802, 0.831, 0.876, 0.916, 0.952, 1.0,
    ),
    (Rules.CLASSIC, "three_peaks"): _THREE_PEAKS_CLASSIC,
    # Easy Bridge on 300 games, logistic: bench/fair_hint.py --rules easy --layout bridge
    # --players played --seed 4 5 --games 100 200 --cross --fit
    (Rules.EASY, "bridge"): (
        0.002, 0.129, 0.223, 0.301, 0.369, 0.43, 0.484, 0.535, 0.581, 0.624, 0.665,
        0.703, 0.739, 0.774, 0.807, 0.839, 0.87, 0.901, 0.932, 0.964, 0.999,
    ),
    # 6,000 games a table, share by share as Three Peaks: bench/fair_hint.py --rules R
    # --layout L --players played --seed 4 5 6 7 8 9 --games 1000 --cross --fit
    (Rules.EASY, "diamonds"): (
        0.0, 0.071, 0.227, 0.291, 0.339, 0.339, 0.41, 0.47, 0.548, 0.603, 0.65,
        0.683, 0.739, 0.796, 0.836, 0.873, 0.901, 0.933, 0.959, 0.978, 0.999,
    ),
    (Rules.EASY, "theatre"): (  # 8,000 games (seeds 4 to 11)
        0.007, 0.167, 0.205, 0.316, 0.409, 0.449, 0.526, 0.544, 0.622, 0.655, 0.735,
        0.75, 0.801, 0.847, 0.884, 0.91, 0.936, 0.959, 0.976, 0.988, 0.999,
    ),
    (Rules.CLASSIC, "diamonds"): (
        0.003, 0.116, 0.208, 0.286, 0.37, 0.434, 0.495, 0.549, 0.601, 0.658, 0.689,
        0.724, 0.757, 0.788, 0.82, 0.846, 0.871, 0.906, 0.932, 0.964, 0.999,
    ),
    # Classic Bridge on 6,000 games (seeds 4 to 9) takes Three Peaks' map: it came nearer than its
    # own logistic curve and its share by share, which both stated over 5 points above in a tenth
    (Rules.CLASSIC, "bridge"): _THREE_PEAKS_CLASSIC,
    # Easy Four Peaks on 4,000 games (seeds 4 to 7) and Easy Up and Down on 3,000 (seeds 4 to 7,
    # --games 750), share by share: cross-checked nearer than their logistic curves and Three
    # Peaks' map
    (Rules.EASY, "four_peaks"): (
        0.006, 0.089, 0.182, 0.253, 0.306, 0.394, 0.45, 0.5, 0.564, 0.611, 0.642,
        0.682, 0.718, 0.747, 0.779, 0.83, 0.848, 0.895, 0.918, 0.943, 0.999,
    ),
    (Rules.EASY, "up_and_down"): (
        0.006, 0.081, 0.157, 0.208, 0.29, 0.349, 0.411, 0.466, 0.508, 0.556, 0.585,
        0.631, 0.676, 0.703, 0.767, 0.814, 0.836, 0.894, 0.931, 0.973, 1.0,
    ),
    # Easy Valley on 2,000 games (seeds 4 to 7, --games 500), share by share: cross-checked
    # nearer than its logistic curve and Three Peaks' map
    (Rules.EASY, "valley"): (
        0.008, 0.111, 0.225, 0.308, 0.389, 0.45, 0.515, 0.568, 0.617, 0.658, 0.696,
        0.739, 0.774, 0.774, 0.806, 0.858, 0.892, 0.928, 0.943, 0.988, 1.0,
    ),
    # Classic Four Peaks and Up and Down on 3,000 games (seeds 4 to 6), share by share:
    # cross-checked nearer than their logistic curves and Three Peaks' map
    (Rules.CLASSIC, "four_peaks"): (
        0.013, 0.106, 0.192, 0.26, 0.308, 0.353, 0.407, 0.445, 0.533, 0.552, 0.552,
        0.619, 0.659, 0.7, 0.777, 0.822, 0.822, 0.85, 0.947, 0.992, 1.0,
    ),
    (Rules.CLASSIC, "up_and_down"): (
        0.011, 0.09, 0.172, 0.23, 0.279, 0.327, 0.378, 0.423, 0.459, 0.481, 0.534,
        0.6, 0.646, 0.646, 0.69, 0.777, 0.828, 0.857, 0.892, 0.992, 1.0,
    ),
    # Classic Valley on 3,000 games (seeds 4 and 5, 1,000 games each; 6 and 7, 500 each), share
    # by share: cross-checked nearer than its logistic curve and Three Peaks' map
    (Rules.CLASSIC, "valley"): (
        0.017, 0.133, 0.23, 0.295, 0.358, 0.409, 0.476, 0.515, 0.536, 0.594, 0.643,
        0.66, 0.75, 0.774, 0.822, 0.869, 0.879, 0.915, 0.977, 0.986, 1.0,
    ),
    (Rules.CLASSIC, "theatre"): (
        0.004, 0.129, 0.222, 0.301, 0.39, 0.457, 0.518, 0.581, 0.63, 0.687, 0.732,
        0.765, 0.798, 0.832, 0.853, 0.885, 0.903, 0.931, 0.955, 0.979, 1.0,
    ),
}  # fmt: skip
"""By rules and table (its layout's id): the chance stated for a played hint whose share is 0, 0.05,
... 1 (21 knots; in between, the straight line between the two nearest), fitted by
``bench/fair_hint.py`` on games played by following these hints on that table (docs/solver.md "The
fair hint's honesty"). A table's followers beat its strategy's plays by their own margin, so every
table has its map chosen for it, and a table without one is an error. Three Peaks' maps are fitted
share by share (the share of the games won among the hints of each share, made non-decreasing) on
6,000 games a rules, and checked on each 1,000 through a map fitted on the other 5,000
(``--cross``); so are Theatre's and Diamonds' (Easy Theatre's on 8,000). Easy Four Peaks' is fitted
share by share on 4,000 games, Easy Up and Down's and Classic Four Peaks', Up and Down's and
Valley's on 3,000, and Easy Valley's on 2,000, cross-checked the same way, where they came nearer
than their logistic curves and Three Peaks' map. Classic Bridge, on 6,000 games, takes Three Peaks'
map: cross-checked, its own logistic curve and its map share by share both stated more than 5 points
above the share won in a tenth, and Three Peaks' map, never fitted on those games, came within 4.3.
Easy Bridge's map comes from its 300 games, too few for 21 shares: its knots lie on the logistic
curve of the share's logit that best fits those games (two numbers), which, fitted on one seed's
games and checked on the other's, came nearer the chances won than Three Peaks' map. On Three Peaks
the options have maps of their own (:data:`OPTION_CALIBRATION`); on the other tables a variant uses
its table's map."""


OPTION_CALIBRATION: dict[tuple[Rules, str], tuple[float, ...]] = {
    # bench/fair_hint.py --rules R --options X --players played --seed 4 5 6 7 --games 300
    # --cross --fit (the empty discard seeds 4 and 5, the joker under Classic 4 to 6, the empty
    # discard and open peaks under Easy 4 to 8)
    (Rules.EASY, "J"): (  # 1,200 games, logistic
        0.001, 0.097, 0.183, 0.261, 0.332, 0.398, 0.458, 0.514, 0.566, 0.615, 0.66,
        0.703, 0.743, 0.781, 0.817, 0.851, 0.883, 0.914, 0.944, 0.972, 1.0,
    ),
    (Rules.EASY, "O"): (  # 1,200 games, logistic
        0.003, 0.18, 0.302, 0.397, 0.474, 0.539, 0.595, 0.644, 0.687, 0.725, 0.76,
        0.791, 0.82, 0.847, 0.872, 0.895, 0.917, 0.938, 0.959, 0.978, 1.0,
    ),
    (Rules.EASY, "DJ"): (  # 1,200 games, logistic
        0.0, 0.068, 0.14, 0.212, 0.281, 0.348, 0.412, 0.473, 0.53, 0.585, 0.636,
        0.685, 0.73, 0.773, 0.814, 0.851, 0.886, 0.919, 0.949, 0.977, 1.0,
    ),
    (Rules.EASY, "DO"): (  # 1,500 games (seeds 4 to 8), share by share
        0.017, 0.327, 0.397, 0.464, 0.522, 0.522, 0.566, 0.595, 0.602, 0.65, 0.701,
        0.764, 0.809, 0.834, 0.868, 0.899, 0.932, 0.948, 0.964, 0.985, 1.0,
    ),
    (Rules.EASY, "JO"): (  # 1,200 games, share by share
        0.022, 0.195, 0.288, 0.315, 0.413, 0.454, 0.563, 0.6, 0.705, 0.733, 0.738,
        0.778, 0.813, 0.844, 0.9, 0.911, 0.94, 0.957, 0.971, 0.988, 1.0,
    ),
    (Rules.CLASSIC, "D"): (  # 600 games, logistic
        0.002, 0.105, 0.185, 0.253, 0.315, 0.372, 0.425, 0.474, 0.521, 0.566, 0.608,
        0.649, 0.689, 0.728, 0.765, 0.803, 0.839, 0.876, 0.914, 0.953, 0.999,
    ),
    (Rules.CLASSIC, "J"): (  # 900 games, share by share
        0.003, 0.082, 0.166, 0.278, 0.337, 0.416, 0.489, 0.522, 0.548, 0.603, 0.631,
        0.684, 0.714, 0.746, 0.769, 0.816, 0.851, 0.903, 0.918, 0.922, 0.998,
    ),
    (Rules.CLASSIC, "O"): (  # 1,200 games, share by share
        0.024, 0.25, 0.307, 0.388, 0.469, 0.487, 0.564, 0.611, 0.665, 0.687, 0.719,
        0.786, 0.821, 0.821, 0.848, 0.883, 0.883, 0.91, 0.91, 0.963, 1.0,
    ),
    (Rules.CLASSIC, "DJ"): (  # 1,200 games, share by share
        0.002, 0.048, 0.172, 0.254, 0.335, 0.413, 0.497, 0.557, 0.601, 0.662, 0.697,
        0.721, 0.76, 0.793, 0.829, 0.846, 0.875, 0.885, 0.922, 0.953, 1.0,
    ),
    (Rules.CLASSIC, "DO"): (  # 1,200 games, logistic
        0.006, 0.213, 0.331, 0.417, 0.486, 0.544, 0.593, 0.636, 0.675, 0.71, 0.742,
        0.772, 0.799, 0.825, 0.85, 0.874, 0.897, 0.92, 0.944, 0.968, 0.999,
    ),
    (Rules.CLASSIC, "JO"): (  # 1,200 games, share by share
        0.018, 0.253, 0.345, 0.456, 0.55, 0.569, 0.637, 0.713, 0.724, 0.749, 0.749,
        0.844, 0.865, 0.865, 0.887, 0.916, 0.938, 0.959, 0.961, 0.988, 1.0,
    ),
    (Rules.CLASSIC, "DJO"): (  # 1,200 games, share by share
        0.016, 0.26, 0.372, 0.386, 0.509, 0.575, 0.604, 0.653, 0.716, 0.76, 0.762,
        0.801, 0.83, 0.835, 0.866, 0.908, 0.924, 0.942, 0.954, 0.964, 1.0,
    ),
}  # fmt: skip
"""On Three Peaks, by rules and the variant's options that change a move (traditional scoring left
out; in the order DJO): the map a hint's share goes through instead of Three Peaks' own. With the
joker or open peaks the followers beat the strategy's plays by more than without (Three Peaks' map
understated by up to 26 points on their games). Each option and each combination was played 600 to
1,500 games a rules and given the map that stated its games nearest: Three Peaks' map, the maps of
its options alone, or its own, logistic or share by share (each own map checked on every seed's
games through a map fitted on the other seeds'), leaving out any map that stated more than 5 points
above the share won in a tenth when another did not (docs/decisions.md). A variant without an entry
takes Three Peaks' map: the empty discard under Easy (nearest), and the three options together under
Easy, whose other maps all stated 7 to 13 points above in a tenth. On the other tables the options
take the table's map: not measured (docs/solver.md "The fair hint's honesty")."""


def option_map(rules: Rules, options: str) -> tuple[float, ...] | None:
    """The map of Three Peaks' variant with the option letters ``options`` under ``rules`` in
    :data:`OPTION_CALIBRATION` (traditional scoring, which changes no move, left out); None when it
    takes Three Peaks' map."""
    return OPTION_CALIBRATION.get((rules, options.replace("T", "")))


def calibrated(share: float, rules: Rules, layout: Layout, options: str = "") -> float:
    """The chance stated for a played hint's ``share`` under ``rules`` on ``layout`` with the
    variant's option letters ``options``: on Three Peaks through the options' map
    (:func:`option_map`) when they have one; else through the table's map in
    :data:`CALIBRATION`."""
    knots = option_map(rules, options) if layout is THREE_PEAKS else None
    if knots is None:
        knots = CALIBRATION[rules, layout.id]
    return on_knots(knots, share)


def on_knots(knots: tuple[float, ...], share: float) -> float:
    """A calibration map's chance for ``share``: ``knots`` at shares 0, 1 / (len - 1), ... 1, and
    in between the straight line between the two nearest."""
    steps = len(knots) - 1
    at = min(max(share, 0.0), 1.0) * steps
    i = min(int(at), steps - 1)
    return knots[i] + (knots[i + 1] - knots[i]) * (at - i)


def solved_samples(layout: Layout) -> int:
    """How many of a played hint's samples are solved exactly on ``layout`` (SOLVED_BY_LAYOUT,
    else SOLVED_SAMPLES)."""
    return SOLVED_BY_LAYOUT.get(layout.id, SOLVED_SAMPLES)


def tie_seed(game: Game, seed: int = 0) -> int:
    """The seed of a played hint's ties (the strategy's choice between equally liked cards): from
    the visible position and the caller's seed, as the samples' are, and not the same number."""
    return (_seed(visible_key(game), seed) ^ 0x5EED) & (1 << 64) - 1


def played_hint(
    game: Game,
    samples: int = HINT_SAMPLES,
    seed: int = 0,
    plays: int = 1,
    solved: int | None = None,
) -> PlayedHint:
    """The fair hint: among the legal moves worth playing on, the one after which the
    visible-card strategy (see :func:`win_share`) wins most often, played ``plays`` times to its
    end on each of ``samples`` consistent deals (:func:`consistent_deals`); ties to the first of
    the engine's legal moves. The moves worth playing on are those the first ``solved`` samples,
    each solved exactly (:func:`solved_hint`), still win within SCREEN of the best move's share
    (every move when ``solved`` is 0, or when none of them has a play won; ``solved`` is at most
    ``samples``, and by default the table's: :func:`solved_samples`). The exact solves only rule
    out moves that lose plans a player could have seen through; the share and the chance come from
    the strategy's plays alone, which never see a hidden card, so no plan that needs one is
    credited ("strategy fusion"). The ties of the strategy are seeded from the visible position,
    like the samples."""
    if solved is None:
        solved = solved_samples(game.layout)
    if samples < 1 or plays < 1 or solved < 0:
        raise ValueError("a played hint needs at least one sample and one play")
    solved = min(solved, samples)
    moves = tuple(game.legal_moves())
    if not moves:
        return PlayedHint(None, 0.0, 0.0, (), (), 0)
    deals = consistent_deals(game, samples, seed)
    tableaux = b"".join(bytes(card.rank for card in sample.tableau) for sample in deals)
    stocks = b"".join(bytes(card.rank for card in sample.stock) for sample in deals)
    firsts = bytes(255 if move.pos is None else move.pos for move in moves)
    ties = tie_seed(game, seed)
    wins = seam.KERNEL.rollouts(
        tableaux,
        stocks,
        game.rules,
        game.present,
        game.drawn,
        game.top_rank,
        firsts,
        plays,
        ties,
        game.layout,
    )
    candidates: list[int] = list(range(len(moves)))
    if solved and len(moves) > 1:
        exact = solved_hint(game, solved, seed, deals).wins
        worth = [i for i in candidates if exact[i] >= max(exact) - SCREEN * solved]
        if any(wins[i] for i in worth):
            candidates = worth
    best = max(candidates, key=lambda i: (wins[i], -i))
    share = wins[best] / (samples * plays)
    return PlayedHint(
        moves[best],
        calibrated(share, game.rules, game.layout, game.variant.options),
        share,
        moves,
        tuple(wins),
        samples * plays,
    )


# Difficulty grades ---------------------------------------------------------------------------


class Grade(Enum):
    """How hard a deal is for a player who follows the fair hints (issue 40): one of three bands
    of the chance its first fair hint states, or Unwinnable."""

    UNWINNABLE = "unwinnable"
    GENTLE = "gentle"
    MEDIUM = "medium"
    HARD = "hard"


GRADE_BANDS: dict[tuple[Rules, str], tuple[float, float]] = {
    # bench/grade_bands.py --deals 300 (seed 40)
    (Rules.EASY, "three_peaks"): (0.560, 0.463),
    (Rules.EASY, "four_peaks"): (0.402, 0.305),
    (Rules.EASY, "diamonds"): (0.844, 0.783),
    (Rules.EASY, "valley"): (0.337, 0.266),
    (Rules.EASY, "up_and_down"): (0.404, 0.311),
    (Rules.EASY, "theatre"): (0.883, 0.832),
    (Rules.EASY, "bridge"): (0.145, 0.103),
    (Rules.CLASSIC, "three_peaks"): (0.235, 0.167),
    (Rules.CLASSIC, "four_peaks"): (0.121, 0.075),
    (Rules.CLASSIC, "diamonds"): (0.516, 0.410),
    (Rules.CLASSIC, "valley"): (0.085, 0.054),
    (Rules.CLASSIC, "up_and_down"): (0.127, 0.088),
    (Rules.CLASSIC, "theatre"): (0.581, 0.487),
    (Rules.CLASSIC, "bridge"): (0.027, 0.015),
}
"""By rules and layout (its id): a winnable deal whose first fair hint's share (its plays won,
before the calibration map) is at least the first cut is Gentle, at least the second Medium, else
Hard. The map never decreases, so a band of shares is a band of the chances the hint states, and a
refitted map moves no grade. The cuts are the thirds of the first hints of 300 winnable deals of
each (``bench/grade_bands.py``), so each grade is about a third of the winnable deals of its table;
the variants take their table's cuts."""

PLAYS = 200
"""Plays of a deal by the visible-card strategy that :func:`win_share` counts (the journey orders
the levels of a grade by them)."""


def first_hint(code: GameCode | str) -> PlayedHint:
    """The deal's first fair hint (:func:`played_hint` from its start, as the server gives it:
    the default samples, seed 0)."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    return played_hint(Game.new(code))


def win_share(code: GameCode | str, plays: int = PLAYS, kernel: Kernel | None = None) -> float:
    """The share of ``plays`` plays of the deal the visible-card strategy wins, seeded from the
    code so that it is the same on every run, on the code's layout (``kernel``: the one the seam
    chose unless another is named). The strategy plays a fitting face-up card when there is one, preferring one whose
    removal turns a card face up, then one after which another face-up card fits (a run goes on);
    ties by the rng; else it draws. It never looks at a face-down card or the stock."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    cards = deal(code)
    ranks = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    top = WILD if cards.discard is None else cards.discard.rank
    rng = random.Random(_seed(str(code).encode(), 0))
    won = (kernel or seam.KERNEL).plays_won(ranks, stock, top, code.rules, plays, rng, code.layout)
    return won / plays


def grade(code: GameCode | str) -> Grade:
    """The deal's grade: Unwinnable from the exact solver, else the band of GRADE_BANDS its first
    fair hint's share falls in, so a grade and the hints never disagree: of two winnable deals of
    one table and rules, the harder grade's first hint never states the higher chance."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    if not solver.is_winnable(code):
        return Grade.UNWINNABLE
    gentle, medium = GRADE_BANDS[code.rules, code.layout.id]
    share = first_hint(code).share
    return Grade.GENTLE if share >= gentle else Grade.MEDIUM if share >= medium else Grade.HARD
