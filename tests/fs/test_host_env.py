"""`ext env` and `ext launch` for a host other than pi: its own variable, and its binary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

EXT = Path(sys.executable).with_name("ext")
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "skills/review/SKILL.md": "---\nname: review\ndescription: reviews\n---\nreview it\n",
    "prompts/fix.md": "fix it\n",
}


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture
def set_root(tmp_path: Path) -> Path:
    return build_tree(tmp_path / "set", dict(SET))


def ext(set_root: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(set_root), *args])


def made(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


# ext env


@pytest.mark.parametrize(
    ("host", "folder", "line"),
    [
        # Its own default dir: unset, since set, Claude Code reads ~/.claude.json inside it.
        ("claude", ".claude", "unset CLAUDE_CONFIG_DIR"),
        ("codex", ".codex", "export CODEX_HOME={home}/.codex"),
        ("gemini", ".gemini", "export GEMINI_CLI_HOME={home}"),  # the home .gemini is in
        ("opencode", ".config/opencode", "export XDG_CONFIG_HOME={home}/.config"),
    ],
)
def test_env_prints_the_hosts_own_variable(
    set_root: Path, isolated_home: Path, host: str, folder: str, line: str
) -> None:
    made(isolated_home / folder)

    result = ext(set_root, "--host", host, "env")

    assert result.exit_code == 0, result.stderr
    assert result.stdout == line.format(home=isolated_home) + "\n"
    assert result.stderr == ""  # the default XDG config home: the line moves nothing else


def test_env_for_fish_and_as_json(set_root: Path, isolated_home: Path) -> None:
    cc = made(isolated_home / "cc")
    made(isolated_home / ".claude")

    fish = ext(set_root, "--host", "claude", "--agent-dir", str(cc), "env", "--shell", "fish")
    data = json.loads(
        ext(set_root, "--json", "--host", "claude", "--agent-dir", str(cc), "env").stdout
    )
    at_default = ext(set_root, "--host", "claude", "--agent-dir", "~/.claude", "env")

    assert fish.stdout == f"set -gx CLAUDE_CONFIG_DIR {cc}\n"
    assert data == {
        "host": "claude",
        "agent_dir": str(cc),
        "shell": "sh",
        "variable": "CLAUDE_CONFIG_DIR",
        "line": f"export CLAUDE_CONFIG_DIR={cc}",
    }
    assert at_default.stdout == "unset CLAUDE_CONFIG_DIR\n", at_default.stderr


def test_launch_at_claudes_default_dir_runs_it_with_the_variable_unset(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """Set to ~/.claude, CLAUDE_CONFIG_DIR would make Claude Code read ~/.claude/.claude.json
    instead of the user's ~/.claude.json: a launch at the default dir leaves it unset."""
    made(isolated_home / ".claude")
    bin_dir = made(tmp_path / "bin")
    fake = bin_dir / "claude"
    fake.write_text('#!/bin/sh\necho "CLAUDE_CONFIG_DIR=${CLAUDE_CONFIG_DIR-unset}"\n')
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "CLAUDE_CONFIG_DIR": ""}
    env.pop("CLAUDE_CONFIG_DIR")
    done = subprocess.run(
        [str(EXT), "--set", str(set_root), "--host", "claude", "launch", "--", "-p", "hi"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "CLAUDE_CONFIG_DIR=unset\n"


def test_env_for_opencode_elsewhere_says_it_moves_every_xdg_apps_config(
    set_root: Path, tmp_path: Path
) -> None:
    elsewhere = made(tmp_path / "oc" / "opencode")

    result = ext(set_root, "--host", "opencode", "--agent-dir", str(elsewhere), "env")

    assert result.exit_code == 0
    assert result.stdout == f"export XDG_CONFIG_HOME={tmp_path / 'oc'}\n"  # eval reads only this
    assert "XDG_CONFIG_HOME is every XDG app's, not OpenCode's alone" in result.stderr
    # helper-42: the launch named no dir (a command with --host gets none of this run's)
    assert f"--host opencode --agent-dir {elsewhere} launch` sets it for OpenCode alone" in (
        result.stderr
    )


def test_env_refuses_a_gemini_dir_its_variable_cannot_name(set_root: Path, tmp_path: Path) -> None:
    other = made(tmp_path / "gem")

    result = ext(set_root, "--host", "gemini", "--agent-dir", str(other), "env")

    assert result.exit_code == 2
    assert "Gemini CLI reads the folder .gemini inside GEMINI_CLI_HOME" in result.stderr
    assert f"--agent-dir {tmp_path / '.gemini'}" in result.stderr


def test_env_for_pi_is_as_before(set_root: Path, isolated_home: Path) -> None:
    result = ext(set_root, "env")

    agent = isolated_home / ".local/share/extset/agent"
    assert result.stdout == f"export PI_CODING_AGENT_DIR={agent}\n"


# ext launch: the real ext, exec-ing a stand-in binary that prints what it was given


def host_binary(bin_dir: Path, name: str, var: str) -> None:
    made(bin_dir)
    script = bin_dir / name
    script.write_text(f'#!/bin/sh\necho "{var}=${{{var}}}"\necho "args=$*"\n')
    script.chmod(0o755)


def run_ext(set_root: Path, bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    return subprocess.run(
        [str(EXT), "--set", str(set_root), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )


def test_launch_runs_the_hosts_binary_with_its_variable(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    made(isolated_home / ".codex")
    host_binary(tmp_path / "bin", "codex", "CODEX_HOME")

    proc = run_ext(set_root, tmp_path / "bin", "--host", "codex", "launch", "--", "-p", "hi")

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"CODEX_HOME={isolated_home}/.codex\nargs=-p hi\n"


def test_launch_names_the_dir_that_holds_the_set_with_the_host_s_words_kept(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    made(isolated_home / ".codex")
    host_binary(tmp_path / "bin", "codex", "CODEX_HOME")
    other = tmp_path / "other-codex"
    done = ext(
        set_root, "--host", "codex", "--agent-dir", str(other), "install", "--create", "--yes"
    )
    assert done.exit_code == 0, done.output

    proc = run_ext(set_root, tmp_path / "bin", "--host", "codex", "launch", "--", "-p", "hi")

    assert proc.returncode == 0, proc.stderr
    assert f"the set is not installed here but in {other}: " in proc.stderr
    # ext as run (PATH finds none here), pi's words after `--` kept
    assert f"ext --set {set_root} --host codex --agent-dir {other} launch -- -p hi\n" in (
        proc.stderr
    )


def test_launch_without_the_binary_exits_1_with_the_install(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    made(isolated_home / ".claude")

    proc = run_ext(set_root, made(tmp_path / "empty"), "--host", "claude", "launch")

    assert proc.returncode == 1
    assert "claude (Claude Code) was not found on PATH" in proc.stderr
    assert "npm install -g @anthropic-ai/claude-code" in proc.stderr


def test_a_shell_of_another_syntax_is_not_taken_for_a_typo(set_root: Path) -> None:
    """`tcsh` is close to `sh` by its letters, not by its syntax: no "did you mean 'sh'"."""
    tcsh = ext(set_root, "env", "--shell", "tcsh")
    assert tcsh.exit_code == 2
    assert "tcsh is not a shell ext writes lines for" in tcsh.stderr
    assert "did you mean" not in tcsh.stderr
    # helper-72: "write the tcsh line for what it prints by hand" said not what that line is
    assert "writes as `setenv PI_CODING_AGENT_DIR <dir>`" in " ".join(tcsh.stderr.split())
    typo = ext(set_root, "env", "--shell", "bsh")
    assert "did you mean 'bash'?" in typo.stderr or "did you mean 'sh'?" in typo.stderr


def test_under_umask_000_ext_makes_nothing_others_can_write_and_a_launch_gets_it_back(
    set_root: Path, isolated_home: Path, tmp_path: Path
) -> None:
    """A trial under `umask 000`: the agent dir, its folders and settings, ext's state and a
    new set were made 777 and 666 (doctor then warned about them). ext's run takes group and
    other write out; the host it launches runs with the person's umask."""
    codex = made(isolated_home / ".codex")
    bin_dir = made(tmp_path / "bin")
    (bin_dir / "codex").write_text("#!/bin/sh\numask\n")
    (bin_dir / "codex").chmod(0o755)
    agent, fresh_set = tmp_path / "agent", tmp_path / "new-set"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"}

    def loose(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(EXT), *argv],
            capture_output=True,
            text=True,
            env=env,
            check=False,
            timeout=60,
            umask=0,
        )

    assert (
        loose(
            "--set", str(set_root), "--agent-dir", str(agent), "install", "--create", "--yes"
        ).returncode
        == 0
    )
    assert loose("init", str(fresh_set), "--yes").returncode == 0
    every = [tmp_path, *tmp_path.rglob("*")]  # the agent dir, the new set, ext's state, …
    assert agent / "skills" in every and any(p.name == "installs.json" for p in every)
    for path in every:
        mode = path.lstat().st_mode
        assert path.is_symlink() or not mode & 0o022, f"{path}: {oct(mode)}"
    launched = loose("--set", str(set_root), "--host", "codex", "launch")
    assert launched.returncode == 0, launched.stderr
    assert launched.stdout == "0000\n" and codex.is_dir()
