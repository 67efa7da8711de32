"""`~` in a path given to ext is read as pi reads PI_CODING_AGENT_DIR: `~` and `~/…` are the
home, and `~alice` is a folder of that name (helper-38: `--agent-dir '~nouser'` ended ext with
a traceback, and `~root` would have named root's home)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from installer.ground.home import expand_home
from tests.fs.test_cli_install import run_ext
from tests.helpers import build_tree


@given(st.text(alphabet="~/ab.", max_size=8))
def test_only_a_leading_tilde_alone_or_before_a_slash_is_the_home(text: str) -> None:
    """Node's normalizePath, pi 1.6's and 0.73's (utils/paths.js), in Python."""
    import posixpath

    home = "/home/me"
    got = str(expand_home(text, home))
    if text == "~" or text.startswith("~/"):
        # Node's path.join: one "/" between, then `.`, `..` and `//` folded (ext leaves `..`
        # to the caller, so the two agree once folded; helper-43: `~//x` was /x)
        assert posixpath.normpath(got) == posixpath.normpath(f"{home}/{text[2:]}")
        assert got.startswith(home)
    else:
        assert got == (str(Path(text)) if text else ".")


@pytest.mark.parametrize(
    ("flag", "where"),
    [
        (("--agent-dir", "~nouser/agent"), None),
        ((), ("EXT_AGENT_DIR", "~nouser/agent")),
        ((), ("PI_CODING_AGENT_DIR", "~nouser/agent")),
    ],
    ids=["--agent-dir", "EXT_AGENT_DIR", "PI_CODING_AGENT_DIR"],
)
def test_a_tilde_user_agent_dir_is_a_folder_of_that_name_here(
    tmp_path: Path, isolated_home: Path, flag: tuple[str, ...], where: tuple[str, str] | None
) -> None:
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', "prompts/p.md": "p"})
    extra = dict([where]) if where else {}

    made = run_ext(tmp_path, "--set", str(root), *flag, "install", "--yes", "--create", extra=extra)
    listed = run_ext(tmp_path, "--json", "--set", str(root), *flag, "list", extra=extra)

    assert "Traceback" not in listed.stderr + made.stderr
    assert json.loads(listed.stdout)["agent_dir"] == str(tmp_path / "~nouser/agent")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "~nouser/agent/prompts/p.md").is_symlink()


def test_a_tilde_user_set_is_a_missing_folder_not_a_traceback(
    tmp_path: Path, isolated_home: Path
) -> None:
    said = run_ext(tmp_path, "--json", "--set", "~nouser", "list")

    assert said.returncode == 2
    assert "Traceback" not in said.stderr
    assert json.loads(said.stdout)["error"].endswith("~nouser is not a folder")
