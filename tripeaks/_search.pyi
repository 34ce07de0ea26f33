"""The compiled search of tripeaks/_search.c; tripeaks.solver is its only caller."""

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
