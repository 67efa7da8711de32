"""Ask each host's own binary what it loads from a user's dirs: the judge of what ext says.

One module per host (claude, codex, opencode, gemini), imported only when that host is
judged. Each runs the real binary in a sandbox home (`sandbox.py`) whose folders link to the
user's, so whatever the host writes at start (sessions, caches, its own built-in skills)
lands in a temp dir, never in the user's config dir or home. Only what comes from the user's
dirs is reported: the host's built-ins are left out.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, NamedTuple, Protocol

from installer.ground.errors import ExtError

Kind = Literal["skill", "command"]
HOSTS = ("claude", "codex", "opencode", "gemini")


class Loaded(NamedTuple):
    """One skill or command a host loads, by the name the host gives it.

    `path` is where the host says it found it, in the user's dirs (a link's own path, or for
    Codex, which resolves links, the link's target); None when the host names it only."""

    kind: Kind
    name: str
    path: str | None


class Judged(NamedTuple):
    """What a host loads from the user's dirs, sorted, and what it complained of."""

    loaded: tuple[Loaded, ...]
    problems: tuple[str, ...] = ()

    def names(self, kind: Kind) -> frozenset[str]:
        """The names of the loaded items of `kind`."""
        return frozenset(item.name for item in self.loaded if item.kind == kind)


class JudgeError(ExtError):
    """The host's binary could not be asked: missing, too slow, or its answer unreadable."""


class _Judge(Protocol):
    def judge(
        self, binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]
    ) -> Judged: ...

    def version(self, binary: str, environ: Mapping[str, str]) -> str | None: ...


def judge(
    host: str, binary: str, config_dir: Path, home: Path, environ: Mapping[str, str]
) -> Judged:
    """What `host`'s `binary` loads from `config_dir` and the shared folders of `home`.

    Read-only for the user's dirs; `environ` supplies PATH (a Node for the JS hosts)."""
    return _module(host).judge(binary, config_dir, home, environ)


def version(host: str, binary: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The version `host`'s `binary` reports (`1.18.33`), or None when it does not say."""
    import os

    return _module(host).version(binary, os.environ if environ is None else environ)


def _module(host: str) -> _Judge:
    if host not in HOSTS:
        raise ExtError(f"no judge for the host {host!r}", f"use one of: {', '.join(HOSTS)}")
    module: _Judge = importlib.import_module(f"{__name__}.{host}")
    return module
