"""The global options of one run: read once from argv, then passed down, never changed."""

from __future__ import annotations

from pathlib import Path

from installer.ground.records import NamedTuple


class Globals(NamedTuple):
    """`--set`, `--agent-dir`, `--host`, `--json`, `--quiet`, `--no-color`, `--debug`."""

    set_dir: Path | None = None
    agent_dir: Path | None = None
    host: str | None = None  # --host; EXT_HOST and pi are the context's to read
    json: bool = False
    quiet: bool = False
    no_color: bool = False
    debug: bool = False
