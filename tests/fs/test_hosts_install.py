"""`ext --host H …` for the agents beside pi: each takes the set's skills and commands in its
own folders, by the link engine's rules, and says why it takes none of the rest.

What each real host loads from those folders is pinned in tests/e2e/test_host_facts.py;
these hold what ext writes, and that it writes nothing anywhere else.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree, unwrapped

SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "extensions/notify.ts": "export default function notify() {}\n",
    "skills/review/SKILL.md": "---\nname: review\ndescription: Reviews.\n---\nReview.\n",
    "prompts/fix.md": "---\ndescription: Fix it\n---\nFix $ARGUMENTS now.\n",
    "themes/dark.json": "{}\n",
}


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    for var in ("EXT_HOST", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "EXT_AGENT_DIR"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


def ext(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env)


def made(home: Path, name: str) -> Path:
    path = home / name
    path.mkdir(parents=True, exist_ok=True)
    return path


DIRS = {"claude": ".claude", "codex": ".codex", "opencode": ".config/opencode", "gemini": ".gemini"}


def installed_into(set_root: Path, home: Path, *hosts: str) -> None:
    """Each host's dir made, then the set installed into each, in this order."""
    for host in hosts:
        made(home, DIRS[host])
    for host in hosts:
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0


def test_claude_gets_skills_and_commands_linked_and_is_told_why_not_the_rest(
    set_root: Path, isolated_home: Path
) -> None:
    claude = made(isolated_home, ".claude")
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert os.readlink(claude / "skills/review") == str(set_root / "skills/review")
    assert os.readlink(claude / "commands/fix.md") == str(set_root / "prompts/fix.md")
    assert not (claude / "extensions").exists() and not (claude / "themes").exists()
    assert "Claude Code's dir ~/.claude (from its default)" in result.stderr
    assert "not installed into Claude Code: notify (an extension runs inside pi only" in (
        result.stderr
    )
    assert "dark (a theme is pi's own screen's" in result.stderr
    again = ext("--set", str(set_root), "--host", "claude", "install")
    assert again.exit_code == 0
    assert again.stdout == "nothing to do: 2 skipped, 2 unchanged\n"


def _tree(folder: Path) -> dict[str, str]:
    """Every entry under folder: a link's target, else its kind."""
    return {
        str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else "dir" * p.is_dir()
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize(("first", "then"), [("pi", "claude"), ("claude", "pi")])
def test_a_dir_that_holds_another_hosts_install_is_refused(
    set_root: Path, isolated_home: Path, first: str, then: str
) -> None:
    """helper-86: EXT_AGENT_DIR, set for pi, sent a Claude Code install into pi's dir; it took
    pi's skill link for its own and its uninstall removed pi's links, /ext and record. undo
    (helper-87) reversed the other's install; the fix named no way that worked."""
    shared = made(isolated_home, "agent")
    env = {"EXT_AGENT_DIR": str(shared)}
    assert ext("--set", str(set_root), "--host", first, "install", "--yes", env=env).exit_code == 0
    before = _tree(shared)
    held = "pi" if first == "pi" else "Claude Code"
    title = "Claude Code" if then == "claude" else "pi"
    verbs = (["install", "--yes"], ["uninstall", "--yes"], ["disable", "review", "--yes"])
    for verb in (*verbs, ["undo", "--yes"]):
        result = ext("--set", str(set_root), "--host", then, *verb, env=env)
        assert result.exit_code == 3, (verb, result.stderr)
        said = unwrapped(result.stderr)
        assert f"~/agent (EXT_AGENT_DIR) holds ext's install for {held}" in said
        if verb[0] == "install":
            assert f"one for {title} would share its folders and its record" in said
            assert f"fix: give {title} a dir of its own: unset EXT_AGENT_DIR" in said
        else:
            assert f", none for {title}: nothing to {verb[0]}; nothing was written" in said
            assert f"fix: run it on {title}'s own dir: unset EXT_AGENT_DIR" in said
        assert _tree(shared) == before
    listed = ext("--set", str(set_root), "--host", then, "list", env=env)
    assert listed.exit_code == 0, listed.stderr
    assert (
        f"this dir holds ext's install for {held}, none for {title}: what is in place here is "
        f"{held}'s, and {title}'s installs and switches here are refused"
    ) in unwrapped(listed.stderr)
    shell = ext("--set", str(set_root), "--host", then, "env", env=env)
    assert shell.exit_code == 0 and "export " in shell.stdout
    assert f"holds ext's install for {held}, none for {title}" in unwrapped(shell.stderr)
    checked = unwrapped(ext("--set", str(set_root), "--host", then, "doctor", env=env).stdout)
    assert f"this dir holds ext's install for {held}, none for {title}" in checked
    assert f"fix: check {title}'s own dir: unset EXT_AGENT_DIR" in checked
    assert "not checked: this dir holds other agents' installs only (see agent.dir)" in checked
    mine = ext("--set", str(set_root), "--host", first, "uninstall", "--yes", env=env)
    assert mine.exit_code == 0, mine.stderr


@pytest.mark.parametrize(("first", "then"), [("pi", "claude"), ("claude", "pi")])
def test_doctor_in_another_agents_dir_reads_no_install_of_its_own_there(
    set_root: Path, isolated_home: Path, first: str, then: str
) -> None:
    """helper-87: pi's doctor in Claude Code's dir gave `ext install` (refused there) as the
    fix of its settings.json, settings.seeds and command rows, read Claude Code's record's
    seeds as pi's, written and since removed, and counted Claude Code's skill link as one of
    pi's items on; Claude Code's doctor in pi's dir counted pi's skill link as its own."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "tools"\n[settings.seed]\nquietStartup = true\n'
    )
    shared = made(isolated_home, "agent")
    env = {"EXT_AGENT_DIR": str(shared)}
    assert ext("--set", str(set_root), "--host", first, "install", "--yes", env=env).exit_code == 0
    (journal,) = (shared / ".extset" / "journal").iterdir()  # helper-88: left open, its fix
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:-1]))  # is theirs
    result = ext("--set", str(set_root), "--host", then, "--json", "doctor", env=env)
    checks = json.loads(result.stdout)["checks"]
    fixes = [c["fix"] for c in checks if "fix" in c]
    title = "pi" if then == "pi" else "Claude Code"
    own = f"check {title}'s own dir: unset EXT_AGENT_DIR (every agent's commands read it)"
    assert f"{own}, or --agent-dir DIR" in fixes
    assert not [f for f in fixes if "ext install" in f or " env)" in f or " launch" in f], fixes
    skipped = {c["id"] for c in checks if "other agents' installs only" in c["message"]}
    here = {"items", "settings.seeds", "command", "host.env"} if then == "pi" else {"host.items"}
    here.add("agent.interrupted")
    assert here <= skipped, checks
    assert not [c for c in checks if c["id"] in skipped and c["level"] != "info"]
    assert result.exit_code == 0, result.stdout


def test_doctor_in_another_agents_dir_named_by_pis_variable_says_to_change_it(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-88: with PI_CODING_AGENT_DIR naming Claude Code's dir, doctor's fix was
    `--agent-dir DIR`, which leaves pi itself reading Claude Code's dir."""
    claude = made(isolated_home, ".claude")
    assert ext("--set", str(set_root), "--host", "claude", "install", "--yes").exit_code == 0
    env = {"PI_CODING_AGENT_DIR": str(claude)}
    checked = unwrapped(ext("--set", str(set_root), "doctor", env=env).stdout)
    assert "fix: check pi's own dir: change or unset PI_CODING_AGENT_DIR (pi reads it too)" in (
        checked
    )


def test_adopt_from_another_agents_dir_is_refused(set_root: Path, isolated_home: Path) -> None:
    """helper-87: adopt wrote a pi install into a dir that held Claude Code's alone, and the
    mixed dir then let both agents' switches through."""
    claude = made(isolated_home, ".claude")
    assert ext("--set", str(set_root), "--host", "claude", "install", "--yes").exit_code == 0
    before = _tree(claude)
    result = ext("--set", str(set_root), "adopt", "--all", "--from", str(claude), "--yes")
    assert result.exit_code == 3, result.stderr
    assert "holds ext's install for Claude Code: one for pi would share" in unwrapped(result.stderr)
    assert _tree(claude) == before


def test_a_record_of_an_agent_this_ext_does_not_know_is_named_as_such(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-87: a record a newer ext wrote (`"host": "nosuch"`) was said as `--host: no host
    named 'nosuch'`, a flag no one gave."""
    agent = made(isolated_home, "agent")
    assert ext("--set", str(set_root), "--agent-dir", str(agent), "install", "--yes").exit_code == 0
    record = agent / ".extset" / "state.json"
    data = json.loads(record.read_text())
    data["sets"][0]["extra"]["host"] = "nosuch"
    record.write_text(json.dumps(data))
    result = ext("--set", str(set_root), "--agent-dir", str(agent), "uninstall", "--yes")
    assert result.exit_code == 3, result.stderr
    assert "holds ext's install for 'nosuch' (an agent this ext does not know), none for pi" in (
        unwrapped(result.stderr)
    )


def test_two_served_agents_in_one_dir_are_refused_before_anything_is_written(
    tmp_path: Path, isolated_home: Path
) -> None:
    """helper-87: pi's links were written, then Claude Code's install in the same dir was
    refused, and the run said nothing was written."""
    root = build_tree(
        tmp_path / "served",
        {
            **SET,
            "extset.toml": (
                '[set]\nname = "tools"\n[target]\nagent_dir = "../agents/one"\n'
                '[hosts]\nserve = ["pi", "claude"]\n[hosts.claude]\nagent_dir = "../agents/one"\n'
            ),
        },
    )
    one = tmp_path / "agents" / "one"
    one.mkdir(parents=True)
    for dry in ([], ["--dry-run"]):
        result = ext("--set", str(root), "install", "--yes", *dry)
        assert result.exit_code == 2, result.stderr
        said = unwrapped(result.stderr)
        assert "pi and Claude Code would share one agent dir" in said
        assert "fix: give Claude Code a dir of its own: change [hosts.claude] agent_dir" in said
        assert list(one.iterdir()) == []


def test_the_host_variable_names_its_dir_and_ext_host_names_the_host(
    set_root: Path, tmp_path: Path
) -> None:
    cc = made(tmp_path, "cc")
    env = {"EXT_HOST": "claude", "CLAUDE_CONFIG_DIR": str(cc)}
    result = ext("--set", str(set_root), "install", "--yes", env=env)
    assert result.exit_code == 0, result.stderr
    assert (cc / "skills/review").is_symlink()
    assert "(from CLAUDE_CONFIG_DIR)" in result.stderr


@pytest.mark.parametrize(
    ("host", "var", "value", "leaf"),
    [
        ("gemini", "GEMINI_CLI_HOME", "g", ".gemini"),
        ("opencode", "XDG_CONFIG_HOME", "xdg", "opencode"),
        ("codex", "CODEX_HOME", "cx", ""),
    ],
)
def test_a_variable_that_names_the_home_of_the_dir_is_read_as_such(
    set_root: Path, tmp_path: Path, host: str, var: str, value: str, leaf: str
) -> None:
    where = made(tmp_path / value, leaf) if leaf else made(tmp_path, value)
    result = ext(
        "--set", str(set_root), "--host", host, "--json", "list", env={var: str(tmp_path / value)}
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["agent_dir"] == str(where)


@pytest.mark.parametrize(
    ("host", "var", "value", "fix"),
    [
        ("claude", "CLAUDE_CONFIG_DIR", "~/.claude", "unset CLAUDE_CONFIG_DIR"),
        ("claude", "CLAUDE_CONFIG_DIR", "~/cc", 'export CLAUDE_CONFIG_DIR="$HOME/cc"'),
        ("codex", "CODEX_HOME", "~/.codex", "unset CODEX_HOME"),
        ("gemini", "GEMINI_CLI_HOME", "~", "unset GEMINI_CLI_HOME"),
        ("opencode", "XDG_CONFIG_HOME", "~/.config", "unset XDG_CONFIG_HOME"),
        ("claude", "CLAUDE_CONFIG_DIR", "~bob/cc", "set CLAUDE_CONFIG_DIR to an absolute path"),
    ],
)
def test_a_tilde_the_host_does_not_expand_is_refused_with_the_full_path(
    set_root: Path, isolated_home: Path, host: str, var: str, value: str, fix: str
) -> None:
    """A trial: CLAUDE_CONFIG_DIR='~/.claude' (quoted, so the shell left the `~`) was read as
    ~/.claude by ext, by pi's rule, while Claude Code made `./~/.claude` and loaded nothing;
    Codex CLI and Gemini CLI do not expand it either. Refused, with what to set; at the
    host's default, to unset it (as `ext env` does: set, Claude Code reads ~/.claude.json from
    inside it)."""
    made(isolated_home, ".claude")
    made(isolated_home, ".codex")
    made(isolated_home, ".config/opencode")
    made(isolated_home, ".gemini")
    result = ext("--set", str(set_root), "--host", host, "install", "--yes", env={var: value})
    assert result.exit_code == 2, result.stderr
    assert f"{var} is '{value}'" in result.stderr
    assert "does not expand ~" in result.stderr
    assert result.stderr.rstrip().endswith(fix)
    assert not os.path.lexists(Path.cwd() / "~")
    other_host = "claude" if host != "claude" else "codex"
    other = ext("--set", str(set_root), "--host", other_host, "list", env={var: value})
    assert other.exit_code == 0, other.stderr  # another host's command is not stopped by it


@pytest.mark.parametrize("spoil", ["a bad name", "a folder out of the set"])
def test_an_extensions_folder_pi_would_refuse_does_not_stop_another_host(
    set_root: Path, isolated_home: Path, tmp_path: Path, spoil: str
) -> None:
    """A trial: an extension named `--help.ts`, or extensions/ linked out of the set, stopped
    `ext --host claude install`, which takes no extension; pi's install still refuses it."""
    if spoil == "a bad name":
        build_tree(set_root, {"extensions/--help.ts": "export default () => {}\n"})
    else:
        import shutil

        shutil.rmtree(set_root / "extensions")
        far = build_tree(tmp_path / "elsewhere", {"far.ts": "export default () => {}\n"})
        (set_root / "extensions").symlink_to(far)
    claude = made(isolated_home, ".claude")
    done = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert done.exit_code == 0, done.stderr
    assert (claude / "skills/review").is_symlink() and (claude / "commands/fix.md").is_symlink()
    for_pi = ext("--set", str(set_root), "--agent-dir", str(tmp_path / "a"), "install", "--create")
    assert for_pi.exit_code != 0


def test_a_link_of_the_set_that_leads_nowhere_is_said_for_the_kinds_the_host_takes(
    set_root: Path, isolated_home: Path
) -> None:
    """Session 49: such a link was left out in silence, as for pi; an extension's is not the
    concern of a host that takes no extension."""
    (set_root / "skills/old").symlink_to("../archive/old")
    (set_root / "extensions/loop.ts").symlink_to("loop.ts")
    made(isolated_home, ".claude")
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    said = unwrapped(result.stderr)
    assert (
        "skills/old in the set is a link to ../archive/old, which does not exist: not "
        "installed, Claude Code cannot load it (restore its target, or remove the link: rm "
        f"{set_root}/skills/old)"
    ) in said
    assert "extensions/loop.ts" not in said


def test_a_missing_host_dir_is_exit_4_naming_the_host_and_the_fix(set_root: Path) -> None:
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 4
    assert "Claude Code's dir" in result.stderr and "does not exist" in result.stderr
    assert "start Claude Code once" in result.stderr
    assert "--host claude install --yes --create" in result.stderr  # as typed, with --create


def test_an_unknown_host_is_a_usage_error_naming_the_closest(set_root: Path) -> None:
    result = ext("--set", str(set_root), "--host", "gemeni", "list")
    assert result.exit_code == 2
    assert "no host named 'gemeni'" in result.stderr and "did you mean gemini?" in result.stderr


def test_register_mode_is_refused_for_another_host(set_root: Path, isolated_home: Path) -> None:
    made(isolated_home, ".claude")
    result = ext("--set", str(set_root), "--host", "claude", "install", "--mode", "register")
    assert result.exit_code == 2
    assert "--mode register is pi's" in result.stderr


def test_codex_takes_skills_in_the_shared_agents_folder_and_prompts_in_its_home(
    set_root: Path, isolated_home: Path
) -> None:
    codex = made(isolated_home, ".codex")
    result = ext("--set", str(set_root), "--host", "codex", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (isolated_home / ".agents/skills/review").is_symlink()
    assert (codex / "prompts/fix.md").is_symlink()
    assert not (codex / "skills").exists()
    listed = json.loads(ext("--set", str(set_root), "--host", "codex", "--json", "list").stdout)
    states = {(i["kind"], i["name"]): i["state"] for i in listed["items"]}
    assert states == {("skill", "review"): "enabled", ("prompt", "fix"): "enabled"}
    gone = ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes")
    assert gone.exit_code == 0, gone.stderr
    assert not (isolated_home / ".agents/skills/review").exists()
    assert not (codex / "prompts/fix.md").exists()
    assert not (isolated_home / ".agents").exists()  # ext made it on its way: it goes too
    back = ext("--set", str(set_root), "--host", "codex", "undo", "--yes")
    assert back.exit_code == 0, back.stderr
    assert (isolated_home / ".agents/skills/review").is_symlink()


def test_a_home_folder_ext_did_not_make_stays_after_uninstall(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".codex")
    made(isolated_home, ".agents")  # the user's: another tool's skills may come
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    assert ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes").exit_code == 0
    assert (isolated_home / ".agents").is_dir()
    assert not (isolated_home / ".agents/skills").exists()


def test_a_skill_already_read_from_a_shared_folder_is_not_linked_twice(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".codex")
    opencode = made(isolated_home, ".config/opencode")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    result = ext("--set", str(set_root), "--host", "opencode", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert not (opencode / "skills/review").exists()
    assert (opencode / "commands/fix.md").is_symlink()


def test_a_disable_of_a_skill_linked_here_and_in_a_shared_folder_is_refused_with_the_fix(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-55: Gemini CLI's install, then Codex CLI's: `ext --host gemini disable` parked
    Gemini's own link, said "now disabled", and Gemini loaded the skill all the same from
    ~/.agents/skills. Refused (exit 3, nothing written); the fix, pasted, switches it off."""
    made(isolated_home, ".codex")
    gemini = made(isolated_home, ".gemini")
    for host in ("gemini", "codex"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0

    refused = ext("--set", str(set_root), "--host", "gemini", "disable", "skill:review", "--yes")

    assert refused.exit_code == 3, refused.stderr
    said = unwrapped(refused.stderr)
    assert "skill:review (it loads here from ~/.agents/skills too, where ext linked it" in said
    assert (
        f"fix: `ext --set {set_root} --host gemini --agent-dir ~/.gemini install` first, which "
        "drops its link here; "
        "then switch it off where it is linked, which takes it from that agent too: "
        f"`ext --set {set_root} --host codex disable skill:review`"
    ) in said
    assert (gemini / "skills/review").is_symlink()  # nothing written
    for host, how in (("gemini", "install"), ("codex", "disable")):
        args = ("skill:review",) if how == "disable" else ()
        assert ext("--set", str(set_root), "--host", host, how, *args, "--yes").exit_code == 0
    assert not os.path.lexists(gemini / "skills/review")
    assert not os.path.lexists(isolated_home / ".agents/skills/review")


def test_opencode_reading_a_skill_from_two_shared_folders_is_told_the_way_out_of_each(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-55: Claude Code's and Codex CLI's links of one skill, both read by OpenCode:
    the refused disable named Claude Code's --skip alone, and pasted, OpenCode still loaded
    the skill from ~/.agents/skills. Both are named; pasted, both links are gone."""
    installed_into(set_root, isolated_home, "claude", "codex", "opencode")

    refused = ext("--set", str(set_root), "--host", "opencode", "disable", "skill:review")

    assert refused.exit_code == 3, refused.stderr
    said = unwrapped(refused.stderr)
    for host in ("claude", "codex"):
        assert f"`ext --set {set_root} --host {host} install --skip skill:review`" in said
    parked = ext("--set", str(set_root), "--host", "claude", "disable", "skill:review", "--yes")
    assert (
        "still loads it from ~/.claude/skills/.off/review, and from ~/.agents/skills/review too, "
        f"where ext linked it (`ext --set {set_root} --host codex install --skip skill:review`"
    ) in unwrapped(parked.stderr)
    for host in ("claude", "codex"):
        skip = ("--set", str(set_root), "--host", host, "install", "--skip", "skill:review")
        assert ext(*skip, "--yes").exit_code == 0
    for folder in (".claude/skills", ".agents/skills"):
        assert not os.path.lexists(isolated_home / folder / "review")


def test_a_park_opencode_still_reads_says_the_way_out_of_the_other_folders_park_too(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-56: with the skill parked by Codex CLI too, the warning called that copy linked
    and named Codex's `install --skip`, which leaves a parked link as it is."""
    for folder in (".claude", ".codex", ".config/opencode"):
        made(isolated_home, folder)
    for host in ("codex", "claude"):
        run = ("--set", str(set_root), "--host", host)
        assert ext(*run, "install", "--yes").exit_code == 0
        parked = ext(*run, "disable", "skill:review", "--yes")
        assert parked.exit_code == 0, parked.stderr

    said = unwrapped(parked.stderr)
    assert (
        "and from ~/.agents/skills/.off/review too, where ext parked it (`rm "
        "~/.agents/skills/.off/review` (only the link goes), and pass --skip skill:review to "
        f"each `ext --set {set_root} --host codex install` after)"
    ) in said, said


def test_an_unlink_from_a_shared_folder_is_no_loss_to_a_host_with_its_own_link_or_its_refusal(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-55: Codex CLI's uninstall said Gemini CLI "loses" each skill, while Gemini kept
    loading it from its own folder (its install came first); and said so of a skill Gemini
    never loads (no description)."""
    build_tree(set_root, {"skills/bare/SKILL.md": "---\nname: bare\n---\nNo description.\n"})
    made(isolated_home, ".codex")
    made(isolated_home, ".gemini")
    for host in ("gemini", "codex"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0

    result = ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes")

    assert result.exit_code == 0, result.stderr
    assert "loses it" not in result.stderr, result.stderr
    assert (isolated_home / ".gemini/skills/review").is_symlink()


@pytest.mark.parametrize("how", ["install", "enable"])
def test_a_link_into_a_shared_folder_says_which_host_now_finds_the_skill_twice(
    set_root: Path, isolated_home: Path, how: str
) -> None:
    """helper-50: Gemini CLI installed first keeps its own link of a skill; Codex CLI's
    install then links it into ~/.agents/skills, which Gemini CLI reads too: it found the
    skill twice, and nothing said so. The warning names Gemini's install, which drops its own
    link; after it, one link is left for Gemini to read."""
    made(isolated_home, ".codex")
    gemini = made(isolated_home, ".gemini")
    assert ext("--set", str(set_root), "--host", "gemini", "install", "--yes").exit_code == 0
    if how == "enable":
        codex = ("--set", str(set_root), "--host", "codex")
        assert ext(*codex, "install", "--skip", "skill:review", "--yes").exit_code == 0
        assert ext(*codex, "disable", "skill:review", "--yes").exit_code == 0

    result = ext(
        "--set",
        str(set_root),
        "--host",
        "codex",
        how,
        *(("skill:review",) if how == "enable" else ()),
        "--yes",
    )

    assert result.exit_code == 0, result.stderr
    assert (
        "skill:review: Gemini CLI (~/.gemini) reads it from ~/.agents/skills too and finds it "
        f"twice, with its own link; run `ext --set {set_root} --host gemini --agent-dir "
        "~/.gemini install` after this, which drops that link"
    ) in unwrapped(result.stderr)
    again = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert again.exit_code == 0, again.stderr
    assert not os.path.lexists(gemini / "skills/review")
    assert (isolated_home / ".agents/skills/review").is_symlink()
    quiet = ext("--set", str(set_root), "--host", "codex", "install", "--yes")
    assert "twice" not in quiet.stderr


@pytest.mark.parametrize(
    "how", [("install", "--skip", "skill:review", "--yes"), ("disable", "skill:review", "--yes")]
)
def test_a_skip_or_a_disable_in_a_shared_folder_says_which_host_loses_the_skill(
    set_root: Path, isolated_home: Path, how: tuple[str, ...]
) -> None:
    """A trial (helper-28): Codex's `--skip` or `disable` of a skill took it from Gemini CLI,
    which reads it from `~/.agents/skills`, and only the uninstall said so. OpenCode reads
    the hidden `.off/` too: a disable is said of it by the warning that it still loads it."""
    made(isolated_home, ".codex")
    made(isolated_home, ".gemini")
    for host in ("codex", "gemini"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0

    result = ext("--set", str(set_root), "--host", "codex", *how)

    assert result.exit_code == 0, result.stderr
    said = unwrapped(result.stderr)
    assert (
        "skill:review: Gemini CLI (~/.gemini) reads it from ~/.agents/skills and loses it; to "
        "link it into Gemini CLI's own folder, run "
        f"`ext --set {set_root} --host gemini --agent-dir ~/.gemini install` after this"
    ) in said


@pytest.mark.parametrize(("host", "how"), [("gemini", "disable"), ("opencode", "install --skip")])
def test_a_disable_of_a_skill_read_from_another_agent_s_folder_is_refused_with_the_fix(
    set_root: Path, isolated_home: Path, host: str, how: str
) -> None:
    """A trial (helper-28): `ext --host opencode disable skill:X` of a skill OpenCode reads
    from `~/.agents/skills` (Codex's) wrote nothing and exited 0, and the command it named
    parked the link, which OpenCode, reading hidden folders, loaded all the same."""
    made(isolated_home, ".codex")
    made(isolated_home, ".gemini")
    made(isolated_home, ".config/opencode")
    for each in ("codex", host):
        assert ext("--set", str(set_root), "--host", each, "install", "--yes").exit_code == 0

    refused = ext("--set", str(set_root), "--host", host, "disable", "skill:review", "--yes")
    on = ext("--set", str(set_root), "--host", host, "enable", "skill:review", "--yes")

    assert refused.exit_code == 3, refused.stderr
    said = unwrapped(refused.stderr)
    assert "it loads here from ~/.agents/skills, where ext linked it" in said
    assert (
        "fix: switch it off where it is linked, which takes it from that agent too: "
        f"`ext --set {set_root} --host codex {how} skill:review`"
    ) in said
    assert on.exit_code == 0 and "skill:review is already enabled" in on.stderr


def test_uninstall_from_a_shared_folder_says_which_host_loses_the_skill_and_how_to_keep_it(
    set_root: Path, isolated_home: Path
) -> None:
    """OpenCode and Gemini CLI read `~/.agents/skills`, so their install links no copy of a
    skill ext linked there for Codex CLI; Codex's uninstall takes it from them too."""
    made(isolated_home, ".codex")
    opencode = made(isolated_home, ".config/opencode")
    made(isolated_home, ".gemini")
    for host in ("codex", "opencode"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0
    fix = (
        f"`ext --set {set_root} --host opencode --agent-dir ~/.config/opencode install` after this"
    )
    lost = (
        "warning: skill:review: OpenCode (~/.config/opencode) reads it from ~/.agents/skills "
        f"and loses it; to link it into OpenCode's own folder, run {fix}"
    )

    result = ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes")
    assert result.exit_code == 0, result.stderr
    assert lost in result.stderr.splitlines()
    assert "Gemini CLI" not in result.stderr  # it reads the folder, but the set is not there

    again = ext("--set", str(set_root), "--host", "opencode", "install", "--yes")
    assert again.exit_code == 0, again.stderr
    assert os.readlink(opencode / "skills/review") == str(set_root / "skills/review")


def test_uninstall_of_a_skill_no_other_host_reads_warns_of_nothing(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".codex")
    made(isolated_home, ".config/opencode")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    result = ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "loses it" not in result.stderr


def test_disable_parks_a_skill_and_renames_a_command_and_enable_brings_them_back(
    set_root: Path, isolated_home: Path
) -> None:
    claude = made(isolated_home, ".claude")
    ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    off = ext("--set", str(set_root), "--host", "claude", "disable", "review", "fix", "--yes")
    assert off.exit_code == 0, off.stderr
    assert (claude / "skills/.off/review").is_symlink() and not (claude / "skills/review").exists()
    assert (claude / "commands/fix.md.off").is_symlink()
    again = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert again.exit_code == 0
    assert (claude / "skills/.off/review").is_symlink(), "install never re-enables"
    on = ext("--set", str(set_root), "--host", "claude", "enable", "review", "fix", "--yes")
    assert on.exit_code == 0, on.stderr
    assert (claude / "skills/review").is_symlink() and (claude / "commands/fix.md").is_symlink()


def test_uninstall_leaves_the_host_dir_as_ext_found_it(set_root: Path, isolated_home: Path) -> None:
    claude = made(isolated_home, ".claude")
    (claude / "settings.json").write_text('{"theme": "dark"}\n')
    ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    result = ext("--set", str(set_root), "--host", "claude", "uninstall", "--yes")
    assert result.exit_code == 0, result.stderr
    left = sorted(p.name for p in claude.iterdir())
    assert left == [".extset", "settings.json"]
    assert (claude / "settings.json").read_text() == '{"theme": "dark"}\n', (
        "pi's settings logic stays out"
    )


def test_gemini_gets_commands_written_as_toml_with_the_arguments_mapped(
    set_root: Path, isolated_home: Path
) -> None:
    gemini = made(isolated_home, ".gemini")
    result = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    written = gemini / "commands/fix.toml"
    assert not written.is_symlink()
    command = tomllib.loads(written.read_text())
    assert command == {"description": "Fix it", "prompt": "Fix {{args}} now.\n"}
    assert (gemini / "skills/review").is_symlink()


def test_a_written_commands_header_names_the_set_and_dir_that_write_it_again(
    set_root: Path, isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-80: the header said `ext --host gemini install`, which, pasted anywhere but in
    the set's folder with the default dir, wrote another set or into another dir."""
    import shlex

    dir_ = tmp_path / "a home" / ".gemini"
    args = ("--set", str(set_root), "--host", "gemini", "--agent-dir", str(dir_))
    assert ext(*args, "install", "--yes", "--create").exit_code == 0
    header = (dir_ / "commands/fix.toml").read_text().splitlines()[2]
    words = shlex.split(header.removeprefix("# "))
    assert words[0] == "ext" and words[-1] == "install"
    elsewhere = made(tmp_path, "elsewhere")
    monkeypatch.chdir(elsewhere)
    again = ext(*words[1:], "--dry-run")
    assert again.exit_code == 0, again.stderr
    assert again.stdout == "nothing to do: 2 skipped, 2 unchanged\n"
    listed = ext(*words[1:-1], "--json", "list")
    states = {i["name"]: i["state"] for i in json.loads(listed.stdout)["items"]}
    assert states["fix"] == "enabled", "the header is part of what ext wrote: not stale"


def test_a_description_is_read_as_yaml_reads_it_for_gemini_and_codex(
    set_root: Path, isolated_home: Path
) -> None:
    """A trial: `description: "Review the \\"staged\\" changes"` reached Gemini's TOML with
    its backslashes, `'it''s'` with both quotes, a folded `>` as ">"; and a skill whose
    description is a block below its key was listed as one Codex skips, which it loads."""
    build_tree(
        set_root,
        {
            "prompts/staged.md": '---\ndescription: "Review the \\"staged\\" changes"\n---\nGo.\n',
            "prompts/fine.md": "---\ndescription: 'it''s fine'\n---\nGo.\n",
            "prompts/folded.md": "---\ndescription: >\n  one\n  line\n---\nGo.\n",
            "skills/block/SKILL.md": "---\nname: block\ndescription:\n  below its key\n---\nx\n",
        },
    )
    gemini = made(isolated_home, ".gemini")
    assert ext("--set", str(set_root), "--host", "gemini", "install", "--yes").exit_code == 0
    said = {
        name: tomllib.loads((gemini / f"commands/{name}.toml").read_text())["description"]
        for name in ("staged", "fine", "folded")
    }
    assert said == {
        "staged": 'Review the "staged" changes',
        "fine": "it's fine",
        "folded": "one line",
    }
    made(isolated_home, ".codex")
    listed = ext("--set", str(set_root), "--host", "codex", "--json", "list")
    by_name = {i["name"]: i for i in json.loads(listed.stdout)["items"]}
    assert "host_refuses" not in by_name["block"]


def test_a_changed_template_is_rewritten_and_a_file_of_the_users_is_backed_up(
    set_root: Path, isolated_home: Path
) -> None:
    gemini = made(isolated_home, ".gemini")
    build_tree(gemini, {"commands/fix.toml": 'prompt = "mine"\n'})
    first = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert first.exit_code == 0, first.stderr
    backups = [p for p in (gemini / "commands").iterdir() if ".bak." in p.name]
    assert [p.read_text() for p in backups] == ['prompt = "mine"\n']
    (set_root / "prompts/fix.md").write_text("Fix it better: $@\n")
    second = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert "rewritten: the set's template changed" in second.stdout
    assert tomllib.loads((gemini / "commands/fix.toml").read_text())["prompt"] == (
        "Fix it better: {{args}}\n"
    )


def test_a_file_ext_wrote_and_the_user_changed_is_theirs_to_keep(
    set_root: Path, isolated_home: Path
) -> None:
    gemini = made(isolated_home, ".gemini")
    ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    written = gemini / "commands/fix.toml"
    written.write_text(written.read_text() + "# my note\n")
    gone = ext("--set", str(set_root), "--host", "gemini", "uninstall", "--yes")
    assert gone.exit_code == 0, gone.stderr
    assert written.read_text().endswith("# my note\n"), "never removed: it is the user's now"
    again = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert again.exit_code == 0
    assert any(p.read_text().endswith("# my note\n") for p in (gemini / "commands").glob("*.bak.*"))


def test_a_template_gemini_would_read_otherwise_is_refused_with_why(
    set_root: Path, isolated_home: Path
) -> None:
    gemini = made(isolated_home, ".gemini")
    (set_root / "prompts/fix.md").write_text("Fix $1 with ${@:2}\n")
    result = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "prompt:fix: not written for Gemini CLI: it uses $1" in result.stderr
    assert not (gemini / "commands/fix.toml").exists()
    # counted with the items Gemini CLI has no place for (notify, dark), not left out
    assert "1 to link, 3 skipped" in result.output
    plan = json.loads(ext("--set", str(set_root), "--host", "gemini", "--json", "install").stdout)
    assert {"action": "skip", "path": "commands/fix.toml"}.items() <= next(
        a for a in plan["actions"] if a["path"] == "commands/fix.toml"
    ).items()


def test_undo_takes_back_a_host_install(set_root: Path, isolated_home: Path) -> None:
    gemini = made(isolated_home, ".gemini")
    ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    result = ext("--set", str(set_root), "--host", "gemini", "undo", "--yes")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in gemini.iterdir()) == [".extset"]


SERVED = '[set]\nname = "tools"\n[hosts]\nserve = ["pi", "claude", "codex", "gemini"]\n'


def test_a_set_that_serves_hosts_installs_into_each_and_one_skill_is_found_once(
    set_root: Path, isolated_home: Path
) -> None:
    (set_root / "extset.toml").write_text(SERVED)
    claude, codex = made(isolated_home, ".claude"), made(isolated_home, ".codex")
    result = ext("--set", str(set_root), "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (claude / "skills/review").is_symlink() and (codex / "prompts/fix.md").is_symlink()
    assert (isolated_home / ".agents/skills/review").is_symlink()
    pi_dir = isolated_home / ".local/share/extset/agent"
    assert (pi_dir / "prompts/fix.md").is_symlink()
    assert (pi_dir / "skills/review").is_symlink(), "pi loads one real file once: no twin"
    assert "Gemini CLI's dir ~/.gemini (default) does not exist: passed over" in result.stderr
    listed = json.loads(ext("--set", str(set_root), "--json", "list").stdout)["hosts"]
    assert set(listed) == {"pi", "claude", "codex", "gemini"}
    gemini_like = next(i for i in listed["claude"]["items"] if i["name"] == "review")
    assert gemini_like["state"] == "enabled"
    assert "skipped" in listed["gemini"]
    undone = ext("--set", str(set_root), "undo", "--yes")
    assert undone.exit_code == 0, undone.stderr
    assert (
        not (claude / "skills").exists() and not (isolated_home / ".agents/skills/review").exists()
    )


def test_a_served_run_heads_each_agents_results_on_stdout(
    set_root: Path, isolated_home: Path
) -> None:
    """stdout alone (`ext install --yes > log`) tells whose each plan and `done:` line is: in a
    run over the agents a set serves, each agent dir's heading goes there; a run on one dir
    keeps it on stderr, beside its result."""
    (set_root / "extset.toml").write_text(SERVED)
    made(isolated_home, ".claude"), made(isolated_home, ".codex")
    heads = [  # Codex CLI first: its skill folder is one others read
        "Codex CLI's dir ~/.codex (from its default)",
        "agent dir ~/.local/share/extset/agent (ext's isolated default)",
        "Claude Code's dir ~/.claude (from its default)",
    ]
    # each agent's plan, then each one's `done:` (a no-op: its `nothing to do` alone)
    for verb, times in (("install", 2), ("install", 1), ("uninstall", 2)):
        result = ext("--set", str(set_root), verb, "--yes")
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        said = [line for line in lines if line in heads]
        assert said == heads * times, result.stdout
        results = [i for i, line in enumerate(lines) if line.startswith(("done:", "nothing"))]
        assert [lines[i - 1] for i in results] == heads, result.stdout
        assert not any(h in result.stderr for h in heads), result.stderr
    one = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert "Claude Code's dir ~/.claude (from its default)" in one.stderr
    assert "Claude Code's dir" not in one.stdout


def test_doctor_checks_each_agent_a_set_serves(set_root: Path, isolated_home: Path) -> None:
    """A trial: with `serve` naming five agents, `ext doctor` checked pi's dir alone (exit 0),
    while OpenCode warned of a duplicate skill. Each served agent is checked, each under its
    dir's heading; --json keeps `ok` and `checks` (each check naming its host) for the
    automation that reads them, and each agent's document under `hosts`."""
    (set_root / "extset.toml").write_text(SERVED)
    made(isolated_home, ".claude"), made(isolated_home, ".codex")
    assert ext("--set", str(set_root), "install", "--yes").exit_code == 0

    text = ext("--set", str(set_root), "-q", "doctor")
    heads = [ln for ln in text.stdout.splitlines() if "dir " in ln and not ln.startswith(" ")]
    assert heads[:3] == [
        "Codex CLI's dir ~/.codex",
        "agent dir ~/.local/share/extset/agent",
        "Claude Code's dir ~/.claude",
    ], text.stdout
    checked = ext("--set", str(set_root), "--json", "doctor")
    data = json.loads(checked.stdout)
    assert set(data["hosts"]) == {"pi", "claude", "codex", "gemini"}
    assert {c["host"] for c in data["checks"]} >= {"pi", "claude", "codex"}
    assert data["ok"] is (checked.exit_code == 0)
    one = json.loads(ext("--set", str(set_root), "--host", "claude", "--json", "doctor").stdout)
    assert one["host"] == "claude" and "hosts" not in one  # one agent named: one document
    assert "skipped" in data["hosts"]["gemini"]  # no ~/.gemini: passed over, as install does
    assert "Gemini CLI's dir ~/.gemini (default) does not exist: passed over" in text.stderr
    listed = json.loads(ext("--set", str(set_root), "--json", "doctor", "--list-checks").stdout)
    assert "ok" not in listed and listed["checks"]  # helper-87: a list said `"ok": false`


def test_a_served_dry_run_plans_what_the_run_then_does(set_root: Path, isolated_home: Path) -> None:
    """OpenCode reads ~/.claude/skills and ~/.agents/skills, Gemini CLI the latter: planned
    before Codex CLI and Claude Code had linked the skill there, their plans linked a copy of
    their own, which the run then did not make."""
    served = SERVED.replace('"gemini"]', '"opencode", "gemini"]')
    (set_root / "extset.toml").write_text(served)
    for dir_ in (".claude", ".codex", ".config/opencode", ".gemini"):
        made(isolated_home, dir_)

    planned = json.loads(ext("--set", str(set_root), "--json", "install", "--dry-run").stdout)
    done = json.loads(ext("--set", str(set_root), "--json", "install", "--yes").stdout)

    def steps(doc: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
        return {
            h: [(a["action"], a["path"]) for a in d["actions"]] for h, d in doc["hosts"].items()
        }

    assert steps(planned) == steps(done)
    assert ("skip", "skills/review") in steps(done)["opencode"]  # read from a shared folder
    assert not (isolated_home / ".config/opencode/skills/review").exists()


def test_a_host_served_before_the_one_whose_folder_it_reads_plans_as_it_runs(
    set_root: Path, isolated_home: Path
) -> None:
    """serve = [opencode, claude]: Claude Code goes first (OpenCode reads its folder), so
    OpenCode reads the skill from there, in the plan as in the run, and on every run."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "tools"\n[hosts]\nserve = ["opencode", "claude"]\n'
    )
    opencode = made(isolated_home, ".config/opencode")
    made(isolated_home, ".claude")

    planned = json.loads(ext("--set", str(set_root), "--json", "install", "--dry-run").stdout)
    done = json.loads(ext("--set", str(set_root), "--json", "install", "--yes").stdout)
    again = json.loads(ext("--set", str(set_root), "--json", "install", "--yes").stdout)

    assert list(done["hosts"]) == ["claude", "opencode"]
    assert planned["hosts"]["opencode"]["actions"] == done["hosts"]["opencode"]["actions"]
    assert not (opencode / "skills/review").exists()
    assert again["changed"] is False


def test_a_skill_the_host_before_keeps_parked_is_linked_for_the_host_that_reads_it(
    set_root: Path, isolated_home: Path
) -> None:
    """Disabled for Codex CLI (parked in ~/.agents/skills/.off), the skill is not read from
    ~/.agents/skills by Gemini CLI: a served install links Gemini's own, and keeps it."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "tools"\n[hosts]\nserve = ["codex", "gemini"]\n'
    )
    made(isolated_home, ".codex")
    gemini = made(isolated_home, ".gemini")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    at = ("--set", str(set_root), "--host", "codex")
    assert ext(*at, "disable", "skill:review", "--yes").exit_code == 0

    for _ in range(2):  # and again: no flip between runs
        done = ext("--set", str(set_root), "install", "--yes")
        assert done.exit_code == 0, done.stderr
        assert (gemini / "skills/review").is_symlink()


def test_an_uninstall_from_every_host_served_tells_none_to_install_again(
    set_root: Path, isolated_home: Path
) -> None:
    """Codex CLI's uninstall takes ~/.agents/skills/review, which Gemini CLI reads: in a run
    that uninstalls from Gemini CLI too, no line tells it to install the skill again."""
    (set_root / "extset.toml").write_text(SERVED)
    made(isolated_home, ".claude"), made(isolated_home, ".codex"), made(isolated_home, ".gemini")
    assert ext("--set", str(set_root), "install", "--yes").exit_code == 0

    gone = ext("--set", str(set_root), "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    assert "loses it" not in gone.stderr and "install` after this" not in gone.stderr
    assert not (isolated_home / ".agents/skills/review").exists()


def test_a_named_host_or_dir_installs_there_alone(set_root: Path, isolated_home: Path) -> None:
    (set_root / "extset.toml").write_text(SERVED)
    claude = made(isolated_home, ".claude")
    made(isolated_home, ".codex")
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (claude / "skills/review").is_symlink()
    assert not (isolated_home / ".agents").exists()


def test_a_host_dir_that_is_a_link_to_a_dotfiles_repo_is_followed(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    dotfiles = made(tmp_path, "dotfiles/claude")
    (isolated_home / ".claude").symlink_to(dotfiles)
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (dotfiles / "skills/review").is_symlink()
    assert (isolated_home / ".claude").is_symlink(), "the user's link stays as it is"


def test_a_folder_inside_the_host_dir_that_is_a_link_ext_did_not_make_is_never_written_through(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    claude = made(isolated_home, ".claude")
    elsewhere = made(tmp_path, "dotfiles/skills")
    (claude / "skills").symlink_to(elsewhere)
    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert result.exit_code == 1
    assert "is a symlink" in result.stderr and "ext never writes through it" in result.stderr
    assert list(elsewhere.iterdir()) == []
    # A trial: the fix was `rm … && mkdir …`, which left Claude Code without the commands kept
    # in the dotfiles folder. It keeps them, copied into the real folder.
    assert (
        "fix: make it a real folder holding the same files: rm ~/.claude/skills && "
        f"mkdir ~/.claude/skills && cp -a {elsewhere}/. ~/.claude/skills/, then run ext again"
    ) in result.stderr


def test_a_skill_the_host_will_not_load_is_said_at_install_and_in_the_list(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".gemini")
    (set_root / "skills/review/SKILL.md").write_text("---\nname: review\n---\nNo description.\n")
    result = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (
        "skill:review: Gemini CLI does not load it: its SKILL.md has no description in its "
        "frontmatter" in result.stderr
    )
    listed = json.loads(ext("--set", str(set_root), "--host", "gemini", "--json", "list").stdout)
    review = next(i for i in listed["items"] if i["name"] == "review")
    assert "does not load" in review["note"]


def test_a_skill_name_two_sets_share_is_refused_in_a_host_as_in_pi(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    made(isolated_home, ".codex")
    other = build_tree(
        tmp_path / "other",
        {
            "extset.toml": '[set]\nname = "other"\n',
            "skills/critic/SKILL.md": "---\nname: review\ndescription: Also review.\n---\nx\n",
        },
    )
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    result = ext("--set", str(other), "--host", "codex", "install", "--yes")
    assert result.exit_code == 3
    assert "skill:critic: another set ext installed here, 'tools'" in result.stderr


def test_gemini_reads_the_shared_skills_folder_under_its_own_home(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """GEMINI_CLI_HOME moves the `.agents/skills` Gemini CLI reads too (test_host_facts.py):
    a skill in HOME's, linked there for Codex CLI, is not one Gemini CLI sees."""
    made(isolated_home, ".codex")
    gem_home = tmp_path / "gem"
    made(gem_home, ".gemini")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    env = {"GEMINI_CLI_HOME": str(gem_home)}
    result = ext("--set", str(set_root), "--host", "gemini", "install", "--yes", env=env)
    assert result.exit_code == 0, result.stderr
    assert (gem_home / ".gemini/skills/review").is_symlink()


def test_a_served_install_shows_every_plan_then_asks_once(
    set_root: Path, isolated_home: Path
) -> None:
    import sys

    import pexpect

    (set_root / "extset.toml").write_text(SERVED)
    claude, codex = made(isolated_home, ".claude"), made(isolated_home, ".codex")
    env = {**os.environ, "NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}
    script = str(Path(sys.executable).with_name("ext"))
    child = pexpect.spawn(script, ["--set", str(set_root), "install"], env=env, encoding="utf-8")
    child.expect(r"Apply these changes\? \[y/N\] ", timeout=60)
    shown = child.before
    assert shown.count("to link") == 3, (
        "pi's, Codex CLI's and Claude Code's plans, then one question"
    )
    assert not (claude / "skills").exists(), "nothing is written before the answer"
    child.sendline("y")
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 0, child.before
    assert child.before.count("done:") == 3
    assert (claude / "skills/review").is_symlink() and (codex / "prompts/fix.md").is_symlink()


def test_a_served_install_declined_writes_nothing_anywhere(
    set_root: Path, isolated_home: Path
) -> None:
    import sys

    import pexpect

    (set_root / "extset.toml").write_text(SERVED)
    claude = made(isolated_home, ".claude")
    env = {**os.environ, "NO_COLOR": "1", "EXT_NO_UPDATE_CHECK": "1"}
    script = str(Path(sys.executable).with_name("ext"))
    child = pexpect.spawn(script, ["--set", str(set_root), "install"], env=env, encoding="utf-8")
    child.expect(r"Apply these changes\? \[y/N\] ", timeout=60)
    child.sendline("n")
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 3
    assert sorted(p.name for p in claude.iterdir()) == []
    assert not (isolated_home / ".agents").exists()


@pytest.mark.parametrize(
    ("host", "leaf", "named"),
    [
        ("claude", ".claude", None),
        ("codex", ".codex", "brand-guidelines"),
        ("opencode", ".config/opencode", "brand-guidelines"),
        ("gemini", ".gemini", "brand-guidelines"),
    ],
)
def test_list_gives_the_name_the_host_gives_a_renamed_skill(
    set_root: Path, isolated_home: Path, host: str, leaf: str, named: str | None
) -> None:
    """A skill whose frontmatter `name` is not its folder's is loaded by that name, except in
    Claude Code, which names it by its folder (tests/e2e/test_host_facts.py): the list's
    `host_name` says so, so that ext's list and the host's own name the same item."""
    build_tree(
        set_root, {"skills/brand/SKILL.md": "---\nname: brand-guidelines\ndescription: B.\n---\n"}
    )
    made(isolated_home, leaf)
    result = ext("--set", str(set_root), "--host", host, "--json", "list")
    assert result.exit_code == 0, result.stderr
    by_name = {i["name"]: i for i in json.loads(result.stdout)["items"]}
    assert by_name["brand"].get("host_name") == named
    assert "host_name" not in by_name["review"]  # its frontmatter name is its folder's


@pytest.mark.parametrize(
    ("host", "leaf", "refuses", "as_command"),
    [
        ("claude", ".claude", set(), {"draft", "plain", "emptyval", "tilde", "badyaml"}),
        ("codex", ".codex", {"draft", "plain", "emptyval", "tilde", "badyaml"}, set()),
        ("opencode", ".config/opencode", {"plain", "emptyval", "tilde", "badyaml"}, set()),
        ("gemini", ".gemini", {"draft", "plain"}, set()),
    ],
)
def test_list_says_which_skills_a_host_skips_or_takes_as_a_command(
    set_root: Path,
    isolated_home: Path,
    host: str,
    leaf: str,
    refuses: set[str],
    as_command: set[str],
) -> None:
    """A SKILL.md with no description, or no frontmatter at all, is skipped by Codex CLI and
    Gemini CLI, by OpenCode when it has no frontmatter, and offered by Claude Code as a
    slash command only; an empty or null one is no description to Claude Code and Codex
    CLI, is one to Gemini CLI, and keeps OpenCode from loading it, as one YAML cannot read
    does (tests/conformance/test_hosts_conformance.py, on the real binaries; helper-78). A
    quote that never closes: Claude Code offers a command only, Codex CLI and OpenCode skip
    it, Gemini CLI loads it."""
    build_tree(
        set_root,
        {
            "skills/draft/SKILL.md": "---\nname: draft\n---\nNo description.\n",
            "skills/plain/SKILL.md": "No frontmatter.\n",
            # helper-77: a description YAML cannot read is no missing one; hosts differ on it
            "skills/badyaml/SKILL.md": '---\nname: badyaml\ndescription: "open\n---\n',
            # ... while an empty or null one is missing (helper-78)
            "skills/emptyval/SKILL.md": "---\nname: emptyval\ndescription:\n---\n",
            "skills/tilde/SKILL.md": "---\nname: tilde\ndescription: ~ # later\n---\n",
        },
    )
    made(isolated_home, leaf)
    result = ext("--set", str(set_root), "--host", host, "--json", "list")
    assert result.exit_code == 0, result.stderr
    by_name = {i["name"]: i for i in json.loads(result.stdout)["items"]}
    assert {n for n, i in by_name.items() if "host_refuses" in i} == refuses
    assert {n for n, i in by_name.items() if i.get("host_kind") == "command"} == as_command
    for name in refuses | as_command:
        assert "its SKILL.md has " in by_name[name]["note"] or (
            name == "badyaml"
            and "quote for `description` that never closes" in by_name[name]["note"]
        )
    assert "note" not in by_name["review"]
    if "badyaml" not in refuses | as_command:  # loaded (Gemini CLI)
        assert "note" not in by_name["badyaml"]


def test_install_warns_of_a_skill_the_host_will_skip(set_root: Path, isolated_home: Path) -> None:
    build_tree(set_root, {"skills/draft/SKILL.md": "---\nname: draft\n---\nNo description.\n"})
    made(isolated_home, ".gemini")
    result = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    assert result.exit_code == 0, result.stderr
    assert (
        "skill:draft: Gemini CLI does not load it: its SKILL.md has no description" in result.stderr
    )
    assert "skill:review:" not in result.stderr


def test_a_served_install_plans_every_host_before_it_writes_any(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """With --yes too: a host that cannot be planned (a folder that is a link ext did not
    make) stops the run before the first host is written."""
    (set_root / "extset.toml").write_text(SERVED)
    claude, codex = made(isolated_home, ".claude"), made(isolated_home, ".codex")
    gemini = made(isolated_home, ".gemini")
    (gemini / "skills").symlink_to(made(tmp_path, "dotfiles-skills"))
    result = ext("--set", str(set_root), "install", "--yes")
    assert result.exit_code == 1
    assert "is a symlink" in result.stderr
    assert list(claude.iterdir()) == [] and list(codex.iterdir()) == []
    assert not (isolated_home / ".agents").exists()
    assert not (isolated_home / ".local/share/extset/agent/skills").exists()


def test_a_served_install_as_json_is_one_document_with_changed(
    set_root: Path, isolated_home: Path
) -> None:
    (set_root / "extset.toml").write_text(SERVED)
    made(isolated_home, ".claude")
    made(isolated_home, ".codex")
    first = json.loads(ext("--set", str(set_root), "--json", "install", "--yes").stdout)
    again = json.loads(ext("--set", str(set_root), "--json", "install", "--yes").stdout)
    assert first["changed"] is True and first["dry_run"] is False
    assert set(first["hosts"]) == {"pi", "claude", "codex", "gemini"}
    assert first["hosts"]["claude"]["changed"] is True
    assert again["changed"] is False


def test_a_skill_read_from_a_shared_folder_is_switched_by_its_owner_not_linked_here(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".codex")
    opencode = made(isolated_home, ".config/opencode")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    assert ext("--set", str(set_root), "--host", "opencode", "install", "--yes").exit_code == 0
    off = ext("--set", str(set_root), "--host", "opencode", "disable", "review", "--yes")
    on = ext("--set", str(set_root), "--host", "opencode", "enable", "review", "--yes")
    assert off.exit_code == 3 and "not switched, nothing written: skill:review" in off.stderr
    assert f"`ext --set {set_root} --host codex install --skip skill:review`" in off.stderr
    assert on.exit_code == 0 and "skill:review is already enabled" in on.stderr
    assert not (opencode / "skills/review").exists(), "an enable here would load it twice"


def test_doctor_says_what_no_install_fixes_with_the_fix_that_does(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".gemini")
    (set_root / "skills/review/SKILL.md").write_text("---\nname: review\n---\nNo description.\n")
    (set_root / "prompts/pick.md").write_text("Fix $1\n")
    ext("--set", str(set_root), "--host", "gemini", "install", "--yes")
    found = json.loads(ext("--set", str(set_root), "--host", "gemini", "--json", "doctor").stdout)
    says = {c["message"]: c.get("fix", "") for c in found["checks"] if c["id"] == "host.items"}
    refused = next(m for m in says if m.startswith("skill:review:"))
    assert "does not load it" in refused and "SKILL.md what it lacks" in says[refused]
    unwritten = next(m for m in says if m.startswith("not written for Gemini CLI: prompt:pick"))
    assert "--skip prompt:pick" in says[unwritten]


def test_a_skill_opencode_finds_in_two_shared_folders_is_said_with_its_switch(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".claude")
    made(isolated_home, ".codex")
    made(isolated_home, ".config/opencode")
    for host in ("claude", "codex"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0
    result = ext("--set", str(set_root), "--host", "opencode", "install", "--yes")
    assert (
        "skill:review: OpenCode finds it in ~/.claude/skills and ~/.agents/skills" in result.stderr
    )
    assert "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS=1" in result.stderr
    found = json.loads(ext("--set", str(set_root), "--host", "opencode", "--json", "doctor").stdout)
    twice = [c for c in found["checks"] if "finds it in" in c["message"]]
    assert twice and twice[0]["level"] == "warn" and "OPENCODE_DISABLE" in twice[0]["fix"]


def test_with_the_switch_it_recommends_set_opencode_reads_one_shared_folder_and_ext_knows(
    set_root: Path, isolated_home: Path
) -> None:
    """OPENCODE_DISABLE_CLAUDE_CODE_SKILLS=1: OpenCode reads ~/.agents/skills alone (pinned on
    the real binary): no duplicate to report, and it reads the skill from there."""
    for dir_ in (".claude", ".codex", ".config/opencode"):
        made(isolated_home, dir_)
    for host in ("claude", "codex"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0
    switched = {"OPENCODE_DISABLE_CLAUDE_CODE_SKILLS": "1"}

    result = ext("--set", str(set_root), "--host", "opencode", "install", "--yes", env=switched)

    assert result.exit_code == 0, result.stderr
    assert "finds it in" not in result.stderr
    assert "reads it from ~/.agents/skills" in result.stderr
    assert "~/.claude/skills" not in result.stderr


def test_a_pi_extension_named_for_another_host_is_said_to_be_pis(
    set_root: Path, isolated_home: Path
) -> None:
    made(isolated_home, ".claude")
    ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    result = ext("--set", str(set_root), "--host", "claude", "disable", "notify", "--yes")
    assert result.exit_code == 2
    assert "notify is not installed into Claude Code: an extension runs inside pi only" in (
        result.stderr
    )


@pytest.mark.parametrize(("host", "leaf"), [("opencode", "opencode"), ("gemini", ".gemini")])
def test_a_dir_the_host_can_never_be_pointed_at_is_refused_before_a_write(
    tmp_path: Path, host: str, leaf: str
) -> None:
    """OpenCode reads `opencode` inside XDG_CONFIG_HOME, Gemini CLI `.gemini` inside
    GEMINI_CLI_HOME: a dir named otherwise is one neither reads, whatever ext writes there."""
    root = build_tree(
        tmp_path / "set", {"skills/a/SKILL.md": "---\nname: a\ndescription: a\n---\n"}
    )
    agent = tmp_path / "x" / "oc"
    agent.mkdir(parents=True)

    done = CliRunner().invoke(
        app, ["--set", str(root), "--host", host, "--agent-dir", str(agent), "install", "--yes"]
    )

    assert done.exit_code == 2, done.output
    assert "is named oc" in done.stderr and f"--agent-dir {tmp_path / 'x' / leaf}" in done.stderr
    assert list(agent.iterdir()) == []


def test_uninstall_from_a_second_codex_dir_leaves_the_shared_skill_to_the_first(
    set_root: Path, isolated_home: Path
) -> None:
    """Both Codex dirs read ~/.agents/skills: the second's uninstall takes its prompts, and
    leaves the skill link the first dir still reads."""
    made(isolated_home, ".codex")
    alt = made(isolated_home, "alt")
    at = ("--set", str(set_root), "--host", "codex")
    assert ext(*at, "install", "--yes").exit_code == 0
    assert ext(*at, "--agent-dir", str(alt), "install", "--yes").exit_code == 0

    skipped = ext(*at, "--agent-dir", str(alt), "install", "--skip", "skill:review", "--yes")
    assert skipped.exit_code == 0, skipped.stderr
    assert (isolated_home / ".agents/skills/review").is_symlink()  # ~/.codex reads it still
    gone = ext(*at, "--agent-dir", str(alt), "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    assert (isolated_home / ".agents/skills/review").is_symlink()
    assert not (alt / "prompts/fix.md").exists()
    listed = json.loads(ext(*at, "--json", "list").stdout)
    assert {i["name"]: i["state"] for i in listed["items"]} == {
        "review": "enabled",
        "fix": "enabled",
    }
    last = ext(*at, "uninstall", "--yes")  # the last dir that holds it: the link goes now
    assert last.exit_code == 0 and not (isolated_home / ".agents/skills/review").exists()


def test_codex_s_longest_skill_name_is_said_at_install_and_in_list(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Codex CLI refuses a skill whose name is over 64 characters (pinned on the binary in
    tests/e2e/test_host_facts.py): install warns, list notes it, none says it loads."""
    name = "l" * 65
    root = build_tree(
        tmp_path / "set", {"skills/long/SKILL.md": f"---\nname: {name}\ndescription: d\n---\n"}
    )
    made(isolated_home, ".codex")
    why = "Codex CLI does not load it: its name is 65 characters long, over its 64"

    done = ext("--set", str(root), "--host", "codex", "install", "--yes")
    listed = json.loads(ext("--set", str(root), "--host", "codex", "--json", "list").stdout)

    assert done.exit_code == 0, done.stderr
    assert f"warning: skill:long: {why}" in done.stderr
    assert [i.get("host_refuses") for i in listed["items"]] == [why]


@pytest.mark.parametrize("host", ["opencode", "gemini"])
def test_a_skill_whose_name_the_host_finds_in_a_shared_folder_is_said(
    tmp_path: Path, isolated_home: Path, host: str
) -> None:
    """Another set's `review`, linked for Codex CLI into ~/.agents/skills, which OpenCode and
    Gemini CLI read: this set's `review` in their own folder is a collision (Gemini CLI says
    `Skill conflict detected`). Said with the way out, as pi's shared twins are; a twin the
    host would not load (no frontmatter) is none."""
    first = build_tree(tmp_path / "first", dict(SET))
    second = build_tree(
        tmp_path / "second",
        {
            "extset.toml": '[set]\nname = "second"\n',
            "skills/review/SKILL.md": "---\nname: review\ndescription: Another.\n---\nR.\n",
            "skills/other/SKILL.md": "---\nname: other\ndescription: Other.\n---\nO.\n",
        },
    )
    made(isolated_home, ".codex")
    config = made(isolated_home, {"opencode": ".config/opencode", "gemini": ".gemini"}[host])
    build_tree(isolated_home, {".agents/skills/other/SKILL.md": "no frontmatter\n"})
    assert ext("--set", str(first), "--host", "codex", "install", "--yes").exit_code == 0

    done = ext("--set", str(second), "--host", host, "install", "--yes")

    assert done.exit_code == 0, done.output
    [said] = [line for line in done.stderr.splitlines() if "reports a collision" in line]
    assert said.startswith("warning: skill:review: ") and "~/.agents/skills" in said
    assert said.endswith("install --skip skill:review`), or rename one of the two")
    assert (config / "skills/other").is_symlink()
    again = ext("--set", str(second), "--host", host, "install", "--yes")  # a no-op: nothing new
    assert "collision" not in again.stderr


def test_a_disable_for_claude_says_opencode_still_loads_the_parked_skill(
    set_root: Path, isolated_home: Path
) -> None:
    """OpenCode reads ~/.claude/skills with its hidden folders (reads_hidden, pinned on the
    real binary): parked in skills/.off/, the skill is still OpenCode's. Said where OpenCode is
    in use (its dir exists), with the way to take it from both."""
    made(isolated_home, ".claude")
    at = ("--set", str(set_root), "--host", "claude")
    assert ext(*at, "install", "--yes").exit_code == 0
    quiet = ext(*at, "disable", "skill:review", "--dry-run")
    made(isolated_home, ".config/opencode")

    said = ext(*at, "disable", "skill:review", "--dry-run")

    assert "OpenCode" not in quiet.stderr
    assert (
        "warning: skill:review: OpenCode reads ~/.claude/skills, hidden folders too, and still "
        "loads it from ~/.claude/skills/.off/review; for OpenCode to lose it, remove that link "
        "(`rm ~/.claude/skills/.off/review`: only the link goes) and leave it out of Claude "
        "Code's installs from then on "
        f"(`ext --set {set_root} --host claude install --skip skill:review`)"
    ) in said.stderr.splitlines()


def test_a_backup_in_a_folder_opencode_reads_is_said_and_a_codex_park_too(
    set_root: Path, isolated_home: Path
) -> None:
    """The user's own ~/.claude/skills/review, backed up into skills/.bak/ by the install, is
    one OpenCode goes on loading; so is a skill parked for Codex CLI in ~/.agents/skills/.off."""
    made(isolated_home, ".config/opencode")
    made(isolated_home, ".codex")
    build_tree(isolated_home, {".claude/skills/review/SKILL.md": "---\nname: review\n---\nMine\n"})

    claude = ext("--set", str(set_root), "--host", "claude", "install", "--yes")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    codex = ext("--set", str(set_root), "--host", "codex", "disable", "skill:review", "--yes")

    [backup] = (isolated_home / ".claude/skills/.bak").iterdir()
    assert (
        f"warning: skill:review: OpenCode reads ~/.claude/skills, hidden folders too, and still "
        f"loads it from ~/.claude/skills/.bak/{backup.name}: move that backup out of the folder"
    ) in claude.stderr.splitlines()
    said = unwrapped(codex.stderr)
    assert "loads it from ~/.agents/skills/.off/review, and from ~/.claude/skills/review" in said
    assert "; for OpenCode to lose it" in said


def test_a_host_variable_is_read_with_no_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: reading CLAUDE_CONFIG_DIR asked for the working folder, which a script may have
    deleted under ext (Env.cwd None): `No such file or directory`, exit 1."""
    from installer.ground.context import Env
    from installer.hosts.dirs import host_dir
    from installer.hosts.table import HOSTS

    def gone() -> Path:
        raise FileNotFoundError("the working folder was deleted")

    monkeypatch.setattr(Path, "cwd", staticmethod(gone))
    env = Env(environ={"CLAUDE_CONFIG_DIR": str(tmp_path / "cc"), "HOME": str(tmp_path)}, cwd=None)
    assert host_dir(env, HOSTS["claude"]) == (tmp_path / "cc", "CLAUDE_CONFIG_DIR")


def test_doctor_for_another_host_names_that_host_in_the_command_for_a_name_another_set_took(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """A trial (helper-23): under Claude Code's heading, doctor's fix for a skill another
    set of the user's installed first was `ext --set OTHER --agent-dir ~/.claude uninstall`,
    which without --host takes ~/.claude for a pi dir."""
    made(isolated_home, ".claude")
    other = build_tree(tmp_path / "other", {**SET, "extset.toml": '[set]\nname = "other"\n'})
    assert ext("--set", str(other), "--host", "claude", "install", "--yes").exit_code == 0
    skip = ("--skip", "review,prompt:fix")
    mine = ext("--set", str(set_root), "--host", "claude", "install", "--yes", *skip)
    assert mine.exit_code == 0, mine.stderr  # the other set's review stays
    data = json.loads(ext("--set", str(set_root), "--host", "claude", "--json", "doctor").stdout)
    [row] = [c for c in data["checks"] if "another set ext installed here" in c["message"]][:1]
    assert f"`ext --set {other} --host claude --agent-dir ~/.claude uninstall`" in row["fix"]


def test_an_uninstall_names_the_agent_that_does_not_load_the_backup_it_leaves(
    set_root: Path, isolated_home: Path
) -> None:
    """A trial (helper-28): Claude Code's uninstall said of the user's backed-up skill that
    "pi does not load it"."""
    claude = made(isolated_home, ".claude")
    (claude / "skills/review").mkdir(parents=True)
    (claude / "skills/review/SKILL.md").write_text("---\ndescription: Mine.\n---\nMine.\n")
    assert ext("--set", str(set_root), "--host", "claude", "install", "--yes").exit_code == 0

    gone = ext("--set", str(set_root), "--host", "claude", "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    said = " ".join(gone.stdout.split() + gone.stderr.split())
    assert "(Claude Code does not load it; rename it back to skills/review to use it)" in said
    assert "pi does not load" not in said


def test_another_host_s_list_carries_no_note_of_pi_s_shared_folders(
    set_root: Path, isolated_home: Path
) -> None:
    """A trial (helper-28): Claude Code's list said of a skill that pi loads the set's copy,
    "warns of a collision" with the one in ~/.agents/skills, and to disable it there: pi's
    rules, for an agent that names skills by folder and does not read that folder."""
    for twin in ("twin-a", "twin-b"):
        build_tree(
            set_root / "skills" / twin, {"SKILL.md": "---\nname: twin\ndescription: T.\n---\n"}
        )
    made(isolated_home, ".codex")
    made(isolated_home, ".claude")
    for host in ("codex", "claude"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0

    listed = ext("--set", str(set_root), "--host", "claude", "list")

    assert listed.exit_code == 0, listed.stderr
    assert "pi loads" not in listed.stdout and "collision" not in listed.stdout


def test_a_link_back_up_inside_a_skill_folder_is_said_when_the_skill_is_linked(
    set_root: Path, isolated_home: Path
) -> None:
    """A trial (helper-28): `skills/loopy/up -> ..` was linked into Claude Code without a
    word; OpenCode, which reads ~/.claude/skills and follows links, then hung (or found the
    skill 33 times). pi stops at a skill's folder (its loader, asked, loads it once)."""
    (set_root / "skills/review/up").symlink_to("..")
    (set_root / "skills/review/refs").mkdir()
    (set_root / "skills/review/refs/self").symlink_to(".")
    (set_root / "skills/review/refs/sibling").symlink_to("../SKILL.md")  # no loop: a file
    made(isolated_home, ".claude")

    result = ext("--set", str(set_root), "--host", "claude", "install", "--yes")

    assert result.exit_code == 0, result.stderr
    said = unwrapped(result.stderr)
    for rel in ("refs/self", "up"):
        assert (
            f"skill:review: skills/review/{rel} is a link back to a folder above it: an agent "
            "that follows links (OpenCode) walks it round and round; remove it or point it "
            f"elsewhere: rm {set_root}/skills/review/{rel}"
        ) in said
    assert "refs/sibling is a link back" not in said


def test_opencode_s_doctor_names_the_backups_and_parked_skills_it_loads(
    set_root: Path, isolated_home: Path
) -> None:
    """A trial (helper-28): Codex's install backed the user's own ~/.agents/skills/review up
    into ~/.agents/skills/.bak/, where OpenCode, reading hidden folders, loaded it in place
    of the set's four runs in five; `doctor --deep` said so only when OpenCode happened to
    pick it. doctor, not deep, now names each such backup or parked skill with the mv."""
    build_tree(isolated_home / ".agents/skills/review", {"SKILL.md": "---\nname: review\n---\n"})
    made(isolated_home, ".codex")
    made(isolated_home, ".config/opencode")
    assert ext("--set", str(set_root), "--host", "codex", "install", "--yes").exit_code == 0
    [backup] = (isolated_home / ".agents/skills/.bak").iterdir()

    found = json.loads(ext("--set", str(set_root), "--host", "opencode", "--json", "doctor").stdout)

    said = [c for c in found["checks"] if c["id"] == "host.items" and c["level"] == "warn"]
    shown = f"~/.agents/skills/.bak/{backup.name}"
    assert [(c["message"], c["fix"]) for c in said if ".bak/" in c["message"]] == [
        (
            f"{shown}: a backup, which OpenCode loads all the same: it reads hidden folders of "
            "~/.agents/skills",
            f"move it out of ~/.agents/skills: mv {shown} ~/.agents/",
        )
    ]


def test_opencode_s_doctor_fix_for_a_skill_claude_code_keeps_parked_keeps_it_off(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-55: doctor's `mv ~/.claude/skills/.off/review ~/.claude/` took the user's
    disable away: Claude Code's next install linked it again, on. The fix is list's: remove
    the link, and leave it out of Claude Code's installs from then on."""
    made(isolated_home, ".claude")
    made(isolated_home, ".config/opencode")
    claude = ("--set", str(set_root), "--host", "claude")
    assert ext(*claude, "install", "--yes").exit_code == 0
    assert ext(*claude, "disable", "skill:review", "--yes").exit_code == 0

    found = json.loads(ext("--set", str(set_root), "--host", "opencode", "--json", "doctor").stdout)

    [fix] = [c["fix"] for c in found["checks"] if "/.off/review" in c["message"]]
    assert fix == (
        "`rm ~/.claude/skills/.off/review` (only the link goes), and pass --skip skill:review "
        "to each `ext --host claude install` after"
    )
    os.unlink(isolated_home / ".claude/skills/.off/review")
    assert ext(*claude, "install", "--skip", "skill:review", "--yes").exit_code == 0
    assert not os.path.lexists(isolated_home / ".claude/skills/review")


def test_a_written_command_of_a_prompt_the_set_dropped_is_removed(
    set_root: Path, isolated_home: Path
) -> None:
    """A review (helper-33): after prompts/fix.md left the set, Gemini CLI's
    commands/fix.toml, written by ext, stayed: loaded by Gemini, listed nowhere, and left by
    an uninstall too. One the user edited since is theirs and stays."""
    gemini = made(isolated_home, ".gemini")
    (set_root / "prompts/keep.md").write_text("Keep it.\n")
    assert ext("--set", str(set_root), "--host", "gemini", "install", "--yes").exit_code == 0
    assert (gemini / "commands/fix.toml").is_file()
    (set_root / "prompts/fix.md").unlink()
    (set_root / "prompts/keep.md").unlink()
    (gemini / "commands/keep.toml").write_text('prompt = "mine now"\n')

    again = ext("--set", str(set_root), "--host", "gemini", "install", "--yes")

    assert again.exit_code == 0, again.stderr
    assert not (gemini / "commands/fix.toml").exists()
    assert (gemini / "commands/keep.toml").read_text() == 'prompt = "mine now"\n'
    assert ext("--set", str(set_root), "--host", "gemini", "install").stdout.startswith(
        "nothing to do"
    )


def test_another_host_says_an_extension_is_pi_s_even_with_another_set_here(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """helper-36: with two sets in Claude Code's dir, each said of the extension `notify`
    that it was the other set's; it is a pi extension, which Claude Code takes none of."""
    other = build_tree(
        tmp_path / "other",
        {
            "extset.toml": '[set]\nname = "other"\n',
            "extensions/notify.ts": "export default function () {}\n",
            "prompts/other-fix.md": "Fix.\n",
        },
    )
    made(isolated_home, ".claude")
    for s in (set_root, other):
        assert ext("--set", str(s), "--host", "claude", "install", "--yes").exit_code == 0

    said = ext("--set", str(other), "--host", "claude", "disable", "notify", "--yes")

    assert said.exit_code == 2
    assert "notify is not installed into Claude Code" in said.stderr, said.stderr


def test_a_prune_in_another_agent_names_the_backup_of_the_users_skill(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: the set renamed a skill whose install into Claude Code had backed up the
    user's own; the prune said nothing of it, nor did anything after."""
    claude = made(isolated_home, ".claude")
    build_tree(claude, {"skills/review/SKILL.md": "---\nname: review\ndescription: mine\n---\n"})
    at = ("--set", str(set_root), "--host", "claude")
    assert ext(*at, "install", "--yes").exit_code == 0
    [backup] = os.listdir(claude / "skills/.bak")
    (set_root / "skills/review").rename(set_root / "skills/reviewer")

    pruned = ext(*at, "install", "--yes")

    assert pruned.exit_code == 0, pruned.stderr
    assert "- prune      skills/review" in pruned.stdout
    assert (
        f"skills/review: what was there before ext stays as skills/.bak/{backup} (Claude Code "
        "does not load it; rename it back to skills/review to use it)"
    ) in unwrapped(pruned.stdout + pruned.stderr)


def test_the_uninstall_names_the_backup_of_a_gemini_command_the_user_had(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: the user's own commands/fix.toml, backed up by the install, was not named by
    the uninstall (pi's and OpenCode's backups were)."""
    gemini = made(isolated_home, ".gemini")
    build_tree(gemini, {"commands/fix.toml": 'prompt = "mine"\n'})
    at = ("--set", str(set_root), "--host", "gemini")
    assert ext(*at, "install", "--yes").exit_code == 0
    [backup] = [n for n in os.listdir(gemini / "commands") if n.startswith("fix.toml.bak.")]

    gone = ext(*at, "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    assert f"commands/fix.toml: what was there before ext stays as commands/{backup}" in (
        unwrapped(gone.stdout + gone.stderr)
    )
    assert (gemini / "commands" / backup).read_text() == 'prompt = "mine"\n'


def test_opencode_reads_a_skill_another_agent_parked_and_ext_says_so(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: once Claude Code's link was parked (skills/.off/, which OpenCode reads),
    `ext --host opencode disable` said 'now disabled' and linked a third copy, while OpenCode
    loaded the skill from Claude's folder. It is OpenCode's from Claude's folder: listed so,
    and its disable refused with the command that takes it away."""
    made(isolated_home, ".claude")
    made(isolated_home, ".config/opencode")
    claude = ("--set", str(set_root), "--host", "claude")
    opencode = ("--set", str(set_root), "--host", "opencode")
    assert ext(*claude, "install", "--yes").exit_code == 0
    assert ext(*opencode, "install", "--yes").exit_code == 0
    assert ext(*claude, "disable", "skill:review", "--yes").exit_code == 0
    assert (isolated_home / ".claude/skills/.off/review").is_symlink()

    listed = json.loads(ext(*opencode, "--json", "list").stdout)
    refused = ext(*opencode, "disable", "skill:review", "--yes")

    [item] = [i for i in listed["items"] if i["name"] == "review"]
    assert item["state"] == "enabled", item
    assert item["path"] == "~/.claude/skills/.off/review", item
    assert refused.exit_code == 3, refused.stderr
    assert not (isolated_home / ".config/opencode/skills/.off/review").exists()
    # the fix pastes, and does it (helper-49: `install --skip` alone left the parked link)
    fix = unwrapped(refused.stderr).split("`rm ", 1)[1].split("`", 1)[0]
    import subprocess

    subprocess.run(["bash", "-c", f"rm {fix}"], check=True, env={"HOME": str(isolated_home)})
    assert not os.path.lexists(isolated_home / ".claude/skills/.off/review")
    said = unwrapped(refused.stderr)
    assert "loads here from ~/.claude/skills/.off, where ext parked it" in said
    assert (
        "pass --skip skill:review to each `ext" in said and "--host claude install` after" in said
    )


def test_a_served_first_install_says_opencode_will_find_a_skill_twice(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: serving Claude Code and Codex CLI before OpenCode links each skill into
    ~/.claude/skills and ~/.agents/skills, which OpenCode both reads: it reported duplicates
    at once, while the first install said so only on the next run."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "tools"\n[hosts]\nserve = ["opencode", "claude", "codex"]\n'
    )
    for folder in (".config/opencode", ".claude", ".codex"):
        made(isolated_home, folder)

    first = ext("--set", str(set_root), "install", "--yes")
    again = ext("--set", str(set_root), "install", "--dry-run")

    said = "skill:review: OpenCode finds it in ~/.claude/skills and ~/.agents/skills"
    assert first.exit_code == 0, first.stderr
    assert said in unwrapped(first.stderr), first.stderr
    assert said in unwrapped(again.stderr)


def test_an_uninstall_does_not_say_opencode_loses_a_skill_it_still_reads_elsewhere(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: uninstalling from Codex CLI warned that OpenCode 'reads it from
    ~/.agents/skills and loses it', while OpenCode read it from ~/.claude/skills as well."""
    installed_into(set_root, isolated_home, "claude", "codex", "opencode")

    gone = ext("--set", str(set_root), "--host", "codex", "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    assert "OpenCode" not in gone.stderr or "loses it" not in gone.stderr, gone.stderr
    assert (isolated_home / ".claude/skills/review").is_symlink()  # still read there


def test_a_skill_parked_here_and_live_in_a_shared_folder_is_on_and_an_enable_links_no_copy(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-48: Codex CLI and Gemini CLI both disabled skill:review, then Codex enabled it
    again (live in ~/.agents/skills, which Gemini reads): Gemini's list said disabled, and
    its enable linked a second copy into ~/.gemini/skills, which Gemini reported."""
    made(isolated_home, ".codex")
    gemini = made(isolated_home, ".gemini")
    codex_at = ("--set", str(set_root), "--host", "codex")
    gemini_at = ("--set", str(set_root), "--host", "gemini")
    for at in (codex_at, gemini_at):
        assert ext(*at, "install", "--yes").exit_code == 0
    for at, verb in ((codex_at, "disable"), (gemini_at, "disable"), (codex_at, "enable")):
        assert ext(*at, verb, "skill:review", "--yes").exit_code == 0, (at, verb)

    listed = json.loads(ext(*gemini_at, "--json", "list").stdout)
    enabled = ext(*gemini_at, "enable", "skill:review", "--yes")

    [item] = [i for i in listed["items"] if i["name"] == "review"]
    assert item["state"] == "enabled" and "~/.agents/skills" in (item.get("note") or ""), item
    assert enabled.exit_code == 0 and "already enabled" in enabled.stderr, enabled.stderr
    assert not os.path.lexists(gemini / "skills/review")  # no second copy


def test_an_uninstall_of_a_parked_skill_says_opencode_loses_it(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-50: Claude Code's parked link is one OpenCode loads (hidden folders too); its
    uninstall took the skill from OpenCode without a word."""
    made(isolated_home, ".claude")
    made(isolated_home, ".config/opencode")
    claude = ("--set", str(set_root), "--host", "claude")
    for host in ("claude", "opencode"):
        assert ext("--set", str(set_root), "--host", host, "install", "--yes").exit_code == 0
    assert ext(*claude, "disable", "skill:review", "--yes").exit_code == 0

    gone = ext(*claude, "uninstall", "--yes")

    assert gone.exit_code == 0, gone.stderr
    assert (
        "skill:review: OpenCode (~/.config/opencode) reads it from ~/.claude/skills and "
        "loses it" in unwrapped(gone.stderr)
    ), gone.stderr


@pytest.mark.parametrize("host", ["claude", "codex"])
def test_a_command_a_skill_of_its_name_hides_is_said_at_install_and_in_list(
    tmp_path: Path, isolated_home: Path, host: str
) -> None:
    """helper-77: Claude Code offers one `/review`, the skill's (pinned on the binary in
    tests/conformance/test_hosts_conformance.py); Codex CLI offers both."""
    root = build_tree(
        tmp_path / "set",
        {
            "skills/review/SKILL.md": "---\nname: review\ndescription: Review code\n---\n",
            "prompts/review.md": "---\ndescription: Review a diff\n---\nReview it.\n",
        },
    )
    made(isolated_home, DIRS[host])
    why = "Claude Code does not offer it: the skill:review takes /review (rename one of them)"

    done = ext("--set", str(root), "--host", host, "install", "--yes")
    listed = json.loads(ext("--set", str(root), "--host", host, "--json", "list").stdout)

    assert done.exit_code == 0, done.stderr
    refused = {i["kind"]: i.get("host_refuses") for i in listed["items"]}
    if host == "claude":
        assert f"warning: prompt:review: {why}" in done.stderr
        assert refused == {"skill": None, "prompt": why}
    else:
        assert "does not offer" not in done.stderr
        assert refused == {"skill": None, "prompt": None}


def test_the_fix_for_a_skill_of_another_agent_s_folder_names_that_agent_s_own_dir(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """helper-77: Codex CLI installed with `--agent-dir …/codex`; OpenCode's refused disable
    named `ext --host codex install --skip …`, which, pasted, asked for a `~/.codex` that was
    never made (exit 4)."""
    codex = made(tmp_path, "codex-home")
    made(isolated_home, ".config/opencode")
    at = ("--set", str(set_root))
    done = ext(*at, "--host", "codex", "--agent-dir", str(codex), "install", "--yes")
    assert done.exit_code == 0, done.stderr
    assert ext(*at, "--host", "opencode", "install", "--yes").exit_code == 0

    refused = ext(*at, "--host", "opencode", "disable", "skill:review", "--yes")

    assert refused.exit_code == 3, refused.stderr
    assert (
        f"`ext --set {set_root} --host codex --agent-dir {codex} install --skip skill:review`"
    ) in unwrapped(refused.stderr)


def test_a_command_added_beside_an_installed_skill_of_its_name_is_said_hidden(
    tmp_path: Path, isolated_home: Path
) -> None:
    """helper-78: the warning came only when the skill and the command were linked in one run."""
    root = build_tree(
        tmp_path / "set",
        {"skills/review/SKILL.md": "---\nname: review\ndescription: Review code\n---\n"},
    )
    made(isolated_home, ".claude")
    first = ext("--set", str(root), "--host", "claude", "install", "--yes")
    build_tree(root, {"prompts/review.md": "---\ndescription: d\n---\nReview it.\n"})
    second = ext("--set", str(root), "--host", "claude", "install", "--yes")
    third = ext("--set", str(root), "--host", "claude", "install", "--yes")  # a no-op

    assert first.exit_code == second.exit_code == third.exit_code == 0, second.stderr
    assert "warning: prompt:review: Claude Code does not offer it" in second.stderr
    assert "does not offer" not in third.stderr


@pytest.mark.parametrize("below", [False, True])
def test_another_agent_s_dir_named_as_a_file_or_below_one_says_what_named_it(
    set_root: Path, isolated_home: Path, tmp_path: Path, below: bool
) -> None:
    """helper-78: CODEX_HOME naming a file was fixed with `--agent-dir`, and a dir below a
    file was offered `install --create`, which then failed with "Not a directory"."""
    file = build_tree(tmp_path, {"afile": "x\n"}) / "afile"
    path = file / "codex" if below else file
    done = ext("--set", str(set_root), "--host", "codex", "list", env={"CODEX_HOME": str(path)})
    assert done.exit_code == 4, done.output
    said = f"cannot be made: {file} is a file" if below else "is a file, not a folder"
    assert said in done.stderr
    assert "fix: point CODEX_HOME at a folder, or unset it" in done.stderr
    assert "--create" not in done.stderr


def test_a_skill_switched_off_hides_no_command(tmp_path: Path, isolated_home: Path) -> None:
    """helper-80: install warned a command hidden by a skill the user had disabled."""
    root = build_tree(
        tmp_path / "set",
        {"skills/review/SKILL.md": "---\nname: review\ndescription: Review code\n---\n"},
    )
    made(isolated_home, ".claude")
    at = ("--set", str(root), "--host", "claude")
    assert ext(*at, "install", "--yes").exit_code == 0
    assert ext(*at, "disable", "skill:review", "--yes").exit_code == 0
    build_tree(root, {"prompts/review.md": "---\ndescription: d\n---\nReview it.\n"})
    done = ext(*at, "install", "--yes")
    assert done.exit_code == 0, done.stderr
    assert "does not offer" not in done.stderr


def test_a_written_command_has_the_umasks_mode_through_undo(
    set_root: Path, isolated_home: Path
) -> None:
    """helper-81: Gemini's TOML commands were the only 0600 files in ~/.gemini/commands (ext
    wrote them as it writes its private approvals store). They get the umask's mode, as the
    user's own files do; an undo of their removal makes them so again."""
    gemini = made(isolated_home, ".gemini")
    old = os.umask(0o022)
    try:
        assert ext("--set", str(set_root), "--host", "gemini", "install", "--yes").exit_code == 0
        written = gemini / "commands/fix.toml"
        assert written.stat().st_mode & 0o777 == 0o644
        assert ext("--set", str(set_root), "--host", "gemini", "uninstall", "--yes").exit_code == 0
        assert not written.exists()
        assert ext("--set", str(set_root), "--host", "gemini", "undo", "--yes").exit_code == 0
        assert written.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_a_written_commands_header_alone_never_makes_it_stale(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """helper-83: the header names the dir as it was spelt, so the same dir reached through a
    link, or a file an older ext wrote (another header), was rewritten each run and listed
    as stale. Only what Gemini reads counts; a 0600 file an older ext made gets the umask's
    mode when the set's template changes it."""
    gemini = made(isolated_home, ".gemini")
    link = tmp_path / "via"
    link.symlink_to(isolated_home)
    spellings = [str(gemini), str(link / ".gemini")]
    base = ("--set", str(set_root), "--host", "gemini")
    assert ext(*base, "--agent-dir", spellings[0], "install", "--yes").exit_code == 0
    written = gemini / "commands/fix.toml"
    lines = written.read_text().splitlines(keepends=True)
    older = "# Written by ext from the set's prompts/fix.md: edit\n# that file, and `ext --host "
    written.write_text(older + "gemini install` writes this one again.\n" + "".join(lines[3:]))
    written.chmod(0o600)
    for spelt in spellings:
        again = ext(*base, "--agent-dir", spelt, "install", "--dry-run")
        assert again.stdout == "nothing to do: 2 skipped, 2 unchanged\n", again.stdout
        listed = ext(*base, "--agent-dir", spelt, "--json", "list")
        assert {i["name"]: i["state"] for i in json.loads(listed.stdout)["items"]}["fix"] == (
            "enabled"
        )
    (set_root / "prompts/fix.md").write_text("---\ndescription: Fix it\n---\nFix $@ today.\n")
    old = os.umask(0o022)
    try:
        assert ext(*base, "install", "--yes").exit_code == 0
    finally:
        os.umask(old)
    assert "Fix {{args}} today." in written.read_text()
    assert written.stat().st_mode & 0o777 == 0o644


def test_a_served_run_into_no_existing_dir_exits_as_a_missing_dir_does(
    set_root: Path, tmp_path: Path
) -> None:
    """helper-89: with neither served agent's dir there, `ext install --yes` said each was
    passed over and exited 0, which a script (the Ansible role) takes for done."""
    (set_root / "extset.toml").write_text(
        '[set]\nname = "tools"\n[target]\nagent_dir = "../pi"\n[hosts]\nserve = ["pi", "claude"]\n'
        '[hosts.claude]\nagent_dir = "../claude"\n'
    )
    for args in (["install", "--yes"], ["install", "--dry-run"], ["uninstall", "--yes"]):
        result = ext("--set", str(set_root), *args)
        assert result.exit_code == 4, (args, result.output)
        assert "no agent dir the set serves exists: nothing to" in unwrapped(result.stderr)
    as_json = ext("--set", str(set_root), "--json", "install", "--yes")
    assert as_json.exit_code == 4
    assert set(json.loads(as_json.stdout)["hosts"]) == {"pi", "claude"}  # one document
    listed = ext("--set", str(set_root), "list")  # helper-90: said `list_items`, and --create
    assert listed.exit_code == 4
    assert "nothing to list fix: check the dirs named above" in unwrapped(listed.stderr)
    assert ext("--set", str(set_root), "doctor").exit_code == 4  # helper-90: exit 0, no check
    (tmp_path / "claude").mkdir()
    assert ext("--set", str(set_root), "install", "--yes").exit_code == 0  # one there: done
