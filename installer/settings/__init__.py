"""settings.json: read, seed, register, filters, retired/renamed keys, and the one locked write.

Pure functions (seeds, packages, keys) take and return plain dicts; store.update_settings is
the only writer, under pi's own lock protocol (lock.py).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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

# Each name is imported from its module when first asked for: a no-op install reads
# settings.json and needs neither the lock's inspection, the diff nor the seeds.
_FROM = {
    "PackageChange": "packages",
    "SetPackage": "packages",
    "SettingsDoc": "store",
    "SettingsUpdate": "store",
    "apply_seeds": "seeds",
    "compose": "store",
    "exclusion": "packages",
    "find_entries": "packages",
    "find_renamed": "keys",
    "find_retired": "keys",
    "inspect_lock": "lock",
    "lock_path": "lock",
    "migrate": "keys",
    "preview_of": "store",
    "preview_update": "store",
    "read_settings": "store",
    "register": "packages",
    "remove_retired": "keys",
    "render_diff": "diff",
    "restore_text": "store",
    "set_exclusions": "packages",
    "settings_lock": "lock",
    "unregister": "packages",
    "update_settings": "store",
}


def __getattr__(name: str) -> Any:
    from importlib import import_module

    module = _FROM.get(name)
    if module is None:  # a submodule (`from installer.settings import jsondoc`) is imported
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"installer.settings.{module}"), name)
    globals()[name] = value
    return value


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
