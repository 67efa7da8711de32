"""settings.json: read, seed, register, filters, retired/renamed keys, and the one locked write.

Pure functions (seeds, packages, keys) take and return plain dicts; store.update_settings is
the only writer, under pi's own lock protocol (lock.py).
"""

from __future__ import annotations

from installer.settings.diff import render_diff
from installer.settings.keys import find_renamed, find_retired, migrate, remove_retired
from installer.settings.lock import inspect_lock, lock_path, settings_lock
from installer.settings.packages import (
    PackageChange,
    SetPackage,
    exclusion,
    find_entries,
    register,
    set_exclusions,
    unregister,
)
from installer.settings.seeds import apply_seeds
from installer.settings.store import (
    SettingsDoc,
    SettingsUpdate,
    compose,
    preview_of,
    preview_update,
    read_settings,
    restore_text,
    update_settings,
)

__all__ = [
    "PackageChange",
    "SetPackage",
    "SettingsDoc",
    "SettingsUpdate",
    "apply_seeds",
    "compose",
    "exclusion",
    "find_entries",
    "find_renamed",
    "find_retired",
    "inspect_lock",
    "lock_path",
    "migrate",
    "preview_of",
    "preview_update",
    "read_settings",
    "register",
    "remove_retired",
    "render_diff",
    "restore_text",
    "set_exclusions",
    "settings_lock",
    "unregister",
    "update_settings",
]
