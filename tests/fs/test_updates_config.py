"""Where the update checks ask: ext's config file, pip's, npm's; comments survive a write."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.errors import ExtError
from installer.updates.config import (
    index_json_url,
    load_config,
    pip_config_files,
    registry_json_url,
    strip_simple,
    write_user_option,
)
from installer.updates.paths import passive_checks_enabled, user_config_path
from tests.helpers import build_tree

IDX = "http://127.0.0.1:9"  # loopback, never contacted here
PKG = "@mariozechner/pi-coding-agent"


def load(
    tmp_path: Path, env: dict[str, str] | None = None, pip: tuple[Path, ...] = ()
) -> tuple[str | None, str | None]:
    config = load_config(
        env or {},
        config_path=tmp_path / "config.toml",
        pip_files=pip,
        npmrc=tmp_path / "npmrc",
    )
    return config.index, config.index_source


@pytest.mark.parametrize(
    ("url", "base"),
    [
        (f"{IDX}/simple", IDX),
        (f"{IDX}/simple/", IDX),
        (f"{IDX}/", IDX),
        (f"{IDX}/root/dev/simple/", f"{IDX}/root/dev"),
        (f"  {IDX}/simple  ", IDX),
    ],
)
def test_simple_suffix_is_stripped(url: str, base: str) -> None:
    assert strip_simple(url) == base
    assert index_json_url(url) == f"{base}/pypi/extset/json"


def test_scoped_package_is_escaped_as_npm_does() -> None:
    assert registry_json_url(f"{IDX}/", PKG) == f"{IDX}/@mariozechner%2fpi-coding-agent"
    assert registry_json_url(IDX, "left-pad") == f"{IDX}/left-pad"


def test_nothing_configured(tmp_path: Path) -> None:
    assert load(tmp_path) == (None, None)
    config = load_config(
        {}, config_path=tmp_path / "c.toml", pip_files=(), npmrc=tmp_path / "npmrc"
    )
    assert (config.registry, config.check) == (None, True)


def test_index_precedence(tmp_path: Path) -> None:
    pip_conf = build_tree(tmp_path, {"pip.conf": f"[global]\nindex-url = {IDX}/pipconf/simple\n"})
    pip = (pip_conf / "pip.conf",)
    assert load(tmp_path, pip=pip) == (f"{IDX}/pipconf", str(pip[0]))
    env = {"PIP_INDEX_URL": f"{IDX}/pipenv/simple/"}
    assert load(tmp_path, env, pip) == (f"{IDX}/pipenv", "PIP_INDEX_URL")
    (tmp_path / "config.toml").write_text(f'[updates]\nindex = "{IDX}/mine"\n')
    assert load(tmp_path, env, pip) == (f"{IDX}/mine", "config.toml [updates] index")
    env["EXT_INDEX_URL"] = f"{IDX}/ext"
    assert load(tmp_path, env, pip) == (f"{IDX}/ext", "EXT_INDEX_URL")


def test_later_pip_files_win_and_install_section_overrides_global(tmp_path: Path) -> None:
    build_tree(
        tmp_path,
        {
            "etc/pip.conf": f"[global]\nindex-url = {IDX}/etc\n",
            "user/pip.conf": (
                f"[global]\nindex_url = {IDX}/user\n[install]\nindex-url = {IDX}/inst\n"
            ),
            "empty/pip.conf": "[global]\ntimeout = 5\n",
        },
    )
    files = tuple(tmp_path / d / "pip.conf" for d in ("etc", "user", "empty"))
    assert load(tmp_path, pip=files)[0] == f"{IDX}/inst"


def test_pip_config_file_locations(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"XDG_CONFIG_HOME": str(home / ".config"), "XDG_CONFIG_DIRS": "/etc/xdg"}
    files = pip_config_files(env, home, system=(tmp_path / "etc",), prefix=tmp_path / "venv")
    assert files[:2] == (Path("/etc/xdg/pip/pip.conf"), tmp_path / "etc" / "pip.conf")
    assert home / ".pip" / "pip.conf" in files
    assert home / ".config" / "pip" / "pip.conf" in files
    assert files[-1] == tmp_path / "venv" / "pip.conf"


def test_pip_config_file_env_replaces_user_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    chosen = build_tree(tmp_path, {"chosen.conf": "[global]\n"}) / "chosen.conf"
    files = pip_config_files({"PIP_CONFIG_FILE": str(chosen)}, home, system=())
    assert files[-1] == chosen
    assert home / ".pip" / "pip.conf" not in files


def test_user_pip_conf_is_found_by_default(tmp_path: Path, isolated_home: Path) -> None:
    build_tree(isolated_home, {".config/pip/pip.conf": f"[global]\nindex-url = {IDX}/u/simple\n"})
    env = {"HOME": str(isolated_home), "XDG_CONFIG_HOME": str(isolated_home / ".config")}
    config = load_config(env, config_path=tmp_path / "none.toml", npmrc=tmp_path / "npmrc")
    assert config.index == f"{IDX}/u"


def test_registry_precedence(tmp_path: Path) -> None:
    npmrc = tmp_path / "npmrc"
    npmrc.write_text(f"; comment\nregistry = {IDX}/rc/\n@other:registry={IDX}/other\n")

    def registry(env: dict[str, str]) -> tuple[str | None, str | None]:
        config = load_config(
            env, config_path=tmp_path / "c.toml", pip_files=(), npmrc=npmrc, package=PKG
        )
        return config.registry, config.registry_source

    assert registry({}) == (f"{IDX}/rc", str(npmrc))
    assert registry({"npm_config_registry": f"{IDX}/env"}) == (f"{IDX}/env", "npm_config_registry")
    both = {"npm_config_registry": f"{IDX}/env", "EXT_NPM_REGISTRY": f"{IDX}/ext"}
    assert registry(both) == (f"{IDX}/ext", "EXT_NPM_REGISTRY")


def test_scope_registry_in_npmrc_wins_for_that_scope(tmp_path: Path) -> None:
    npmrc = tmp_path / "npmrc"
    npmrc.write_text(f"registry={IDX}/all\n@mariozechner:registry={IDX}/scoped\n")
    config = load_config(
        {}, config_path=tmp_path / "c.toml", pip_files=(), npmrc=npmrc, package=PKG
    )
    assert config.registry == f"{IDX}/scoped"


def test_home_npmrc_is_read_by_default(tmp_path: Path, isolated_home: Path) -> None:
    (isolated_home / ".npmrc").write_text(f"registry={IDX}/home\n")
    config = load_config(
        {"HOME": str(isolated_home)}, config_path=tmp_path / "c.toml", pip_files=()
    )
    assert config.registry == f"{IDX}/home"


def test_check_false_disables_passive(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert passive_checks_enabled(path)
    path.write_text("[updates]\ncheck = false\n")
    assert not passive_checks_enabled(path)
    assert not load_config({}, config_path=path, pip_files=(), npmrc=tmp_path / "x").check
    path.write_text("[updates\nbroken")
    assert passive_checks_enabled(path)


def test_user_config_path_is_under_isolated_xdg(isolated_home: Path) -> None:
    assert user_config_path() == isolated_home / ".config" / "extset" / "config.toml"


def test_write_keeps_comments(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "config.toml"
    path.parent.mkdir()
    path.write_text('# my settings\n[updates]\n# where I get ext\nindex = "old"  # inline\n')
    write_user_option("index", f"{IDX}/new", path)
    write_user_option("check", False, path)
    text = path.read_text()
    assert "# my settings" in text and "# where I get ext" in text
    assert f'index = "{IDX}/new"' in text and "check = false" in text
    assert not passive_checks_enabled(path)
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]  # no temp file left


def test_write_creates_file_and_table(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "config.toml"
    write_user_option("index", IDX, path)
    assert load_config({}, config_path=path, pip_files=(), npmrc=tmp_path / "x").index == IDX


def test_write_refuses_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[updates\n")
    with pytest.raises(ExtError) as err:
        write_user_option("check", False, path)
    assert err.value.fix
    assert path.read_text() == "[updates\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[updates]\nindex = 5\n", "[updates] index in {path} is not a string (an index URL)"),
        ('[updates]\ncheck = "no"\n', "[updates] check in {path} is not true or false"),
        ("[updates\nindex = 'x'\n", "{path} is not valid TOML ("),
        ("updates = 3\n", "{path}: [updates] is not a table"),
    ],
)
def test_a_setting_ext_cannot_use_is_said_not_passed_over(
    tmp_path: Path, text: str, said: str
) -> None:
    """A trial (helper-40): `[updates] index = 5` fell back to pip's index, and a config file
    that was not TOML was read as empty, with no word either time."""
    path = tmp_path / "config.toml"
    path.write_text(text)

    config = load_config({}, config_path=path, pip_files=(), npmrc=tmp_path / "npmrc")

    [warning] = config.warnings
    assert warning.startswith(said.format(path=path))
    assert config.index is None
