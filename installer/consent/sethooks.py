"""Hooks a set ships in `hooks/*.json`: installing the set is the consent for them.

The install plan lists one `approve` action per hook, and keeps the hash from
the last install to show when these files changed.
"""

from __future__ import annotations

from pathlib import Path

from installer.consent.config import HookConfig, build_config, hooks_of, read_text
from installer.consent.hooks import HookCommand, list_commands

SET_HOOKS_FOLDER = "hooks"


def set_hooks(set_root: Path) -> HookConfig:
    """The set's hook config: each `hooks/<name>.json` under that name, sorted by name."""
    folder = set_root / SET_HOOKS_FOLDER
    if not folder.is_dir():
        return build_config([])
    # Like the shell glob `hooks/*.json`: dot files are not hook files.
    files = sorted(
        path for path in folder.glob("*.json") if not path.name.startswith(".") and path.is_file()
    )
    return build_config(
        (f"{SET_HOOKS_FOLDER}/{path.name}", hooks_of(read_text(path), str(path), whole_file=True))
        for path in files
    )


def set_hook_commands(set_root: Path) -> list[HookCommand]:
    """Every hook the set ships; `source` is the file, e.g. `hooks/lint.json`."""
    return list_commands(set_hooks(set_root).config)


def set_hooks_hash(set_root: Path) -> str | None:
    """`sha256:<hex>` of the set's canonical hook config, or None when it ships none."""
    return set_hooks(set_root).sha256
