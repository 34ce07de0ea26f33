"""A game code typed on the command line, read once for every command: refused input is one line on
stderr and exit status 1 (README.md "The command line"), not argparse's usage error."""

from __future__ import annotations

from tripeaks.engine.codes import GameCode, InvalidCode, NotOffered, offer, offered


class Refused(Exception):
    """Input a command refuses (a malformed code, an option or a layout this version does not
    offer), with the one line that says why. Not a ValueError: argparse lets it through its type
    conversion instead of turning it into a usage error, and ``tripeaks``' main says it."""


def game_code(text: str) -> GameCode:
    """A code the app offers: its layout and every option (codes.offered)."""
    return _read(text, any_layout=False)


def engine_code(text: str) -> GameCode:
    """A code for the commands the engine alone answers (deal, describe): on any layout
    (docs/deal-format.md "Layouts"), its options offered."""
    return _read(text, any_layout=True)


def _read(text: str, any_layout: bool) -> GameCode:
    try:
        code = GameCode.parse(text)
        if any_layout:
            offer(code.variant, code)
            return code
        return offered(code)
    except InvalidCode as error:
        raise Refused(str(error)) from None
    except NotOffered as refusal:  # an option or a layout this version does not offer (codes)
        from tripeaks import i18n

        raise Refused(i18n.refusal(refusal, i18n.system_language())) from None
