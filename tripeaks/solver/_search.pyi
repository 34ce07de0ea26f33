"""The compiled search of tripeaks/solver/_search.c; tripeaks.solver.search is its only caller."""

def solve(
    ranks: bytes,
    stock: bytes,
    fits: bytes,
    lying_under: bytes,
    under: bytes,
    no_bridge: bytes,
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
    lying_under: bytes,
    under: bytes,
    no_bridge: bytes,
    wraps: bool,
    present: int,
    drawn: int,
    top: int,
    cap: int,
    /,
) -> tuple[bool, bool]: ...

VECTOR: int

def prepare(
    ranks: bytes, stock: bytes, fits: bytes, lying_under: bytes, portable: bool = False, /
) -> bytes: ...
def winnable_from(prepared: bytes, present: int, drawn: int, top: int, /) -> bool: ...
def hint_from(prepared: bytes, present: int, drawn: int, top: int, /) -> int: ...
def best_from(
    prepared: bytes, present: int, drawn: int, top: int, /
) -> tuple[bytes | None, int]: ...
def deal(number: int, /) -> bytes: ...
def decide_deal(
    number: int,
    fits: bytes,
    lying_under: bytes,
    under: bytes,
    no_bridge: bytes,
    wraps: bool,
    cap: int,
    options: int = 0,
    /,
) -> tuple[bool, bool, int]: ...
def survey(
    numbers: bytes,
    fits: bytes,
    lying_under: bytes,
    under: bytes,
    no_bridge: bytes,
    wraps: bool,
    cap: int,
    fewest_draws: bool,
    options: int = 0,
    /,
) -> bytes: ...
