"""The compiled best score of tripeaks/solver/_streak.c; tripeaks.solver.streak is its only caller."""

def best(
    ranks: bytes,
    stock: bytes,
    fits: bytes,
    layout: bytes,
    present: int,
    drawn: int,
    top: int,
    streak: int,
    score: int,
    /,
) -> tuple[int, bytes, int | None, bytes | None, int, int]: ...
