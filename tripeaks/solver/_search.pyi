"""The compiled search of tripeaks/solver/_search.c; tripeaks.solver.compiled is its only caller.

``layout`` is tripeaks.solver.tables.compiled_layout's bytes (any layout of at most MAX_TABLEAU
cards); ``prepared`` is what ``prepare`` made on that layout."""

VECTOR: int
MAX_TABLEAU: int
HEADER: int

def solve(
    ranks: bytes,
    stock: bytes,
    fits: bytes,
    layout: bytes,
    wraps: bool,
    present: int,
    drawn: int,
    top: int,
    best_win: bool,
    /,
) -> tuple[bytes | None, int, int]: ...
def decide(
    ranks: bytes,
    stock: bytes,
    fits: bytes,
    layout: bytes,
    wraps: bool,
    present: int,
    drawn: int,
    top: int,
    cap: int,
    /,
) -> tuple[bool, bool]: ...
def prepare(
    ranks: bytes, stock: bytes, fits: bytes, layout: bytes, portable: bool = False, /
) -> bytes: ...
def winnable_from(
    prepared: bytes, layout: bytes, present: int, drawn: int, top: int, /
) -> bool: ...
def hint_from(prepared: bytes, layout: bytes, present: int, drawn: int, top: int, /) -> int: ...
def best_from(
    prepared: bytes, layout: bytes, present: int, drawn: int, top: int, /
) -> tuple[bytes | None, int]: ...
def deal(number: int, /) -> bytes: ...
def decide_deal(
    number: int,
    fits: bytes,
    layout: bytes,
    wraps: bool,
    cap: int,
    options: int = 0,
    /,
) -> tuple[bool, bool, int]: ...
def survey(
    numbers: bytes,
    fits: bytes,
    layout: bytes,
    wraps: bool,
    cap: int,
    fewest_draws: bool,
    options: int = 0,
    /,
) -> bytes: ...
