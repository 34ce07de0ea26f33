"""What every ``tripeaks`` subcommand's ``--help`` ends with: examples to copy."""

from __future__ import annotations

import argparse
from typing import Any


def examples(*lines: str) -> dict[str, Any]:
    """``add_parser`` keywords: an epilog of example command lines, kept as written."""
    return {
        "epilog": "examples:\n" + "\n".join(f"  {line}" for line in lines),
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
