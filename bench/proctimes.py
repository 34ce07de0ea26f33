"""CPU time of a server's processes from /proc, so a benchmark can say what one action costs each.

Read from ``/proc/<pid>/stat`` (utime + stime: every thread of the process, in clock ticks) and the
parent pid there, since this kernel has no ``/proc/<pid>/task/*/children`` and psutil is not one of
the app's dependencies. Linux only, like the benchmarks that use it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

TICK = 1 / os.sysconf("SC_CLK_TCK")
"""Seconds a clock tick: the resolution of every figure here (10 ms on Linux)."""


def stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds so far) of a process; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name in parentheses may hold spaces
    return int(fields[1]), (int(fields[11]) + int(fields[12])) * TICK


def command(pid: int) -> str:
    """The process's command line (a PostgreSQL process's title), '' once it is gone."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def tree(root: int) -> list[tuple[int, int]]:
    """(pid, parent pid) of ``root`` and all its descendants now, parents before children."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (found := stat(int(entry))) is not None:
            children.setdefault(found[0], []).append(int(entry))
    order, todo = [], [(root, 0)]
    while todo:
        pid, parent = todo.pop(0)
        order.append((pid, parent))
        todo += [(child, pid) for child in sorted(children.get(pid, []))]
    return order


@dataclass(frozen=True)
class Part:
    """One process of what is measured, and the role it plays."""

    pid: int
    role: str  # "worker", "supervisor", "solver", "postgres backend", ...


def server_parts(serve: int, workers: int) -> list[Part]:
    """``tripeaks serve``'s processes: with one worker it is the worker; with more, uvicorn's
    supervisor, whose children are the workers; the solver's processes are a worker's children."""
    found = []
    for pid, parent in tree(serve):
        if pid == serve:
            role = "worker" if workers == 1 else "supervisor"
        elif "resource_tracker" in command(pid):
            role = "resource tracker"
        elif workers > 1 and parent == serve:
            role = "worker"
        else:
            role = "solver"
        found.append(Part(pid, role))
    return found


def postgres_parts(postmaster: int) -> list[Part]:
    """A PostgreSQL server's processes: backends (one a connection) and its background ones."""
    found = []
    for pid, _parent in tree(postmaster):
        title = command(pid)
        if pid == postmaster:
            role = "postgres postmaster"
        elif "[local]" in title or "(" in title:  # "postgres: user db [local] idle", or host(port)
            role = "postgres backend"
        elif "walwriter" in title:
            role = "postgres walwriter"
        else:
            role = "postgres background"
        found.append(Part(pid, role))
    return found


def sample(parts: Iterable[Part]) -> dict[Part, float]:
    """CPU seconds so far of each part still alive."""
    seen = {}
    for part in parts:
        found = stat(part.pid)
        if found is not None:
            seen[part] = found[1]
    return seen


def spent(before: dict[Part, float], after: dict[Part, float]) -> dict[Part, float]:
    """CPU seconds each part used between the samples; one born in between counts from its start."""
    return {part: cpu - before.get(part, 0.0) for part, cpu in after.items()}
