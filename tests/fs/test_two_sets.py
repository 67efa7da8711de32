"""One agent dir, many sets: another set's link is never backed up as a stranger's file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree, snapshot, unwrapped


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


def a_set(root: Path, name: str) -> Path:
    return build_tree(
        root,
        {
            "extset.toml": f'[set]\nname = "{name}"\n',
            "extensions/notify.ts": f"// {name}'s notify\n",
            f"extensions/{name}-only.ts": "// only here\n",
        },
    )


def ext(set_root: Path, agent: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), "--agent-dir", str(agent), *args])


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, Path, Path]:
    a, b = a_set(tmp_path / "a", "alpha"), a_set(tmp_path / "b", "beta")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0
    return a, b, agent


def test_a_second_set_refuses_to_replace_the_firsts_link(two: tuple[Path, Path, Path]) -> None:
    a, b, agent = two
    before = sorted(p.name for p in (agent / "extensions").iterdir())

    refused = ext(b, agent, "install", "--yes")

    assert refused.exit_code == 3
    assert "'alpha'" in refused.output and "'beta'" in refused.output and str(a) in refused.output
    assert "--skip notify" in refused.output  # each command whole, for this agent dir:
    assert f"ext --agent-dir {agent} --set {a} uninstall" in refused.output
    assert sorted(p.name for p in (agent / "extensions").iterdir()) == before  # no .bak
    assert (agent / "extensions" / "notify.ts").resolve() == a / "extensions" / "notify.ts"


@pytest.mark.parametrize(
    ("selection", "fix"),
    [
        # the run's --skip and notify would leave nothing to install (helper-72): none said
        (["--skip", "beta-only"], None),
        (["--only", "notify.ts,beta-only"], "--only beta-only"),  # --only decides: less notify
        (["--only", "notify"], None),  # nothing left to install: no install to suggest
    ],
)
def test_the_fix_keeps_the_run_s_selection(
    two: tuple[Path, Path, Path], selection: list[str], fix: str | None
) -> None:
    """Pasted, the fix leaves out the item in the way and what the run left out; it was
    `--skip notify` alone, whose refusal then named the next clash, and so on."""
    _, b, agent = two

    refused = ext(b, agent, "install", "--yes", *selection)

    assert refused.exit_code == 3
    if fix is None:
        assert "skip it" not in refused.output and "uninstall the other set first" in refused.output
    else:
        assert f"ext --set {b} --agent-dir {agent} install {fix}`" in refused.output


def test_skipping_the_shared_item_installs_the_rest(two: tuple[Path, Path, Path]) -> None:
    a, b, agent = two

    done = ext(b, agent, "install", "--yes", "--skip", "notify")
    again = ext(a, agent, "--json", "install", "--dry-run")

    assert done.exit_code == 0, done.output
    assert (agent / "extensions" / "beta-only.ts").resolve() == b / "extensions" / "beta-only.ts"
    assert (agent / "extensions" / "notify.ts").resolve() == a / "extensions" / "notify.ts"
    assert json.loads(again.stdout)["changed"] is False  # and alpha sees nothing to fix


def test_doctor_and_list_say_whose_link_it_is(two: tuple[Path, Path, Path]) -> None:
    a, b, agent = two
    assert ext(b, agent, "install", "--yes", "--skip", "notify").exit_code == 0

    listed = json.loads(ext(b, agent, "--json", "list").stdout)
    doctor = json.loads(ext(b, agent, "--json", "doctor", "--check", "items").stdout)

    notify = next(i for i in listed["items"] if i["name"] == "notify")
    assert notify["state"] == "foreign"
    [row] = [c for c in doctor["checks"] if "notify" in c["message"]]
    assert "another set ext installed here" in row["message"] and str(a) in row["message"]
    assert row["level"] == "info"  # two sets of the user's, one name: the first one won
    assert f"`ext --set {a} --agent-dir {agent} uninstall`" in row["fix"]
    # The fix, followed: the other set out of this dir, then this set's install.
    assert ext(a, agent, "uninstall", "--yes").exit_code == 0
    assert ext(b, agent, "install", "--yes").exit_code == 0
    after = json.loads(ext(b, agent, "--json", "doctor", "--check", "items").stdout)
    assert not [c for c in after["checks"] if "another set" in c["message"]]


def test_uninstalling_a_set_keeps_the_links_of_a_set_inside_it(tmp_path: Path) -> None:
    outer = a_set(tmp_path / "dotfiles", "outer")
    inner = a_set(tmp_path / "dotfiles" / "work", "inner")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(inner, agent, "install", "--yes").exit_code == 0
    clash = ext(outer, agent, "install", "--yes")  # notify is the inner set's, not a stale one
    assert clash.exit_code == 3, clash.output
    assert ext(outer, agent, "install", "--yes", "--skip", "notify").exit_code == 0

    done = ext(outer, agent, "uninstall", "--yes")

    assert done.exit_code == 0, done.output
    assert not (agent / "extensions" / "outer-only.ts").is_symlink()
    inner_links = {"notify.ts", "inner-only.ts"}
    for name in inner_links:  # the inner set's links lead into the outer folder, yet are not its
        link = agent / "extensions" / name
        assert link.resolve() == inner / "extensions" / name, done.output


def test_list_says_install_refuses_another_sets_link(two: tuple[Path, Path, Path]) -> None:
    a, b, agent = two
    assert ext(b, agent, "install", "--yes", "--skip", "notify").exit_code == 0

    listed = json.loads(ext(b, agent, "--json", "list").stdout)

    notify = next(i for i in listed["items"] if i["name"] == "notify")
    assert str(a) in notify["note"] and "refuses" in notify["note"]
    assert "backs it up" not in notify["note"]  # what `ext install` would do to a stranger's


def test_disable_of_another_sets_link_says_whose_it_is(two: tuple[Path, Path, Path]) -> None:
    a, b, agent = two
    assert ext(b, agent, "install", "--yes", "--skip", "notify").exit_code == 0

    refused = ext(b, agent, "disable", "notify", "--yes")

    said = unwrapped(refused.output)
    assert str(a) in said and "install` refuses" in said
    assert "backs it up" not in said
    assert (agent / "extensions" / "notify.ts").resolve() == a / "extensions" / "notify.ts"


# --- a skill of one name: pi loads one of the two, so ext refuses it in either mode -----------


def skill_set(root: Path, name: str, folder: str = "review") -> Path:
    return build_tree(
        root,
        {
            "extset.toml": f'[set]\nname = "{name}"\n',
            f"skills/{folder}/SKILL.md": "---\nname: review\ndescription: review it\n---\nGo.\n",
            f"skills/{name}-only/SKILL.md": f"---\ndescription: {name}'s own\n---\nGo.\n",
        },
    )


@pytest.mark.parametrize(
    ("first", "second"), [("register", "register"), ("link", "register"), ("register", "link")]
)
def test_a_second_sets_skill_of_the_same_name_is_refused_in_either_mode(
    tmp_path: Path, first: str, second: str
) -> None:
    a, b = skill_set(tmp_path / "a", "alpha"), skill_set(tmp_path / "b", "beta")
    agent = build_tree(tmp_path / "agent", {"skills": None})
    assert ext(a, agent, "install", "--yes", "--mode", first).exit_code == 0
    before = snapshot(agent)

    refused = ext(b, agent, "install", "--yes", "--mode", second)

    assert refused.exit_code == 3, refused.output
    out = unwrapped(refused.output)
    assert f"'alpha' ({a})" in out and "'beta'" in out and "collision" in out
    assert f"`ext --set {b} --agent-dir {agent} install --skip skill:review`" in out
    assert f"`ext --agent-dir {agent} --set {a} uninstall`" in out
    assert snapshot(agent) == before  # nothing written
    done = ext(b, agent, "install", "--yes", "--mode", second, "--skip", "skill:review")
    assert done.exit_code == 0, done.output


def test_pis_name_decides_and_a_skill_the_other_set_skipped_is_free(tmp_path: Path) -> None:
    a = skill_set(tmp_path / "a", "alpha")
    b = skill_set(tmp_path / "b", "beta", folder="check")  # another folder, pi's name review
    agent = build_tree(tmp_path / "agent", {"skills": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0

    assert ext(b, agent, "install", "--yes").exit_code == 3  # no link in the way, one name
    assert (
        ext(a, agent, "install", "--yes", "--mode", "register", "--skip", "review").exit_code == 0
    )
    done = ext(b, agent, "install", "--yes", "--mode", "register")

    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("mode", ["register", "link"])
def test_enable_refuses_what_install_refused(tmp_path: Path, mode: str) -> None:
    a = skill_set(tmp_path / "a", "alpha")
    b = skill_set(tmp_path / "b", "beta", folder="check")  # pi's name review, another place
    agent = build_tree(tmp_path / "agent", {"skills": None})
    assert ext(a, agent, "install", "--yes", "--mode", "register").exit_code == 0
    assert ext(b, agent, "install", "--yes", "--mode", mode, "--skip", "check").exit_code == 0
    before = snapshot(agent)

    refused = ext(b, agent, "enable", "skill:check", "--yes")

    assert refused.exit_code == 3, refused.output
    assert "'alpha'" in refused.output and "collision" in refused.output
    assert "fix: leave it off, rename one of the two" in refused.output
    assert snapshot(agent) == before


def test_a_copy_of_a_set_in_the_way_is_said_in_short(tmp_path: Path) -> None:
    """A trial (helper-29): a second copy of a 320-item set was refused with every name of
    it, twice (the message, then the --skip of the fix)."""
    items = {f"extensions/e{i:03}.ts": "// e\n" for i in range(12)}
    a = build_tree(tmp_path / "a", {"extset.toml": '[set]\nname = "big"\n', **items})
    b = build_tree(tmp_path / "b", {"extset.toml": '[set]\nname = "big"\n', **items})
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0

    refused = ext(b, agent, "install", "--yes")

    assert refused.exit_code == 3
    said = unwrapped(refused.output)
    assert "e000, e001, e002, e003, e004 and 7 more: the agent dir already has" in said
    assert "--skip" not in said and "e011" not in said
    assert f"uninstall the other set first (`ext --agent-dir {agent} --set {a} uninstall`)" in said


@pytest.mark.parametrize("args", [(), ("--only", "e001")])
def test_a_copy_whose_every_item_is_in_the_way_is_not_told_to_skip_them_all(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """A trial (helper-72): a copy of the bundled set (eight items) was told to --skip all
    eight, an install of nothing, and the two sets were told apart by their one name."""
    items = {f"extensions/e{i:03}.ts": "// e\n" for i in range(3)}
    a = build_tree(tmp_path / "a", {"extset.toml": '[set]\nname = "big"\n', **items})
    b = build_tree(tmp_path / "b", {"extset.toml": '[set]\nname = "big"\n', **items})
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0

    refused = ext(b, agent, "install", "--yes", *args)

    assert refused.exit_code == 3
    said = unwrapped(refused.output)
    assert f"from another copy of this set ext installed here ({a}), which this one would" in said
    assert "--skip" not in said
    assert said.rstrip().endswith("or install this one into another agent dir (--agent-dir)")


def test_another_set_s_item_switched_off_still_holds_its_place(
    two: tuple[Path, Path, Path],
) -> None:
    """A trial (helper-35): with alpha's notify disabled (parked), beta's list said its notify
    was not installed, `ext enable notify` exited 0 ("it is not installed"), and doctor's
    fix, `ext install`, was refused for the parked link."""
    a, b, agent = two
    assert ext(b, agent, "install", "--skip", "notify", "--yes").exit_code == 0
    assert ext(a, agent, "disable", "notify", "--yes").exit_code == 0

    listed = ext(b, agent, "--json", "list")
    [notify] = [i for i in json.loads(listed.stdout)["items"] if i["name"] == "notify"]
    enabled = ext(b, agent, "enable", "notify", "--yes")

    assert notify["state"] == "foreign" and "switched off there" in notify["note"]
    assert enabled.exit_code == 3, enabled.output
    said = unwrapped(enabled.stderr)
    assert f"uninstall it first (`ext --agent-dir {agent} --set {a} uninstall`)" in said, said


def test_a_name_only_another_set_here_has_is_said_with_that_set_s_command(
    two: tuple[Path, Path, Path],
) -> None:
    """A trial (helper-35): `ext disable alpha-only` from beta said "the set has no item named
    'alpha-only'", with `ext list` as the fix, which showed no such item."""
    a, b, agent = two
    assert ext(b, agent, "install", "--skip", "notify", "--yes").exit_code == 0

    refused = ext(b, agent, "disable", "alpha-only", "--yes")

    assert refused.exit_code == 2
    said = unwrapped(refused.stderr)
    assert (
        "'alpha-only' is no item of this set (beta) but of 'alpha', which ext installed here "
        f"from {a}"
    ) in said
    assert (
        f"fix: switch it with that set: ext --agent-dir {agent} --set {a} disable alpha-only"
        in said
    )


def test_a_disable_of_an_item_another_set_has_switched_off_is_a_no_op(tmp_path: Path) -> None:
    """helper-36: with alpha's notify parked, beta's `disable notify` was refused with
    alpha's disable as the fix, which found it off already: a loop. Neither loads: off."""
    a = a_set(tmp_path / "a", "alpha")
    b = a_set(tmp_path / "b (copy)", "beta")  # a `)` in the folder the fix names
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0
    assert ext(b, agent, "install", "--skip", "notify", "--yes").exit_code == 0

    on = ext(a, agent, "enable", "notify", "--yes")  # a's is on: nothing to do there
    held = ext(b, agent, "enable", "notify", "--yes")
    assert ext(a, agent, "disable", "notify", "--yes").exit_code == 0
    off = ext(b, agent, "disable", "notify", "--yes")

    assert on.exit_code == 0
    assert held.exit_code == 3
    assert f"--set {a} uninstall" in unwrapped(held.stderr)
    assert off.exit_code == 0, off.output
    assert "notify is off here: another set's notify is switched off" in off.stderr
    checks = json.loads(ext(b, agent, "--json", "doctor", "--check", "items").stdout)["checks"]
    [said] = [c["message"] for c in checks if "notify" in c["message"]]
    assert said.endswith(
        "so this set's notify is not installed; pi loads neither (it is off there)"
    )


def test_the_fix_names_a_set_whose_folder_has_a_parenthesis(tmp_path: Path) -> None:
    """helper-36: the folder was read back from the note up to its first `)`."""
    a = a_set(tmp_path / "c (copy)", "gamma")
    b = a_set(tmp_path / "b", "beta")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    assert ext(a, agent, "install", "--yes").exit_code == 0
    assert ext(b, agent, "install", "--skip", "notify", "--yes").exit_code == 0

    held = ext(b, agent, "enable", "notify", "--yes")

    assert held.exit_code == 3
    assert f"--set '{a}' uninstall" in unwrapped(held.stderr), held.stderr
