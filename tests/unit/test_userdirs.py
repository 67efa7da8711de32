"""ext's own folders are exactly platformdirs' user paths, whatever the XDG variables and HOME say.

installer.ground.userdirs writes platformdirs' Linux rule out to spare its import; this pins the two
together: a platformdirs release that changes the rule fails here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from installer.ground.userdirs import user_dir

if TYPE_CHECKING:
    from installer.ground.userdirs import Kind

PLATFORMDIRS = {
    "data": platformdirs.user_data_path,
    "config": platformdirs.user_config_path,
    "cache": platformdirs.user_cache_path,
}
VARIABLES = ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
# Absolute, relative, empty, blank and tilde forms: each takes a different branch of the rule.
VALUES = st.sampled_from(["/home/u", "/srv/x/", "relative/dir", "", " ", "~/x", "/"])
ENVIRON = st.dictionaries(st.sampled_from(VARIABLES), VALUES)


@settings(max_examples=200)
@given(environ=ENVIRON, kind=st.sampled_from(["data", "config", "cache"]))
def test_user_dir_is_platformdirs_answer(environ: dict[str, str], kind: Kind) -> None:
    with pytest.MonkeyPatch.context() as mp:
        for name in VARIABLES:
            mp.delenv(name, raising=False)
        for name, value in environ.items():
            mp.setenv(name, value)
        try:
            expected = Path(PLATFORMDIRS[kind]("extset"))
        except RuntimeError:  # platformdirs refuses a relative HOME without an XDG value
            return
        assert user_dir(kind) == expected


def test_a_plain_home_gives_the_xdg_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "/home/u")
    assert [str(user_dir(k)) for k in ("data", "config", "cache")] == [
        "/home/u/.local/share/extset",
        "/home/u/.config/extset",
        "/home/u/.cache/extset",
    ]
