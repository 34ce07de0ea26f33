"""The JSON shapes of docs/api.md as pydantic models, so /openapi.json describes the real API."""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, StrictBool, StrictInt

from tripeaks.engine.cards import Suit
from tripeaks.engine.game import ActionKind, Place, Reason, Slot, Status
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import OPTION_NAMES, Scoring
from tripeaks.solver.explain import Grade

# The wire's words ------------------------------------------------------------------------------
# Each enum of the engine that a reply or a request carries is a Literal here, and this is the one
# place that says which word stands for which member: a table when the member's value is not the
# word (Rules, Scoring, Suit, the option letters), else the member's value, which is the word.
# Checked at import (_same_words), so a member added to the engine and not to the wire fails here.

Lang = Literal["en", "fi", "ca"]
RulesName = Literal["easy", "classic"]
SuitName = Literal["clubs", "diamonds", "hearts", "spades", "joker"]
ScoringName = Literal["ours", "traditional"]
OptionName = Literal["traditional", "open_peaks", "empty_discard", "joker"]
SlotName = Literal["face_down", "face_up", "removed"]
StatusName = Literal["playing", "won", "stuck", "left"]
EndName = Literal["won", "stuck", "left"]
KindName = Literal["play", "draw", "undo"]
"""A Turn's action: a redo is the play or draw it applied again (``LastOut.redo``)."""
ScorePartName = Literal["start", "plays", "runs", "draws", "peaks", "floor"]
PlaceName = Literal["tableau", "stock", "discard"]
GradeName = Literal["gentle", "medium", "hard", "unwinnable"]
DifficultyName = Literal["any", "gentle", "medium", "hard"]
HintKindName = Literal["fair", "perfect"]
LayoutName = Literal[
    "three_peaks", "four_peaks", "diamonds", "valley", "up_and_down", "theatre", "bridge"
]
"""A layout's id (tripeaks/engine/layouts.py; GET /api/layouts lists them with their names)."""

RULES: dict[Rules, RulesName] = {Rules.EASY: "easy", Rules.CLASSIC: "classic"}
RULES_OF: dict[RulesName, Rules] = {name: rules for rules, name in RULES.items()}
SCORING: dict[Scoring, ScoringName] = {Scoring.OURS: "ours", Scoring.TRADITIONAL: "traditional"}
SCORING_OF: dict[ScoringName, Scoring] = {name: scoring for scoring, name in SCORING.items()}
SUIT: dict[Suit, SuitName] = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
    Suit.JOKER: "joker",
}
OPTION: dict[str, OptionName] = {
    "D": "empty_discard",
    "J": "joker",
    "O": "open_peaks",
    "T": "traditional",
}
"""Each option letter's word (the engine's OPTION_NAMES, which the catalogs' ``option.`` use)."""
ENDED: dict[Status, EndName] = {Status.WON: "won", Status.STUCK: "stuck", Status.LEFT: "left"}
"""How a finished game ended (a review is only of one)."""
GRADE: dict[str, GradeName] = {grade.value: grade.value for grade in Grade}
"""A deal's grade as the solver's worker hands it over (explain.Grade's value)."""
OutcomeName = Literal["won", "lost"]
OUTCOME: dict[str, OutcomeName] = {"won": "won", "lost": "lost"}
"""A counted game's outcome as the store keeps it."""
SCORE_PART: dict[str, ScorePartName] = {name: name for name in get_args(ScorePartName)}
"""A part of the score as the engine names it (Game.score_parts)."""
REASON: dict[Reason, str] = {reason: reason.name.lower() for reason in Reason}
"""The reason of each refusal of the engine, as an Error and the store say it."""


def _same_words(words: Any, said: Any) -> None:
    assert set(get_args(words)) == set(said), (get_args(words), said)


def _values(kind: type[Enum]) -> list[Any]:
    return [member.value for member in kind]


_same_words(RulesName, RULES.values())
_same_words(ScoringName, SCORING.values())
_same_words(SuitName, SUIT.values())
_same_words(OptionName, OPTION.values())
_same_words(LayoutName, BY_ID)
LAYOUT: dict[str, LayoutName] = {name: name for name in get_args(LayoutName)}
"""A layout's id as the wire's word (the same word: checked above against the engine's layouts)."""
MIN_TABLE, MAX_TABLE = 20, 35
"""The fewest and the most cards a layout's table has (issue 38: 20 to 35, so the stock keeps 16)."""
assert all(MIN_TABLE <= layout.size <= MAX_TABLE for layout in BY_ID.values())
assert OPTION == OPTION_NAMES
_same_words(SlotName, _values(Slot))
_same_words(StatusName, _values(Status))
KIND: dict[ActionKind, KindName] = {
    ActionKind.PLAY: "play",
    ActionKind.DRAW: "draw",
    ActionKind.UNDO: "undo",
}
"""A Turn's action as the reply says it; never a redo (its Turn is the play or draw it applied)."""
_same_words(KindName, KIND.values())
assert set(KIND) | {ActionKind.REDO} == set(ActionKind)
assert all(kind.value == name for kind, name in KIND.items())
_same_words(PlaceName, _values(Place))
_same_words(GradeName, GRADE.values())
assert set(RULES) == set(Rules) and set(SCORING) == set(Scoring) and set(SUIT) == set(Suit)

REQUEST_ID_MAX = 128


class CardOut(BaseModel):
    rank: int = Field(ge=0, le=13)
    """1-13; 0 for the joker (its suit "joker")."""
    suit: SuitName
    label: str
    name: str


class VariantOut(BaseModel):
    """How the game is scored and which variants it has (docs/rules.md "Scoring and variants")."""

    scoring: ScoringName
    open_peaks: bool
    empty_discard: bool
    joker: bool


class SlotOut(BaseModel):
    pos: int = Field(ge=0, lt=MAX_TABLE)
    slot: SlotName
    card: CardOut | None
    """Only when face up."""


class LastOut(BaseModel):
    """The engine's Turn of the action just applied: the page animates and announces it as is."""

    kind: KindName
    undone: Literal["play", "draw"] | None = None
    """For an undo: the kind of action taken back."""
    card: CardOut
    source: PlaceName = Field(serialization_alias="from")
    target: PlaceName = Field(serialization_alias="to")
    pos: int | None
    """The tableau position the card left (play) or went back to (undone play)."""
    revealed: list[int]
    """Positions this action turned face up."""
    covered: list[int]
    """Positions turned face down again by undoing a play."""
    peak: int | None
    """The peak (0-2) a play emptied, or an undo refilled."""
    score_before: int
    score_after: int
    streak: int
    status: StatusName
    announcement: str
    peak_points: int = 0
    """What the peak this play emptied earned (an undo that refilled it: what it took back)."""
    redo: bool = False
    """The play or draw was a redo (POST …/redo): the newest undone action applied again."""


class ScorePartOut(BaseModel):
    """One part of the score (Game.score_parts): ``count`` of them made ``points``; the parts
    add up to the score."""

    part: ScorePartName
    count: int = Field(ge=0)
    points: int


class ResultOut(BaseModel):
    winnable: bool
    best_score: int | None
    """The deal's best final score from its start: of a win under our scoring (null when it cannot
    be won), of any ending under the traditional scoring."""
    best_reached: bool | None = None
    """This game ended with the deal's best score; null when that is not known or, under our
    scoring, the game was not won."""
    grade: GradeName | None = None
    """The deal's difficulty (docs/solver.md "Grades"); it never changes."""


GoalKindName = Literal["draws_at_most", "run_at_least", "no_undo", "group_first", "score_at_least"]
"""A level's goal (journey/goals.py GoalKind's values)."""
NextStarName = Literal["draws_at_most", "score_at_least"]
"""What a won level's next star needs (journey/stars.next_star; never "win" once won)."""


class GoalOut(BaseModel):
    """A level's goal beyond clearing the table (docs/journey.md "Goals")."""

    kind: GoalKindName
    n: int | None = None
    """Draws, cards, a group's index (0 the layout's first) or points; null for no_undo."""


class LevelOut(BaseModel):
    """The journey level a game is of (docs/api.md "The journey")."""

    number: int = Field(ge=1)
    goal: GoalOut | None
    best_score: int
    """The best score a win of the deal allows, under the level's scoring (proven)."""
    fewest_draws: int = Field(ge=0)
    stars_before: int = Field(ge=0, le=3)
    """The player's best stars on the level when this game was read."""


class NextStarOut(BaseModel):
    kind: NextStarName
    n: int


class LevelResultOut(BaseModel):
    """A won level game judged from its stored actions alone."""

    stars: int = Field(ge=1, le=3)
    score: int
    best_score: int
    goal_met: bool | None
    """Null for a level without a goal."""
    next: NextStarOut | None
    """What one more star needs; null at three."""
    best_stars: int = Field(ge=0, le=3)
    """The player's best on the level, this game included."""
    next_level: int | None
    """The level this win opens (null after the last)."""


class UnlockedOut(BaseModel):
    id: str
    """An achievement's id (GET /api/achievements lists them)."""


class GameState(BaseModel):
    """What the player may see of a game, never more."""

    id: str | None
    code: str | None
    """None while the game is a daily whose code is still secret (``daily`` names its day)."""
    rules: RulesName
    variant: VariantOut
    layout: LayoutName
    """The game's table (GET /api/layouts has its places): ``tableau`` has a slot per card of it."""
    version: int = Field(ge=0)
    status: StatusName
    score: int
    """Never below zero, under either scoring."""
    moves: int = Field(ge=0)
    can_undo: bool
    can_redo: bool
    """An undone action can be applied again (POST …/redo); false in a ranked daily."""
    can_hint: bool
    """Hints and the review are answered: false for every daily game while its day is open
    (daily.refusal), whatever its state."""
    can_draw: bool
    playable: list[int]
    """Positions whose card can be played now (empty once the game is over)."""
    blocked: list[int] = []
    """Positions face up but still covered (open peaks alone): shown, not yet playable."""
    streak: int = Field(ge=0)
    """Removals in a row since the last draw."""
    longest_streak: int = Field(ge=0)
    leaving_counts_as_loss: bool
    """Starting another game now would count this one as lost."""
    stock_size: int = Field(ge=0)
    stock_label: str
    discard: CardOut | None
    """None while an empty-discard game's discard is still empty."""
    tableau: list[SlotOut] = Field(min_length=MIN_TABLE, max_length=MAX_TABLE)
    description: str
    last: LastOut | None = None
    score_parts: list[ScorePartOut]
    """The score as its parts, from the actions that stand; they add up to ``score``."""
    result: ResultOut | None = None
    daily: str | None = None
    """The UTC day (ISO date) of a daily game; None for any other game."""
    ranked: bool | None = None
    """A daily game: whether it is the player's ranked attempt (no hints, no undo)."""
    level: LevelOut | None = None
    """The journey level the game is of; null for every other game."""
    level_result: LevelResultOut | None = None
    """A won level game's stars and goal, judged from its stored actions; null until won."""
    unlocked: list[UnlockedOut] = []
    """The achievements the action of this reply unlocked (only on that reply and its retry)."""


class ScoringOut(BaseModel):
    event: Literal["remove", "draw", "peak"]
    points: int


class TraditionalOut(BaseModel):
    """The traditional scoring's numbers: the n-th card of a streak scores n."""

    start: int
    draw: int
    peaks: list[int]
    """What the first, second and third peak emptied earn, in that order."""
    best: int


class RulesOut(BaseModel):
    """The numbers of the game the page shows in its help (docs/rules.md §3 and §4)."""

    start: int
    scoring: list[ScoringOut]
    undo_limit: int
    traditional: TraditionalOut
    offered: list[OptionName] = []
    """The options a new game may ask for (the New game window shows only these)."""


class ErrorDetail(BaseModel):
    reason: str
    message: str = Field(min_length=1)


class ErrorOut(BaseModel):
    error: ErrorDetail
    state: GameState | None = None


class NewGameIn(BaseModel):
    rules: RulesName = "easy"
    code: str | None = Field(default=None, max_length=64)
    """A typed code carries its own rules and options: the fields below then play no part."""
    winnable_only: StrictBool = False
    scoring: ScoringName = "ours"
    open_peaks: StrictBool = False
    empty_discard: StrictBool = False
    joker: StrictBool = False
    difficulty: DifficultyName = "any"
    """A grade other than any deals a random deal of that grade (so a winnable one)."""
    layout: LayoutName = "three_peaks"
    """The table a random deal is dealt on (a typed code names its own)."""


class PlayIn(BaseModel):
    pos: StrictInt
    version: StrictInt
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX)


class ActionIn(BaseModel):
    version: StrictInt
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX)


class CodeOut(BaseModel):
    """A typed code as the server reads it: checked before anything else is asked of the player."""

    code: str
    rules: RulesName
    variant: VariantOut


class HintAction(BaseModel):
    kind: Literal["play", "draw"]
    pos: int | None = None


class HintOut(BaseModel):
    winnable: bool | None
    """The exact verdict from here: perfect hints only (a fair one would tell what is hidden)."""
    action: HintAction | None
    message: str
    kind: HintKindName = "perfect"
    chance: float | None = Field(default=None, ge=0, le=1)
    """Fair hints: the share of the samples still winnable after the move."""
    samples: int | None = None
    """Fair hints: how many deals consistent with what is seen were weighed."""


class MoveOut(BaseModel):
    kind: Literal["play", "draw"]
    pos: int | None = None


class LostAtOut(BaseModel):
    index: int = Field(ge=0)
    """Moves of the line made before the last position from which a win existed."""
    move: MoveOut | None
    """The move made there; null when the line ends there (left while still winnable)."""
    moves: int = Field(ge=0)
    """Moves of the game's line of play (its log without what was undone)."""


class DrawsOut(BaseModel):
    used: int = Field(ge=0)
    fewest: int = Field(ge=0)


class ReplayOut(BaseModel):
    start: int = Field(ge=0)
    """The index in the game's line of play of steps[0]."""
    steps: list[GameState]
    """steps[0] the position there, each later one the state after one move of a winning line."""


class ReviewOut(BaseModel):
    """A finished game explained (docs/api.md "Explaining")."""

    status: EndName
    grade: GradeName | None
    winnable: bool
    lost_at: LostAtOut | None
    draws: DrawsOut | None
    most_removed: int | None
    message: str
    replay: ReplayOut | None


class PositionOut(BaseModel):
    pos: int
    row: int = Field(ge=1, le=4)
    index: int
    peak: int = Field(ge=0, le=2)
    covered_by: list[int]
    x: float
    y: float


class LayoutOut(BaseModel):
    positions: list[PositionOut]


class PlaceOut(BaseModel):
    """A card's place on a layout (GET /api/layouts): as PositionOut, with its bonus group."""

    pos: int = Field(ge=0)
    row: int = Field(ge=1)
    index: int = Field(ge=0)
    group: int = Field(ge=0)
    covered_by: list[int]
    x: float
    y: float


class LayoutInfoOut(BaseModel):
    """One table (docs/rules.md "Layouts"): its id, the word its codes carry, its name, its cards."""

    id: str
    word: str
    """The layout's word in a game code (``TP1-VALLEY-E-AAAAAAB``; none is written for Three Peaks)."""
    name: str
    cards: int = Field(ge=1)
    stock: int = Field(ge=0)
    """The stock's cards at the start of a standard game (51 less the table)."""
    groups: int = Field(ge=1)
    offered: bool
    """Whether this version plays it at every door (the others are refused: `options_not_offered`)."""
    places: list[PlaceOut]


class LayoutsOut(BaseModel):
    layouts: list[LayoutInfoOut]


class CatalogOut(BaseModel):
    lang: Lang
    messages: dict[str, str | list[str]]
    plural: str


class GradeStatsOut(BaseModel):
    played: int = 0
    won: int = 0


class ByGradeOut(BaseModel):
    """Judged games counted with their deal's grade, by grade (older games are in none)."""

    gentle: GradeStatsOut = GradeStatsOut()
    medium: GradeStatsOut = GradeStatsOut()
    hard: GradeStatsOut = GradeStatsOut()
    unwinnable: GradeStatsOut = GradeStatsOut()


class StatsOut(BaseModel):
    played: int
    won: int
    win_rate: float = Field(ge=0, le=1)
    current_streak: int
    best_streak: int
    best_score: int | None
    average_winning_score: float | None
    longest_card_streak: int | None
    """The longest run of removals in one counted game; null before any."""
    winnable_played: int = 0
    """Judged games (counted since the solver's verdict is kept) whose deal could be won: the M
    of "won N of the M deals that could be won"."""
    winnable_won: int = 0
    """N: judged games won."""
    best_share: float | None = None
    """The share of the deal's best score reached on average over those M games (0-1)."""
    won_with_hints: int = 0
    won_without_hints: int = 0
    won_with_perfect_hints: int = 0
    won_with_fair_hints: int = 0
    by_grade: ByGradeOut = Field(default_factory=lambda: ByGradeOut())


class RecentOut(BaseModel):
    code: str | None
    """Null for a deal of the day whose day is not over (``daily`` names it)."""
    daily: str | None = None
    """The day of a deal of the day (YYYY-MM-DD); null for any other game."""
    rules: RulesName
    outcome: OutcomeName
    score: int
    finished_at: str
    """ISO 8601, UTC."""


class VariantStatsOut(BaseModel):
    """The statistics of one kind of game with options or on another table than Three Peaks: each
    layout, scoring and variant is kept apart."""

    layout: LayoutName = "three_peaks"
    rules: RulesName
    variant: VariantOut
    stats: StatsOut


class StatsPage(BaseModel):
    easy: StatsOut
    classic: StatsOut
    """The standard games (no option) under each rules."""
    variants: list[VariantStatsOut] = []
    """Every other kind the player has counted games of, by its key (rules, then options)."""
    recent: list[RecentOut]
