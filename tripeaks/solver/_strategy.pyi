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
