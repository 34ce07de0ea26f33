"""The one-time code that carries a player's progress to another browser (docs/api.md "Carrying
progress to another browser").

A code is 60 random bits written as 12 characters of Crockford's base32 (no I, L, O or U, so none
is misread), shown in three groups of four: ``7K3M-Q9TB-2XWD``. A code typed back is read
case-insensitively with dashes and spaces ignored, and the letters people mistake for digits taken
as those digits (O as 0, I and L as 1). The store keeps only a keyed hash of a code (HMAC-SHA256
under the server's own key, in the settings table), so that its rows give no code away. Pure.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: 5 bits a character."""
BITS = 60
LENGTH = BITS // 5
GROUP = 4
SECONDS = 600
"""How long a code may be redeemed: ten minutes, time to open the other browser and type it."""
KEPT = 24 * 3600
"""Seconds a code is kept after it expired (redeeming it says "expired"); then it is forgotten."""
SETTING = "transfer_key"
"""The hash key's name in the settings table (hex)."""
_READ = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_key() -> str:
    """A key for the settings table: 32 random bytes, in hex."""
    return secrets.token_hex(32)


def new_code() -> str:
    """A fresh code, as the store's hash and the reader read it (12 characters, no dashes)."""
    number = secrets.randbits(BITS)
    return "".join(ALPHABET[number >> (5 * k) & 31] for k in reversed(range(LENGTH)))


def shown(code: str) -> str:
    """The code as a player reads it: ``XXXX-XXXX-XXXX``."""
    return "-".join(code[k : k + GROUP] for k in range(0, len(code), GROUP))


def read(text: str) -> str | None:
    """A typed code as :func:`new_code` wrote it, or None when it is not a code's shape."""
    cleaned = "".join(text.split()).replace("-", "").upper().translate(_READ)
    if len(cleaned) != LENGTH or any(c not in ALPHABET for c in cleaned):
        return None
    return cleaned


def digest(key: bytes, code: str) -> str:
    """What the store keeps of a code: its HMAC-SHA256 under the server's key, in hex."""
    return hmac.new(key, f"transfer:{code}".encode(), hashlib.sha256).hexdigest()


__all__ = ["KEPT", "SECONDS", "SETTING", "digest", "new_code", "new_key", "read", "shown"]
