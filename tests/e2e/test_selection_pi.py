"""--only/--skip on a set already installed, in both modes, judged by the real pi's loader:
what ext says is installed is what pi loads, and the user's own switch holds throughout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import Run
from tests.e2e.test_pi_switches import SET, agree, install
from tests.helpers import build_tree

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("real_pi")]


def test_skip_takes_an_installed_item_out_in_both_modes_as_pi_loads_it(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    install(ext, agent, set_root, "--create", "--mode", "link")
    ext("disable", "a", "--yes", "--agent-dir", str(agent), cwd=set_root, check=True)

    # Link mode: b's link goes; a, which the user switched off, stays parked.
    install(ext, agent, set_root, "--skip", "a,b")
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"], states["g"]) == ("disabled", "not-installed", "enabled")
    assert not (agent / "extensions/b.ts").exists()

    # Register mode, same selection: pi loads the same things; b is the entry's filter now,
    # and ext says what it said in link mode: left out, not installed (not switched off).
    install(ext, agent, set_root, "--mode", "register", "--skip", "a,b")
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"], states["g"]) == ("disabled", "not-installed", "enabled")
    listed = ext("list", "--agent-dir", str(agent), cwd=set_root, check=True).stdout
    assert "an install's --only/--skip left it out" in listed

    # A plain install: b is back (ext's own filter goes), a stays off (the user's).
    install(ext, agent, set_root)
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"], states["g"]) == ("disabled", "enabled", "enabled")


@pytest.mark.parametrize("form", ["link", "link-pi", "register"])
def test_a_disable_of_what_skip_left_out_is_off_in_pi_and_stays_off(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path, form: str
) -> None:
    """An item --skip left out, then disabled (put in switched off: a parked link; the link
    and pi's `-path`; the entry's filter, now the user's): what ext says agrees with pi's own
    loader, and a plain install leaves it off in pi."""
    files = dict(SET)
    if form == "link-pi":
        files["extset.toml"] += 'switch = "pi"\n'
    set_root = build_tree(tmp_path / "set", files)
    agent = tmp_path / "agent"
    install(ext, agent, set_root, "--create", "--mode", form.removesuffix("-pi"), "--skip", "b")

    ext("disable", "b", "--yes", "--agent-dir", str(agent), cwd=set_root, check=True)
    assert agree(ext, agent, set_root, e2e_env)["b"] == "disabled"

    install(ext, agent, set_root)
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"]) == ("enabled", "disabled")
