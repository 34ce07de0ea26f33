"""The compiled plays of tripeaks/solver/_strategy.c; tripeaks.solver.explain is its only caller."""

def plays_won(
    ranks: bytes,
    stock: bytes,
    top: int,
    fits: bytes,
    covered_by: bytes,
    covers: bytes,
    plays: int,
    state: tuple[int, ...],
    /,
) -> int: ...
def rollouts(
    tableaux: bytes,
    stocks: bytes,
    fits: bytes,
    covered_by: bytes,
    covers: bytes,
    present: int,
    drawn: int,
    top: int,
    plays: int,
    seed: int,
    firsts: bytes,
    /,
) -> list[int]: ...
