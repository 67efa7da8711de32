"""`ext consent check|approve|revoke|list`: the hook commands a project would run, and the
user's approval of them. The work is in installer/consent/; these are its verbs."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class ConsentCheck(NamedTuple):
    """`ext consent check`'s options, as installer.cli.grammar names them."""

    project: Path | None = None


class ConsentApprove(NamedTuple):
    """`ext consent approve`'s options, as installer.cli.grammar names them."""

    project: Path | None = None
    yes: bool = False
    dry_run: bool = False
    expect: str | None = None


class ConsentRevoke(NamedTuple):
    """`ext consent revoke`'s options, as installer.cli.grammar names them."""

    project: Path | None = None
    yes: bool = False


class ConsentList(NamedTuple):
    """`ext consent list` takes no options."""
