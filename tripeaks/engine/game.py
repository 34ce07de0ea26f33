"""The game as a state machine: play, draw, undo, redo, score, moves, streak, won, stuck and left.

Every rule of the app is decided here (docs/rules.md); the web app, the store and the solver only
call it. A game is its deal plus its action log, so replaying the log rebuilds it exactly. Every
action answers with a :class:`Turn` that says all it did, so nobody outside works it out again.
The engine has no words: a refusal carries a reason code, and :mod:`tripeaks.i18n` says it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from tripeaks.engine import score as scoring
from tripeaks.engine.cards import JOKER_RANK, Card, Suit
from tripeaks.engine.codes import Deal, GameCode, deal
from tripeaks.engine.layout import THREE_PEAKS, Layout, tables
from tripeaks.engine.layout import Slot as Slot  # where it has always been imported from
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant

UNDO_LIMIT = 100
"""How many of the most recent actions can be taken back."""
ACTION_LIMIT = 5_000
"""The longest a game's log may grow (plays, draws and undos together; a redo is logged as the play
or draw it is). A real game ends far below it; an endless draw/undo loop would otherwise grow it,
and every replay and hint with it, without bound."""
NEAR_THE_END_LEFT = 8
NEAR_THE_END_STOCK = 4
"""A game is near its end once at most this many cards are left on the tableau (Three Peaks: 20 of
its 28 removed) or fewer than this many in the stock."""


class Reason(Enum):
    """Why an action was refused; the value is its reason code, as the API sends it. The words for
    it are ``error.<code>`` in the catalogs: :func:`tripeaks.i18n.refusal` says them."""

    LOCKED = "locked"
    NOT_ADJACENT = "not_adjacent"
    REMOVED = "removed"
    STOCK_EMPTY = "stock_empty"
    NOTHING_TO_UNDO = "nothing_to_undo"
    NOTHING_TO_REDO = "nothing_to_redo"
    GAME_OVER = "game_over"
    NO_SUCH_POSITION = "no_such_position"
    TOO_LONG = "too_long"


class IllegalMove(ValueError):
    """An action the rules refuse; the game is left exactly as it was. ``reason`` says why; the
    engine has no words, :func:`tripeaks.i18n.refusal` gives them in the player's language."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.value)
        self.reason = reason


class ActionKind(Enum):
    PLAY = "play"
    DRAW = "draw"
    UNDO = "undo"
    REDO = "redo"
    """An intent, never a step of the log: it applies the newest undone action again, and the log
    records that play or draw (:meth:`Game.apply`)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a game's log: ``play 12``, ``draw`` or ``undo``; or ``redo``, the intent to
    apply the newest undone action again, which the log records as that play or draw."""

    kind: ActionKind
    pos: int | None = None

    @classmethod
    def play(cls, pos: int) -> Action:
        return cls(ActionKind.PLAY, pos)

    @classmethod
    def parse(cls, text: str) -> Action:
        words = text.split()
        if words == ["draw"]:
            return DRAW
        if words == ["undo"]:
            return UNDO
        if words == ["redo"]:
            return REDO
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return cls.play(int(words[1]))
        raise ValueError(f"not an action: {text!r} (use 'play N', 'draw', 'undo' or 'redo')")

    def __str__(self) -> str:
        return self.kind.value if self.pos is None else f"{self.kind.value} {self.pos}"


DRAW = Action(ActionKind.DRAW)
UNDO = Action(ActionKind.UNDO)
REDO = Action(ActionKind.REDO)


class Status(Enum):
    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"
    LEFT = "left"
    """The player started another game instead: this one is over and refuses every action."""


class Place(Enum):
    """Where a card can move from or to."""

    TABLEAU = "tableau"
    STOCK = "stock"
    DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class Turn:
    """Everything one action did: the page animates it and the live region says it from this alone.

    For an undo, ``undone`` is the action taken back and the card moves the way back: from the
    discard to its tableau position (``covered`` then lists the cards it turns face down again, and
    ``peak`` the peak it refills) or to the top of the stock. A redo's Turn is the Turn of the play
    or draw it applied again (``action`` is that play or draw), with ``redone`` set.
    """

    action: Action
    undone: Action | None
    card: Card
    source: Place
    target: Place
    pos: int | None
    """The tableau position the card left or went back to; None for the stock."""
    revealed: tuple[int, ...]
    """Positions turned face up by this action."""
    covered: tuple[int, ...]
    """Positions turned face down again (an undone play)."""
    peak: int | None
    """The peak this play emptied, or the peak this undo refilled."""
    score_before: int
    score_after: int
    streak: int
    """Removals in a row since the last draw, after this action."""
    status: Status
    peak_points: int = 0
    """What the peak this play emptied earned (the page shows it rising from the peak), or what
    the undo that refilled it took back; 0 when no peak was emptied or refilled."""
    redone: bool = False
    """The action was asked for as a redo (``Action.parse("redo")``): the newest undone action."""


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One part of a game's score (:meth:`Game.score_parts`): ``count`` of them made ``points``."""

    part: str
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class _Done:
    """What undo needs to take an action back."""

    action: Action
    score_before: int
    streak_before: int
    longest_before: int
    runs_before: int


class Game:
    """One game of TriPeaks from its deal on its layout (Three Peaks unless said); positions are
    the layout's flat indexes (Three Peaks' 0-27 of docs/rules.md §1)."""

    def __init__(
        self,
        cards: Deal,
        rules: Rules | Variant,
        code: GameCode | None = None,
        layout: Layout = THREE_PEAKS,
    ) -> None:
        variant = Variant(rules) if isinstance(rules, Rules) else rules
        if len(cards.tableau) != layout.size:
            raise ValueError(
                f"a tableau of {layout.id} has {layout.size} cards, not {len(cards.tableau)}"
            )
        every = [*cards.tableau, *([cards.discard] if cards.discard else []), *cards.stock]
        if len(set(every)) != len(every):
            raise ValueError("a deal cannot hold the same card twice")
        if (cards.discard is None) != variant.empty_discard:
            raise ValueError("a deal's discard is empty exactly when the game says so")
        if any(c.is_joker for c in cards.tableau) or (cards.discard and cards.discard.is_joker):
            raise ValueError("the joker starts in the stock")
        if any(c.is_joker for c in cards.stock) != variant.joker:
            raise ValueError("a deal's stock holds the joker exactly when the game has one")
        self.deal = cards
        self.variant = variant
        """The rules, scoring and variants this game is played with: the engine asks only this."""
        self.code = code
        self.layout = layout
        """The table this game is played on: every rule about positions reads it."""
        self._t = tables(layout)
        self.present = layout.all_mask
        """Bit p is set while the card at position p is on the tableau."""
        self.drawn = 0
        """How many stock cards have been turned onto the discard."""
        self.discard: list[Card] = [] if cards.discard is None else [cards.discard]
        self.score = (
            scoring.TRADITIONAL_START if variant.scoring is Scoring.TRADITIONAL else scoring.START
        )
        self.moves = 0
        self.streak = 0
        """Removals in a row since the last draw (undo puts it back as it was)."""
        self.longest_streak = 0
        """The longest streak of this game's line of play (undo takes back what it added)."""
        self.left = False
        """Set by :meth:`leave`; a left game refuses every action."""
        self.runs = 0
        """The traditional scoring's points of the cards played that stand: each card's place in
        its streak, summed (a part of the score, :meth:`score_parts`; undo takes it back)."""
        self._done: deque[_Done] = deque(maxlen=UNDO_LIMIT)
        self._redo: list[Action] = []
        """The undone actions a redo applies again, the newest undone last: each undo adds the
        action it took back, the same play or draw (a redo) takes it off, any other clears it. It
        follows from the log alone, so a replay rebuilds it; it never holds more than UNDO_LIMIT
        (with the undo history, at most UNDO_LIMIT actions)."""
        self._log: list[Action] = []
        self.action_limit = ACTION_LIMIT
        """ACTION_LIMIT, or more for a game replayed from a longer log an older version let grow."""

    # Construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, code: GameCode | str, layout: Layout | None = None) -> Game:
        """The game of a code, on the code's layout unless ``layout`` says another."""
        if isinstance(code, str):
            code = GameCode.parse(code)
        layout = layout or code.layout
        return cls(deal(code, layout), code.variant, code, layout)

    @classmethod
    def from_deal(
        cls,
        *,
        tableau: Sequence[Card],
        discard: Card | None,
        stock: Sequence[Card],
        rules: Rules | Variant = Rules.EASY,
        layout: Layout = THREE_PEAKS,
    ) -> Game:
        """A game of any explicit deal (no code), such as the original help's example."""
        return cls(Deal(tuple(tableau), discard, tuple(stock)), rules, layout=layout)

    @classmethod
    def replay(
        cls, code: GameCode | str, actions: Iterable[Action | str], layout: Layout | None = None
    ) -> Game:
        """Rebuild a game from its code and its action log; an illegal step raises IllegalMove."""
        game = cls.new(code, layout)
        steps = list(actions)
        game.action_limit = max(ACTION_LIMIT, len(steps))
        for action in steps:
            game.apply(action)
        return game

    def copy(self) -> Game:
        """An independent game in the same state, undo history and log included (for look-ahead,
        and for the store's snapshots: the deal was checked when this game was made)."""
        twin = Game.__new__(Game)
        twin.deal, twin.variant, twin.code = self.deal, self.variant, self.code
        twin.layout, twin._t = self.layout, self._t
        twin.present, twin.drawn, twin.discard = self.present, self.drawn, list(self.discard)
        twin.score, twin.moves = self.score, self.moves
        twin.streak, twin.longest_streak, twin.left = self.streak, self.longest_streak, self.left
        twin.runs = self.runs
        twin._done = self._done.copy()
        twin._redo = list(self._redo)
        twin._log = list(self._log)
        twin.action_limit = self.action_limit
        return twin

    # What the player sees -----------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.variant.rules

    @property
    def top(self) -> Card | None:
        """The discard's top card, or None while an empty-discard game's discard is still empty."""
        return self.discard[-1] if self.discard else None

    @property
    def top_rank(self) -> int:
        """The discard's rank as a position is known by (the solver's key): 0, the joker's rank,
        when anything goes on it, an empty discard or a joker alike."""
        return self.discard[-1].rank if self.discard else JOKER_RANK

    @property
    def discard_top(self) -> Card:
        """The discard's top card, for callers that know only the standard game (its discard is
        never empty); :attr:`top` also answers for an empty discard."""
        if not self.discard:
            raise ValueError("the discard is empty")
        return self.discard[-1]

    def fits(self, card: Card) -> bool:
        """Can ``card`` go on the discard now? Anything goes on an empty discard and on a joker."""
        top = self.top
        return top is None or top.is_joker or self.rules.fits(card.rank, top.rank)

    @property
    def stock_size(self) -> int:
        return len(self.deal.stock) - self.drawn

    @property
    def actions(self) -> tuple[Action, ...]:
        """The whole log, undo included: with the code it rebuilds this game, redo history
        included. It holds plays, draws and undos only (a redo is logged as what it applied)."""
        return tuple(self._log)

    def score_parts(self) -> tuple[ScorePart, ...]:
        """The score as its parts, from the actions that stand (undone ones are not counted):
        they always add up to :attr:`score`.

        Our scoring: ``start`` (1, 500), ``plays`` (n, −n), ``draws`` (m, −m), ``peaks`` (k, 100k).
        The traditional: ``start`` (1, 0), ``runs`` (cards played, the sum of each card's place in
        its streak), ``draws`` (m, −5m), ``peaks`` (k, the bonuses they earned). Then ``floor``
        (0, what the floor at 0 gave back) when that is not 0. Every figure is of the player's own
        visible actions: nothing hidden is told."""
        played = self._t.size - self.present.bit_count()
        peaks = self._t.groups_empty(self.present)
        if self.variant.scoring is Scoring.TRADITIONAL:
            parts = [
                ScorePart("start", 1, scoring.TRADITIONAL_START),
                ScorePart("runs", played, self.runs),
                ScorePart("draws", self.drawn, scoring.TRADITIONAL_DRAW * self.drawn),
                ScorePart("peaks", peaks, sum(self._t.bonuses[:peaks])),
            ]
        else:
            parts = [
                ScorePart("start", 1, scoring.START),
                ScorePart("plays", played, scoring.MOVE * played),
                ScorePart("draws", self.drawn, scoring.MOVE * self.drawn),
                ScorePart("peaks", peaks, scoring.PEAK_BONUS * peaks),
            ]
        floor = self.score - sum(part.points for part in parts)
        if floor:
            parts.append(ScorePart("floor", 0, floor))
        return tuple(parts)

    def card_at(self, pos: int) -> Card | None:
        """The card at ``pos``, or None once it has been removed."""
        self._check_position(pos)
        return self.deal.tableau[pos] if self.present >> pos & 1 else None

    def is_free(self, pos: int) -> bool:
        """On the tableau with none of its covering cards left."""
        return bool(self.present >> pos & 1) and not self.present & self._t.covered_by_mask[pos]

    def is_face_up(self, pos: int) -> bool:
        """A card turns face up when its last covering card goes, so face up means free; with open
        peaks every card left is face up."""
        self._check_position(pos)
        if self.variant.open_peaks:
            return bool(self.present >> pos & 1)
        return self.is_free(pos)

    def slot(self, pos: int) -> Slot:
        if self.card_at(pos) is None:
            return Slot.REMOVED
        return Slot.FACE_UP if self.is_face_up(pos) else Slot.FACE_DOWN

    def slots(self) -> list[Slot]:
        """Every position's slot, in position order (the page draws all of them at each reply)."""
        return list(self._t.slots_of(self.present, self.variant.open_peaks))

    def free_positions(self) -> list[int]:
        return list(self._t.free_of(self.present))

    def playable_positions(self) -> list[int]:
        """Free cards that fit the discard (all of them on an empty discard or a joker)."""
        free = self._t.free_of(self.present)
        top = self.discard[-1] if self.discard else None
        if top is None or top.suit is Suit.JOKER:
            return list(free)
        fits, rank, tableau = self.rules.fits, top.rank, self.deal.tableau
        return [p for p in free if fits(tableau[p].rank, rank)]

    def legal_moves(self) -> Iterator[Action]:
        if self.is_over:
            return
        for pos in self.playable_positions():
            yield Action.play(pos)
        if self.stock_size:
            yield DRAW

    @property
    def is_won(self) -> bool:
        return not self.present

    @property
    def is_over(self) -> bool:
        """Won or left: no action is accepted any more (a stuck game can still be undone)."""
        return self.left or not self.present

    @property
    def is_stuck(self) -> bool:
        return not self.is_over and not self.stock_size and not self.playable_positions()

    @property
    def status(self) -> Status:
        if self.is_won:
            return Status.WON
        if self.left:
            return Status.LEFT
        return Status.STUCK if self.is_stuck else Status.PLAYING

    @property
    def can_undo(self) -> bool:
        return bool(self._done) and not self.is_over

    @property
    def can_redo(self) -> bool:
        """An undone action can be applied again (none once the game is over)."""
        return bool(self._redo) and not self.is_over

    @property
    def can_draw(self) -> bool:
        return bool(self.stock_size) and not self.is_over

    @property
    def leaving_counts_as_loss(self) -> bool:
        """Leaving now for another game would count this one as lost: it is unfinished and touched.

        A game left without a single move does not count at all; a won or left one already counted.
        """
        return not self.is_over and self.moves > 0

    @property
    def near_the_end(self) -> bool:
        """Close enough to its end that the deal's verdict is worth preparing now."""
        left = self.present.bit_count()
        return left <= NEAR_THE_END_LEFT or self.stock_size < NEAR_THE_END_STOCK

    def leave(self) -> None:
        """The player starts another game instead; from now on every action is refused.

        Leaving is not an action of the log: the store records it beside the game. A won game is
        over already and stays won.
        """
        self.left = True

    # Actions ------------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Turn:
        """Apply any action and say everything it did; an illegal one raises IllegalMove.

        The one way to act: :meth:`play`, :meth:`draw`, :meth:`undo` and :meth:`redo` are
        shorthands over it. A redo applies the newest undone action as that very play or draw
        (its Turn says ``redone``), and the log records that play or draw."""
        if isinstance(action, str):
            action = Action.parse(action)
        if action.kind is ActionKind.PLAY:
            return self._play(action.pos)
        if action.kind is ActionKind.DRAW:
            return self._draw()
        return self._undo() if action.kind is ActionKind.UNDO else self._redo_top()

    def play(self, pos: int) -> Card:
        """Shorthand for ``apply(Action.play(pos)).card``: remove the free card at ``pos`` onto the
        discard and return it."""
        return self.apply(Action.play(pos)).card

    def draw(self) -> Card:
        """Shorthand for ``apply(DRAW).card``: turn the stock's top card onto the discard, return it."""
        return self.apply(DRAW).card

    def undo(self) -> Action:
        """Shorthand for ``apply(UNDO).undone``: take back the newest action (the move counter
        stays) and return it."""
        undone = self.apply(UNDO).undone
        assert undone is not None  # an undo's Turn always names what it took back
        return undone

    def redo(self) -> Action:
        """Shorthand for ``apply(REDO).action``: apply the newest undone action again (a move, as
        it was) and return that play or draw."""
        return self.apply(REDO).action

    def _play(self, pos: int | None) -> Turn:
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER)
        if len(self._log) >= self.action_limit:
            raise IllegalMove(Reason.TOO_LONG)
        t = self._t
        if not isinstance(pos, int) or not 0 <= pos < t.size:
            raise IllegalMove(Reason.NO_SUCH_POSITION)
        if not self.present >> pos & 1:
            raise IllegalMove(Reason.REMOVED)
        if self.present & t.covered_by_mask[pos]:
            raise IllegalMove(Reason.LOCKED)
        card = self.deal.tableau[pos]
        if not self.fits(card):
            raise IllegalMove(Reason.NOT_ADJACENT)
        before = self.score
        action = Action.play(pos)
        self._remember(action)
        self.present &= ~(1 << pos)
        self.discard.append(card)
        group = t.group_of[pos]
        emptied = not self.present & t.group_masks[group]
        peak = group if emptied else None
        self.streak += 1
        self.longest_streak = max(self.longest_streak, self.streak)
        self.runs += self.streak
        if self.variant.scoring is Scoring.TRADITIONAL:
            self.score = scoring.traditional_after_removal(
                self.score, self.streak, t.groups_empty(self.present), emptied, t.bonuses
            )
        else:
            self.score = scoring.after_removal(self.score, emptied)
        revealed = self._turned_up(pos)
        return self._turn(
            action,
            card,
            Place.TABLEAU,
            Place.DISCARD,
            pos,
            before,
            peak=peak,
            peak_points=self._peak_bonus() if emptied else 0,
            revealed=revealed,
        )

    def _draw(self) -> Turn:
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER)
        if len(self._log) >= self.action_limit:
            raise IllegalMove(Reason.TOO_LONG)
        if not self.stock_size:
            raise IllegalMove(Reason.STOCK_EMPTY)
        before = self.score
        self._remember(DRAW)
        card = self.deal.stock[self.drawn]
        self.drawn += 1
        self.discard.append(card)
        if self.variant.scoring is Scoring.TRADITIONAL:
            self.score = scoring.traditional_after_draw(self.score)
        else:
            self.score = scoring.after_draw(self.score)
        self.streak = 0
        return self._turn(DRAW, card, Place.STOCK, Place.DISCARD, None, before)

    def _undo(self) -> Turn:
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER)
        if len(self._log) >= self.action_limit:
            raise IllegalMove(Reason.TOO_LONG)
        if not self._done:
            raise IllegalMove(Reason.NOTHING_TO_UNDO)
        done = self._done.pop()
        before = self.score
        self._log.append(UNDO)
        self._redo.append(done.action)
        card = self.discard.pop()
        pos = done.action.pos
        covered: tuple[int, ...] = ()
        peak: int | None = None
        peak_points = 0
        if pos is not None:
            covered = self._turned_up(pos)
            group = self._t.group_of[pos]
            if not self.present & self._t.group_masks[group]:
                peak = group
                peak_points = self._peak_bonus()
            self.present |= 1 << pos
            target = Place.TABLEAU
        else:
            self.drawn -= 1
            target = Place.STOCK
        self.score = done.score_before
        self.streak = done.streak_before
        self.longest_streak = done.longest_before
        self.runs = done.runs_before
        return self._turn(
            UNDO,
            card,
            Place.DISCARD,
            target,
            pos,
            before,
            peak=peak,
            peak_points=peak_points,
            covered=covered,
            undone=done.action,
        )

    def _redo_top(self) -> Turn:
        """The newest undone action, applied again as the play or draw it is. It is legal: an
        undo leaves the game exactly as it was before that action, and only an undo or that very
        action leaves the redo history standing."""
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER)
        if len(self._log) >= self.action_limit:
            raise IllegalMove(Reason.TOO_LONG)
        if not self._redo:
            raise IllegalMove(Reason.NOTHING_TO_REDO)
        action = self._redo[-1]
        turn = self._draw() if action.pos is None else self._play(action.pos)
        return replace(turn, redone=True)

    def _turn(
        self,
        action: Action,
        card: Card,
        source: Place,
        target: Place,
        pos: int | None,
        score_before: int,
        *,
        peak: int | None = None,
        peak_points: int = 0,
        revealed: tuple[int, ...] = (),
        covered: tuple[int, ...] = (),
        undone: Action | None = None,
    ) -> Turn:
        return Turn(
            action=action,
            undone=undone,
            card=card,
            source=source,
            target=target,
            pos=pos,
            revealed=revealed,
            covered=covered,
            peak=peak,
            score_before=score_before,
            score_after=self.score,
            streak=self.streak,
            status=self.status,
            peak_points=peak_points,
        )

    def _peak_bonus(self) -> int:
        """What the peak emptied last earned, or the peak about to be refilled had earned: its
        place in the order of emptying is the number of peaks empty now."""
        traditional = self.variant.scoring is Scoring.TRADITIONAL
        return scoring.peak_bonus(traditional, self._t.groups_empty(self.present), self._t.bonuses)

    def _turned_up(self, pos: int) -> tuple[int, ...]:
        """The cards under ``pos`` that are face up because its card is gone: none with open
        peaks, where nothing ever turns over."""
        if self.variant.open_peaks:
            return ()
        return tuple(q for q in self._t.covers[pos] if self.is_free(q))

    def _remember(self, action: Action) -> None:
        """Keep an accepted play or draw for undo and in the log, and count it. The same action
        as the newest undone one is its redo (taken off the redo history), any other clears it."""
        if self._redo and self._redo[-1] == action:
            self._redo.pop()
        else:
            self._redo.clear()
        self._done.append(_Done(action, self.score, self.streak, self.longest_streak, self.runs))
        self._log.append(action)
        self.moves += 1

    def _check_position(self, pos: int) -> None:
        if not isinstance(pos, int) or not 0 <= pos < self._t.size:
            raise IllegalMove(Reason.NO_SUCH_POSITION)

    def __repr__(self) -> str:
        name = str(self.code) if self.code else "custom deal"
        return f"<Game {name} score={self.score} moves={self.moves} {self.status.value}>"
