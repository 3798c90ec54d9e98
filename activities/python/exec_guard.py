"""In-process access check for untrusted candidate code (the second line of defence).

The first line is the operating system: activities/execution/sandbox.ts runs candidate code
under bubblewrap, where references, labels, scores and other conditions' runs are simply not
mounted. This module adds a *check*, not a sandbox (EvalPlus's lesson: in-process guards can
be bypassed): a `sys.addaudithook` hook that refuses and records every attempt to open or list
a path under one of the forbidden prefixes (the study's state folders, given as outside paths
in the environment variable LOCKIN_FORBIDDEN). It lets the execution record say
"forbidden-access" instead of a bare FileNotFoundError, and it is the enforcement of record
when bubblewrap is not available (isolation "unshare-net+checked" / "checked-only").
"""
from __future__ import annotations

import json
import os
import sys

#: Audit events whose first argument is a path the candidate wants to read or list.
_PATH_EVENTS = {"open", "os.listdir", "os.scandir", "glob.glob", "os.chdir", "shutil.copyfile", "shutil.copytree"}

_forbidden: list[str] = []
_allowed: list[str] = []
_attempts: list[str] = []
_active = False


def _norm(p: str) -> str:
    """Absolute, normalised path with a trailing separator (prefix matching on whole segments)."""
    return os.path.normpath(os.path.abspath(p)).rstrip(os.sep) + os.sep


def is_forbidden(path: str) -> bool:
    """True when `path` (absolute or relative to the cwd, symlinks resolved) lies under a
    forbidden prefix and not under a longer allowed one."""
    cands = {_norm(path)}
    try:
        cands.add(_norm(os.path.realpath(path)))
    except (OSError, ValueError):
        pass
    for c in cands:
        bad = max((len(f) for f in _forbidden if c.startswith(f)), default=-1)
        if bad < 0:
            continue
        good = max((len(a) for a in _allowed if c.startswith(a)), default=-1)
        if good < bad:
            return True
    return False


def _hook(event: str, args: tuple) -> None:
    if not _active or event not in _PATH_EVENTS or not args:
        return
    target = args[0]
    if isinstance(target, bytes):
        target = target.decode("utf-8", "replace")
    if not isinstance(target, str):
        return  # file descriptors and None
    if is_forbidden(target):
        _attempts.append(os.path.abspath(target))
        raise PermissionError(f"lockin sandbox: reading {target} is forbidden for candidate code")


def install(forbidden: list[str] | None = None, allowed: list[str] | None = None) -> None:
    """Installs the audit hook (once per process; audit hooks cannot be removed).

    Inputs: outside path prefixes to refuse (default: JSON list in LOCKIN_FORBIDDEN) and
    prefixes that stay readable even under a forbidden one (default: LOCKIN_ALLOWED).
    The hook is inactive until `activate()`.
    """
    global _forbidden, _allowed
    if forbidden is None:
        forbidden = json.loads(os.environ.get("LOCKIN_FORBIDDEN", "[]"))
    if allowed is None:
        allowed = json.loads(os.environ.get("LOCKIN_ALLOWED", "[]"))
    _forbidden = [_norm(p) for p in forbidden if p]
    _allowed = [_norm(p) for p in allowed if p]
    sys.addaudithook(_hook)


def activate() -> None:
    """Starts refusing forbidden paths (called just before candidate code runs)."""
    global _active
    _active = True


def attempts() -> list[str]:
    """The forbidden paths the candidate tried to open, in order (duplicates removed)."""
    return list(dict.fromkeys(_attempts))


def mentions_forbidden(text: str) -> str | None:
    """Returns the first forbidden prefix named in `text` (e.g. a Spark PATH_NOT_FOUND message
    for a reference file read through the JVM, which the audit hook cannot see), else None.
    Occurrences that continue into an allowed prefix (the database, the candidate) do not count."""
    for f in _forbidden:
        bare = f.rstrip(os.sep)
        start = text.find(bare) if bare else -1
        while start >= 0:
            rest = text[start:] + os.sep
            if not any(len(a) > len(f) and rest.startswith(a) for a in _allowed):
                return bare
            start = text.find(bare, start + 1)
    return None
