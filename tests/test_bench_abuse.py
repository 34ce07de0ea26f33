"""bench/abuse.py end to end, briefly: its three attacks against this checkout's real server, and
what a bystander got. No timing is asserted, only who was answered."""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import abuse


@pytest.mark.slow
def test_a_short_run_measures_all_three_and_the_bystander_is_served(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(flood=2.0, hold=5.0, hints=4.0, before=None, limit=[])
    # in a thread of its own: the bench runs its own event loop, and a browser test's sync
    # Playwright may have left one running in this worker's main thread
    with ThreadPoolExecutor(1) as pool:
        figures = pool.submit(abuse.measure, abuse.ROOT, args).result()
    assert len(figures.rss) >= 2 and all(web > 0 for _, web, _ in figures.rss)
    assert figures.sent["preview 200"] > 0
    assert figures.sent["board 404"] > 0 and "board 200" not in figures.sent
    assert figures.held_asked > 0 and figures.held_answered == figures.held_asked
    assert figures.hint_statuses and set(figures.hint_statuses) == {200}
    assert figures.flood_hints[503] > 0  # the flood met its share
    abuse.report({"this checkout": figures}, args)
    assert "bystander's fair hints answered" in capsys.readouterr().out
