#!/usr/bin/env python3
"""The container image's HEALTHCHECK: healthy while ``GET /readyz`` answers 200, that is while the
server answers and its database did within 2 s (docs/deploy.md, "Health and metrics")."""

import os
import sys
import urllib.request

WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "[::1]", "[::]": "[::1]"}


def main() -> int:
    host = os.environ.get("TRIPEAKS_HOST", "").strip()
    host = WILDCARDS.get(host, f"[{host}]" if ":" in host and "[" not in host else host)
    port = os.environ.get("TRIPEAKS_PORT", "").strip() or "8000"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/readyz", timeout=5) as reply:
            return 0 if reply.status == 200 else 1
    except OSError as error:  # refused, timed out, or an HTTP error such as 503 not_ready
        print(f"tripeaks: not ready: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
