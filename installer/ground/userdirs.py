"""ext's own folders for data, config, cache and state: platformdirs' user paths for "extset".

On Linux the XDG rule platformdirs follows is written out here: an absolute `$XDG_*_HOME`,
else the folder under an absolute `$HOME`; anything else is platformdirs' to answer. Its
import (with the tempfile it loads) costs ~7 ms, on commands that run many times a day.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Kind = Literal["data", "config", "cache", "state"]

_XDG: dict[str, tuple[str, str]] = {
    "data": ("XDG_DATA_HOME", ".local/share"),
    "config": ("XDG_CONFIG_HOME", ".config"),
    "cache": ("XDG_CACHE_HOME", ".cache"),
    "state": ("XDG_STATE_HOME", ".local/state"),
}


def user_dir(kind: Kind) -> Path:
    """`<user data|config|cache|state dir>/extset`, as platformdirs gives it."""
    if sys.platform == "linux":
        variable, under_home = _XDG[kind]
        xdg, home = os.environ.get(variable, ""), os.environ.get("HOME", "")
        if os.path.isabs(xdg):
            return Path(xdg, "extset")
        if os.path.isabs(home):
            return Path(home, under_home, "extset")
    import platformdirs

    found = {
        "data": platformdirs.user_data_path,
        "config": platformdirs.user_config_path,
        "cache": platformdirs.user_cache_path,
        "state": platformdirs.user_state_path,
    }[kind]
    return Path(found("extset"))


def config_file() -> Path:
    """ext's own config file, `<user config dir>/extset/config.toml`: `[updates]` and
    `[journal]`. Here, not in installer.updates: the journal reads it after each run."""
    return user_dir("config") / "config.toml"
