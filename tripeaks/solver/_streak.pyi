"""The compiled best score of tripeaks/_streak.c; tripeaks.streak is its only caller."""

def best(
    ranks: bytes,
    stock: bytes,
    fits: bytes,
    layout: bytes,
    present: int,
    drawn: int,
    top: int,
    streak: int,
    /,
) -> tuple[int, bytes, int | None, bytes | None, int, int]: ...
