"""Who a client is, by its address: what every per-client count of the web counts by.

The rate limits (http/ratelimit.py), the connection shares (http/wire.py), the daily's ranked
attempts per network (api/daily.py) and the solver's queue shares (backend/solving.py) all ask
:func:`network`; it sits below all of them, so none imports another for it.
"""

from __future__ import annotations

from ipaddress import IPv6Address, ip_address


def network(address: str | None, loopback: bool = False) -> str | None:
    """What one client is: its IPv4 address, or its IPv6 /64 (one home gets a whole /64).

    None, so not limited by address, for loopback unless ``loopback``: on a player's own machine
    that is the player. A hosted server limits it like any other address (``Hosting.hosted``):
    there it is a process on the server's machine, or a reverse proxy that was not declared with
    ``--behind-proxy``, and either would otherwise pass every limit.
    """
    if not address:
        return None
    try:
        parsed = ip_address(address)
    except ValueError:
        return address
    if not loopback and (
        parsed.is_loopback
        or (
            isinstance(parsed, IPv6Address)
            and parsed.ipv4_mapped is not None
            and parsed.ipv4_mapped.is_loopback
        )
    ):
        return None
    if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is None:
        return f"{IPv6Address(int(parsed) >> 64 << 64)}/64"
    return str(parsed.ipv4_mapped if isinstance(parsed, IPv6Address) else parsed)
