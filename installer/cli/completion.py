"""Shell completion of the set's item names: `ext disable no<TAB>` -> `notify`.

click answers the shell's completion requests itself: the script
(`_EXT_COMPLETE=bash_source ext` prints it) runs ext with `_EXT_COMPLETE=bash_complete`,
and click calls these hooks (installer.cli.app wires them to the grammar's `complete`)
for an argument's values. They run only then, never on an everyday command's path.
The protocol only: the set's labels come from installer.sets.resources, and the files
`--install-completion` writes from installer.ground.completion_files.
"""

from __future__ import annotations

from pathlib import Path

import click


def item_names(ctx: click.Context, incomplete: str) -> list[str]:
    """The set's item names that start with what was typed; after a comma, the next one."""
    from installer.ground.context import Env
    from installer.sets.resources import labels_here

    explicit = ctx.find_root().params.get("set_dir")
    done, comma, last = incomplete.rpartition(",")
    already = set(done.split(",")) if comma else set()
    labels = labels_here(Env(), Path(explicit) if explicit else None)
    return [
        done + comma + label for label in labels if label.startswith(last) and label not in already
    ]


def modes(ctx: click.Context, incomplete: str) -> list[str]:
    from installer.ground.manifest import MODES

    return [m for m in MODES if m.startswith(incomplete)]


def hosts(ctx: click.Context, incomplete: str) -> list[str]:
    from installer.ground.manifest import HOST_NAMES

    return [h for h in HOST_NAMES if h.startswith(incomplete)]


def shells(ctx: click.Context, incomplete: str) -> list[str]:
    from installer.commands.env import SHELLS

    return [s for s in SHELLS if s.startswith(incomplete)]


def shell_of(environ: dict[str, str]) -> str:
    """The shell ext runs in, by $SHELL: bash, zsh or fish."""
    from installer.ground.completion_files import SHELLS
    from installer.ground.errors import UsageError

    shell = Path(environ.get("SHELL", "")).name
    if shell not in SHELLS:
        raise UsageError(
            f"cannot tell which shell to complete for: SHELL is {shell or 'not set'!r}",
            "put the line for your shell in its start-up file (see the README's Shell completion)",
        )
    return shell


def script(app: click.Command, shell: str) -> str:
    """The completion script click writes for this shell."""
    from click.shell_completion import get_completion_class

    kind = get_completion_class(shell)
    if kind is None:  # click knows bash, zsh and fish, the only shells shell_of returns
        raise LookupError(f"click has no completion for {shell}")
    return kind(app, {}, "ext", "_EXT_COMPLETE").source()
