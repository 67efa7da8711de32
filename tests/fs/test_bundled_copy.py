"""The bundled set of a wheel install is copied out of the prefix to a stable folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.context import Env, bundled_set
from installer.ground.errors import UsageError
from tests.helpers import build_tree

SET = {"extset.toml": '[set]\nname = "b"\n', "extensions/a.ts": "// a"}


def _prefix(tmp_path: Path, files: dict[str, str | bytes | Path | None]) -> Path:
    prefix = tmp_path / "venv"
    build_tree(prefix / "share" / "extset" / "bundled", files)
    return prefix


def test_a_checkout_is_used_in_place(tmp_path: Path) -> None:
    checkout = build_tree(tmp_path / "repo", dict(SET))
    assert bundled_set(Env(), checkout=checkout, prefix=tmp_path / "none") == checkout


def test_a_wheel_install_gets_a_stable_copy_that_follows_upgrades(tmp_path: Path) -> None:
    not_a_checkout = tmp_path / "site-packages"
    not_a_checkout.mkdir()
    prefix = _prefix(tmp_path, dict(SET))
    stable = bundled_set(Env(), checkout=not_a_checkout, prefix=prefix)
    assert not stable.is_relative_to(prefix)
    assert (stable / "extensions" / "a.ts").read_text() == "// a"
    mtime = (stable / "extensions" / "a.ts").stat().st_mtime_ns

    assert bundled_set(Env(), checkout=not_a_checkout, prefix=prefix) == stable
    assert (stable / "extensions" / "a.ts").stat().st_mtime_ns == mtime  # not copied again

    upgraded = _prefix(tmp_path / "v2", {**SET, "extensions/b.ts": "// b"})
    assert bundled_set(Env(), checkout=not_a_checkout, prefix=upgraded) == stable
    assert (stable / "extensions" / "b.ts").read_text() == "// b"

    removed = _prefix(tmp_path / "v3", {"extset.toml": SET["extset.toml"], "extensions/b.ts": "x"})
    bundled_set(Env(), checkout=not_a_checkout, prefix=removed)
    assert not (stable / "extensions" / "a.ts").exists()
    assert sorted(p.name for p in stable.parent.iterdir()) == ["bundled"]  # no temp left


def test_no_bundled_set_says_how_to_name_one(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no set found") as caught:
        bundled_set(Env(), checkout=tmp_path, prefix=tmp_path)
    assert caught.value.fix and "--set" in caught.value.fix
