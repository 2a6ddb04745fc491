"""Processes as /proc shows them, for the tests that stop runs and servers (Linux only)."""

from __future__ import annotations

import os


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state, ppid, pgrp, ...), or None."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pids: list[int]) -> list[int]:
    """The processes of ``pids`` still running (zombies waiting to be reaped are gone)."""
    return [pid for pid in pids if (f := _stat(pid)) is not None and f[0] not in ("Z", "X")]


def group(pgid: int) -> list[int]:
    """Processes of a process group."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit()
            and (f := _stat(name)) is not None and int(f[2]) == pgid]


def children(pid: int) -> list[int]:
    """The living children of ``pid``."""
    return alive([int(name) for name in os.listdir("/proc") if name.isdigit()
                  and (f := _stat(name)) is not None and int(f[1]) == pid])
