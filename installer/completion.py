"""Shell completion of the set's item names: `ext disable no<TAB>` -> `notify`.

typer answers the shell's completion requests itself, by click's protocol: the script
(`_EXT_COMPLETE=source_bash ext` prints it; `ext --install-completion` installs it for the
shell ext runs in) runs ext with `_EXT_COMPLETE=complete_bash`, and typer calls these hooks
for an argument's values. They run only then, never on an everyday command's path.
"""

from __future__ import annotations

from pathlib import Path

import typer


def item_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The set's item names that start with what was typed; after a comma, the next one."""
    done, comma, last = incomplete.rpartition(",")
    already = set(done.split(",")) if comma else set()
    labels = [label for label in _labels(ctx) if label.startswith(last) and label not in already]
    return [done + comma + label for label in labels]


def _labels(ctx: typer.Context) -> list[str]:
    """Every item of the set ext would use here (`--set`, EXT_SET, the cwd, the bundled set)."""
    from installer.context import Env, find_set
    from installer.errors import ExtError
    from installer.resources import discover

    explicit = ctx.find_root().params.get("set_dir")
    try:
        root, _ = find_set(Env(), Path(explicit) if explicit else None)
        return sorted({r.label for r in discover(root)})
    except (ExtError, OSError):  # no set here: nothing to offer, and nothing to print
        return []


def modes(incomplete: str) -> list[str]:
    from installer.manifest import MODES

    return [m for m in MODES if m.startswith(incomplete)]


def shells(incomplete: str) -> list[str]:
    from installer.commands.env import SHELLS

    return [s for s in SHELLS if s.startswith(incomplete)]
