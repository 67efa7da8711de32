"""`ext --host H doctor --deep` with the real binary on PATH: `host.loaded` is ok after an
install, and an error once the host no longer loads what ext lists as enabled (a skill whose
SKILL.md the user edited into one the host refuses: tests/e2e/test_host_facts.py and the
refusals below, seen on the real binaries)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import EXT
from tests.helpers import build_tree
from tests.hosts import BY_NAME, RealHost, environment, node_dir

pytestmark = pytest.mark.e2e

CONFIG = {
    "claude": ".claude",
    "codex": ".codex",
    "opencode": ".config/opencode",
    "gemini": ".gemini",
}
SET = {
    "extset.toml": '[set]\nname = "tools"\n',
    "skills/review/SKILL.md": "---\nname: review\ndescription: Reviews a change.\n---\nReview.\n",
    "skills/notes/SKILL.md": "---\nname: notes\ndescription: Takes notes.\n---\nNotes.\n",
    "prompts/fix.md": "---\ndescription: Fix it\n---\nFix $ARGUMENTS now.\n",
}
# What the user writes over skills/notes/SKILL.md that the host then refuses to load:
# Codex CLI and Gemini CLI want a description, OpenCode a frontmatter at all. Claude Code
# loads any SKILL.md it finds (_disable_then_copy_back).
REFUSED = {
    "codex": "---\nname: notes\n---\nNo description.\n",
    "gemini": "---\nname: notes\n---\nNo description.\n",
    "opencode": "No frontmatter at all.\n",
}


def _doctor(host: RealHost, home: Path, set_root: Path, bin_dir: Path) -> dict[str, Any]:
    """`ext --host H --json doctor --deep --check host.loaded`, the host's offline wrapper
    first on PATH under the host's own binary name."""
    wrapper = bin_dir / host.name
    if not wrapper.exists():
        os.symlink(host.offline_bin(bin_dir / "real"), wrapper)
    env = environment(home, EXT_NO_UPDATE_CHECK="1", NO_COLOR="1")
    env["PATH"] = os.pathsep.join([str(bin_dir), str(node_dir() or ""), env["PATH"]])
    done = subprocess.run(
        [str(EXT), "--set", str(set_root), "--host", host.name, "--json", "doctor", "--deep",
         "--check", "host.loaded"],
        env=env, capture_output=True, text=True, timeout=180, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def _ext(home: Path, set_root: Path, host: str, *args: str) -> None:
    env = environment(home, EXT_NO_UPDATE_CHECK="1", NO_COLOR="1")
    done = subprocess.run(
        [str(EXT), "--set", str(set_root), "--host", host, *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_doctor_deep_says_the_host_loads_what_ext_installed_until_it_does_not(
    name: str, isolated_home: Path, tmp_path: Path
) -> None:
    host = BY_NAME[name].require()
    set_root = build_tree(tmp_path / "set", dict(SET))
    (isolated_home / CONFIG[name]).mkdir(parents=True)
    _ext(isolated_home, set_root, name, "install", "--yes")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    (check,) = _doctor(host, isolated_home, set_root, bin_dir)["checks"]
    assert (check["id"], check["level"]) == ("host.loaded", "ok"), check
    assert "loads the 3 enabled items" in check["message"]

    if name == "claude":
        _disable_then_copy_back(isolated_home, set_root)
        said = "skill:notes: ext lists it disabled (skills/.off/notes), yet Claude Code loads it"
    else:  # a SKILL.md broken since: ext lists why the host skips it, and the host agrees
        (set_root / "skills/notes/SKILL.md").write_text(REFUSED[name], encoding="utf-8")
        said = "skill:notes: ext lists it enabled"
    report = _doctor(host, isolated_home, set_root, bin_dir)
    (check,) = report["checks"]
    level = "error" if name == "claude" else "warn"  # as doctor without --deep says it
    assert check["level"] == level and report["ok"] is (level == "warn"), check
    assert said in check["message"], check


def test_doctor_deep_says_what_gemini_reports_of_a_skill_it_finds_twice(
    isolated_home: Path, tmp_path: Path
) -> None:
    """helper-55: Gemini CLI installed first, then Codex CLI (its skills in ~/.agents/skills,
    which Gemini reads too): Gemini reported "Skill conflict detected" for each skill, and
    doctor --deep said it loads every item. Its own report is a warning, with the fix; the
    fix pasted, the report is gone."""
    host = BY_NAME["gemini"].require()
    set_root = build_tree(tmp_path / "set", dict(SET))
    for name in ("gemini", "codex"):
        (isolated_home / CONFIG[name]).mkdir(parents=True)
        _ext(isolated_home, set_root, name, "install", "--yes")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    checks = _doctor(host, isolated_home, set_root, bin_dir)["checks"]

    said = [c for c in checks if c["message"].startswith("Gemini CLI reports: Skill conflict")]
    assert len(said) == 2 and all(c["level"] == "warn" for c in said), checks
    fix = said[0]["fix"]  # ext names itself as run: the test's ext is its full path
    assert "--host gemini --agent-dir ~/.gemini install` drops its own link" in fix, fix
    _ext(isolated_home, set_root, "gemini", "install", "--yes")
    (check,) = _doctor(host, isolated_home, set_root, bin_dir)["checks"]
    assert check["level"] == "ok", check


def _disable_then_copy_back(home: Path, set_root: Path) -> None:
    """Claude Code loads any SKILL.md, so its break is the other way: the user disables a
    skill, then copies its folder back in by hand; ext lists it disabled, Claude loads it."""
    import shutil

    _ext(home, set_root, "claude", "disable", "skill:notes", "--yes")
    shutil.copytree(set_root / "skills/notes", home / ".claude/skills/notes")


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_doctor_writes_nothing_in_the_users_dirs(
    name: str, isolated_home: Path, tmp_path: Path
) -> None:
    """Asking the binary its version included: Gemini CLI writes ~/.gemini/projects.json even
    for --version, so ext asks it in a home of its own."""
    from tests.helpers import snapshot

    host = BY_NAME[name].require()
    set_root = build_tree(tmp_path / "set", dict(SET))
    (isolated_home / CONFIG[name]).mkdir(parents=True)
    _ext(isolated_home, set_root, name, "install", "--yes")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(host.offline_bin(bin_dir / "real"), bin_dir / host.name)
    env = environment(isolated_home, EXT_NO_UPDATE_CHECK="1", NO_COLOR="1")
    env["PATH"] = os.pathsep.join([str(bin_dir), str(node_dir() or ""), env["PATH"]])
    before = {p: v for p, v in snapshot(isolated_home).items() if not p.startswith(".cache")}
    for deep in ((), ("--deep",)):
        done = subprocess.run(
            [str(EXT), "--set", str(set_root), "--host", name, "doctor", *deep],
            env=env, capture_output=True, text=True, timeout=180, check=False,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert "host.found" in done.stdout, done.stderr
    after = {p: v for p, v in snapshot(isolated_home).items() if not p.startswith(".cache")}
    assert after == before


@pytest.mark.parametrize("trusted", [False, True], ids=["cloned", "trust-set"])
def test_doctor_deep_runs_nothing_of_a_cloned_set_s_agent_dir_in_claude(
    isolated_home: Path, tmp_path: Path, trusted: bool
) -> None:
    """helper-79: a cloned set whose `[hosts.claude] agent_dir` holds a settings.json with a
    SessionStart hook and an apiKeyHelper: `ext doctor --deep` started Claude Code on it, and
    both ran. Not installed, that dir is not started on; trusted, the judge's copy of the
    settings keeps no key that runs a program, and every hook is off."""
    host = BY_NAME["claude"].require()
    marker = tmp_path / "ran"
    settings = {
        "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]},
        "apiKeyHelper": f"touch {marker}-key; echo k",
    }
    manifest = (
        '[set]\nname = "clone"\n[hosts]\nserve = ["claude"]\n[hosts.claude]\nagent_dir = "cl"\n'
    )
    root = build_tree(
        tmp_path / "clone",
        {
            "extset.toml": manifest,
            "prompts/p.md": "---\ndescription: x\n---\nhi\n",
            "cl/settings.json": json.dumps(settings),
        },
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(host.offline_bin(bin_dir / "real"), bin_dir / "claude")
    env = environment(isolated_home, EXT_NO_UPDATE_CHECK="1", NO_COLOR="1")
    env["PATH"] = os.pathsep.join([str(bin_dir), str(node_dir() or ""), env["PATH"]])
    argv = [str(EXT), "--host", "claude", "--json", "doctor", "--deep", "--check", "host.loaded"]
    done = subprocess.run(
        [*argv, *(["--trust-set"] if trusted else [])],
        cwd=root, env=env, capture_output=True, text=True, timeout=180, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    (row,) = [c for c in json.loads(done.stdout)["checks"] if c["id"] == "host.loaded"]
    assert not marker.exists() and not Path(f"{marker}-key").exists(), row
    said = "not checked: Claude Code is not started on the agent dir: it is the set's own choice"
    assert row["message"].startswith(said) != trusted, row
    if trusted:  # the judge ran, and answered (helper-80: a crash passed as well)
        assert row["level"] == "ok" and row["message"].startswith("Claude Code loads"), row
