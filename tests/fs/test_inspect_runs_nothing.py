"""Inspecting a set not installed here runs nothing of it: its `[host] command` stays unrun.

`install --dry-run`, `doctor` (also `--deep`) and the update check would run `<bin> --version`
of a host binary the set names; each says it did not, and `--trust-set` or installing runs it.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from installer.host.set_command import names_set_path
from tests.helpers import build_tree, context


def evil_set(tmp_path: Path, command: str = "bin/pi") -> tuple[Path, Path]:
    """A set whose host command is its own script; running it leaves a marker behind."""
    marker = tmp_path / "ran"
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": (
                f'[set]\nname = "evil"\n[host]\ncommand = "{command}"\ntested = ">=0.73.0"\n'
            ),
            # bin/pi names the set's own node by path: a check of that Node runs the set too.
            "bin/pi": f"#!{tmp_path / 'set/bin/node'}\n",
            "bin/node": f'#!/bin/sh\necho ran >> "{marker}"\necho 0.73.1\n',
            "extensions/notify.ts": "export default function () {}\n",
        },
    )
    for name in ("pi", "node"):
        (root / "bin" / name).chmod(0o755 | stat.S_IXUSR)
    return root, marker


@pytest.fixture(autouse=True)
def quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EXT_NO_UPDATE_CHECK", "1")
    monkeypatch.setenv("NO_COLOR", "1")


def ext(root: Path, agent: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["--set", str(root), "--agent-dir", str(agent), *args])


def doctor_row(result: Any, check: str) -> dict[str, Any]:
    rows = json.loads(result.stdout)["checks"]
    return next(r for r in rows if r["id"] == check)


@pytest.fixture
def inside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """The evil set, an empty agent dir, and the cwd in the set (where `bin/pi` resolves)."""
    root, marker = evil_set(tmp_path)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    monkeypatch.chdir(root)
    return root, agent, marker


def test_install_dry_run_does_not_run_the_sets_host_command_and_says_so(
    inside: tuple[Path, Path, Path],
) -> None:
    root, agent, marker = inside
    result = ext(root, agent, "install", "--dry-run")
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    assert f"not run: {root}/bin/pi is what the set runs" in result.stderr
    assert "--trust-set runs it" in result.stderr


def test_install_trust_set_runs_it(inside: tuple[Path, Path, Path]) -> None:
    root, agent, marker = inside
    result = ext(root, agent, "install", "--dry-run", "--trust-set")
    assert result.exit_code == 0, result.output
    # pi --version, and the Node check (its first line names the set's node): trusted
    assert marker.read_text() == "ran\nran\n"
    # `not run:`, not `not run`: the Node check's warning, here on the set's own node, says
    # pi "cannot run" on it
    assert "not run:" not in result.stderr


def test_doctor_does_not_run_it_even_deep_and_says_what_would(
    inside: tuple[Path, Path, Path],
) -> None:
    root, agent, marker = inside
    checks = "host,host.node,host.load,loader"
    result = ext(root, agent, "--json", "doctor", "--deep", "--check", checks)
    assert not marker.exists()
    host = doctor_row(result, "host")
    assert host["level"] == "info"
    assert f"version unknown (not run: {root}/bin/pi is what the set runs" in host["message"]
    for check in ("host.node", "host.load", "loader"):
        row = doctor_row(result, check)
        said = f"not checked: {root}/bin/pi is what the set runs"
        assert row["message"].startswith(said), row


def test_doctor_trust_set_runs_it(inside: tuple[Path, Path, Path]) -> None:
    root, agent, marker = inside
    result = ext(root, agent, "--json", "doctor", "--check", "host", "--trust-set")
    assert marker.read_text() == "ran\n"
    assert doctor_row(result, "host")["message"].startswith(f"{root}/bin/pi 0.73.1 (from")


def test_once_installed_here_the_set_is_trusted(
    inside: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative `[host] command` is the set's own file, from the set's folder wherever ext
    runs (helper-65: from another folder, that folder's `bin/pi` ran)."""
    root, agent, marker = inside
    done = ext(root, agent, "install", "--yes")
    assert done.exit_code == 0, done.output
    assert not marker.exists()  # the install's plan was shown before the yes: not run either
    elsewhere = root.parent / "elsewhere"
    build_tree(elsewhere, {"bin/pi": "#!/bin/sh\necho 9.9.9\n"})
    (elsewhere / "bin/pi").chmod(0o755)
    monkeypatch.chdir(elsewhere)
    result = ext(root, agent, "--json", "doctor", "--check", "host")
    assert marker.read_text() == "ran\n"
    assert doctor_row(result, "host")["message"].startswith(f"{root}/bin/pi 0.73.1 (from")


def test_a_bare_name_found_through_a_relative_path_entry_is_the_sets_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, marker = evil_set(tmp_path, command="pi")
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"bin{os.pathsep}{os.environ['PATH']}")
    result = ext(root, agent, "install", "--dry-run")
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    # helper-77: ext looks programs up in PATH's absolute entries only: bin/pi is never the
    # pi found (before, it was found, and withheld: "not run: pi is what the set runs")
    host = doctor_row(ext(root, agent, "--json", "doctor", "--check", "host"), "host")
    assert str(root) not in host["message"] and "not run" not in host["message"], host


# Every program ext may start on its own, as a cloned repository could ship it.
PLANTED = ("pi", "node", "npm", "git", "ps", "claude", "codex", "gemini", "opencode", "uv")


@pytest.mark.parametrize("where", ["leading", "trailing"])
@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["list"],
        ["doctor"],
        ["install", "--dry-run"],
        ["--host", "claude", "--agent-dir", "{agent}", "doctor"],
        ["--host", "gemini", "--agent-dir", "{agent}", "doctor", "--deep"],
        ["update", "--check"],
    ],
)
def test_no_program_of_the_working_folder_runs_through_an_empty_path_entry(
    tmp_path: Path, where: str, args: list[str]
) -> None:
    """helper-77: with a `:` at either end of PATH (the current folder), `ext --version` ran
    the `pi` a cloned set shipped, and `--host claude doctor` its `claude`: ext now looks
    programs up in PATH's absolute entries, and starts them with no relative entry either."""
    import subprocess
    import sys

    marker = tmp_path / "ran"
    root = build_tree(
        tmp_path / "clone",
        {"extset.toml": '[set]\nname = "clone"\n', "extensions/a.ts": ""},
    )
    for name in PLANTED:
        build_tree(root, {name: f'#!/bin/sh\necho {name} "$@" >> "{marker}"\necho 9.9.9\n'})
        (root / name).chmod(0o755)
    agent = build_tree(tmp_path / "agent", {"extensions": None})
    path = os.environ["PATH"]
    env = {
        **os.environ,
        "PATH": f":{path}" if where == "leading" else f"{path}:",
        "EXT_NO_UPDATE_CHECK": "1",
        "NO_COLOR": "1",
        "npm_config_registry": "http://127.0.0.1:9/",  # offline, at once
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    }
    argv = [str(Path(sys.executable).with_name("ext")), *(a.format(agent=agent) for a in args)]
    done = subprocess.run(
        argv, cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert not marker.exists(), marker.read_text() + done.stdout + done.stderr
    assert "9.9.9" not in done.stdout + done.stderr


def test_a_pi_only_the_current_folder_holds_is_said_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    root = build_tree(
        tmp_path / "clone",
        {"extset.toml": '[set]\nname = "clone"\n', "pi": f'#!/bin/sh\necho ran >> "{marker}"\n'},
    )
    (root / "pi").chmod(0o755)
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"{tmp_path / 'nothing'}{os.pathsep}")  # the empty entry last
    result = ext(root, build_tree(tmp_path / "agent", {"extensions": None}), "--json", "doctor")
    assert doctor_row(result, "host")["message"].startswith(
        "pi was not found on PATH (only ./pi, through a relative entry, which ext never runs)"
    )
    assert not marker.exists()


def test_the_update_check_does_not_run_it(inside: tuple[Path, Path, Path]) -> None:
    from installer.commands.updates import _host_facts

    root, agent, marker = inside
    facts = _host_facts(context(root, agent))
    assert not marker.exists()
    assert facts is not None and facts.version is None


@pytest.mark.parametrize(
    ("command", "found", "named"),
    [
        ("bin/pi", "bin/pi", True),  # relative: from the cwd, the set's when ext walked up
        ("./pi", "./pi", True),
        ("/opt/pi/bin/pi", "/opt/pi/bin/pi", True),  # any path the set chose
        ("~/bin/pi", "/home/u/bin/pi", True),
        ("pi", "bin/pi", True),  # a bare name through a relative PATH entry
        ("pi", "/set/tools/pi", True),  # a bare name through a PATH entry inside the set
        ("pi", "/usr/local/bin/pi", False),  # the user's own program
        ("pi", "/set-other/pi", False),  # a sibling folder is not inside the set
    ],
)
def test_which_commands_are_paths_the_set_names(command: str, found: str, named: bool) -> None:
    assert names_set_path(command, found, Path("/set")) is named


def test_the_installed_ext_says_not_run_and_takes_trust_set(
    inside: tuple[Path, Path, Path],
) -> None:
    """The hand parser of the everyday commands (installer.cli.fast), as a user runs ext."""
    import subprocess
    import sys

    root, agent, marker = inside
    exe = Path(sys.executable).with_name("ext")
    env = {**os.environ, "EXT_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    argv = [str(exe), "--set", str(root), "--agent-dir", str(agent), "install", "--dry-run"]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*argv, *extra], cwd=root, env=env, capture_output=True, text=True, timeout=60,
            check=False,
        )  # fmt: skip

    plain = run()
    assert plain.returncode == 0, plain.stderr
    assert f"not run: {root}/bin/pi is what the set runs" in plain.stderr
    assert not marker.exists()
    trusted = run("--trust-set")
    assert trusted.returncode == 0, trusted.stderr
    # pi --version, and the Node check (its first line names the set's node): trusted
    assert marker.read_text() == "ran\nran\n"


def test_the_bundled_set_is_ext_own_and_trusted(tmp_path: Path) -> None:
    """A checkout of ext is the bundled set and holds the pi its tests run (in .cache/): that pi
    is run as any pi on PATH, while a set named by --set is still untrusted until installed."""
    from installer.host.set_command import untrusted_root

    root, agent = tmp_path / "ext-checkout", tmp_path / "agent"
    assert untrusted_root(root, agent, source="bundled") is None
    assert untrusted_root(root, agent, source="--set") == root


def test_doctor_deep_starts_no_pi_on_an_agent_dir_the_set_chose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-68: `ext doctor --deep` in a cloned repository whose `[target] agent_dir` holds an
    extension started pi's loader there, and the extension ran."""
    from tests.fs.test_launch_hints import npm_global_pi

    bin_dir = npm_global_pi(tmp_path / "npm", "@earendil-works/pi-coding-agent", "1.6.0")
    root = build_tree(
        tmp_path / "repo",
        {
            "extset.toml": '[set]\nname = "r"\n[target]\nagent_dir = "agentdir"\n',
            "agentdir/extensions/evil.ts": "export default function () {}\n",
            "extensions/a.ts": "",
        },
    )
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    monkeypatch.delenv("EXT_SET", raising=False)

    result = CliRunner().invoke(app, ["--json", "doctor", "--deep", "--check", "host.load,loader"])

    for check in ("host.load", "loader"):
        row = doctor_row(result, check)
        assert row["message"].startswith(
            "not checked: pi is not started on the agent dir: it is the set's own choice "
            "([target] agent_dir)"
        ), row


@pytest.mark.parametrize(
    ("command", "program", "path", "said"),
    [
        # helper-66: rustup ran the set's cargo
        ("fakecargo", "tools/fakecargo", "{tools}", "not run: fakecargo is what the set runs"),
        # helper-68: a wrapper pi's node, found through `.`; since helper-77 the pi ext starts
        # has no relative PATH entry, so its `#!/usr/bin/env node` cannot reach the set's
        ("pi", "set/node", "{tools}:.", "tools/pi: version unknown"),
    ],
)
def test_a_program_the_set_chooses_is_not_run_while_inspecting(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    program: str,
    path: str,
    said: str,
) -> None:
    """A bare command other than pi (`cargo` with a rust-toolchain.toml pointing into the set)
    and a pi whose `#!/usr/bin/env node` PATH finds in the set: doctor ran either."""
    marker = tmp_path / "ran"
    manifest = f'[set]\nname = "c"\n[host]\ncommand = "{command}"\n'
    build_tree(tmp_path, {"set/extset.toml": manifest, "set/extensions/a.ts": ""})
    build_tree(tmp_path, {"tools/pi": "#!/usr/bin/env node\n"})  # a wrapper: no package.json
    build_tree(tmp_path, {program: f'#!/bin/sh\necho ran >> "{marker}"\necho 1.6.0\n'})
    for tool in (tmp_path / "tools/pi", tmp_path / program):
        tool.chmod(0o755)
    root, agent = tmp_path / "set", build_tree(tmp_path / "agent", {"extensions": None})
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"{path.format(tools=tmp_path / 'tools')}:{os.environ['PATH']}")

    result = ext(root, agent, "--json", "doctor", "--check", "host")

    assert not marker.exists()
    assert said in doctor_row(result, "host")["message"]


def test_ext_s_own_checkout_is_trusted_as_the_bundled_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import installer.ground.context as context_module
    from installer.host.set_command import untrusted_root

    root = build_tree(tmp_path / "checkout", {"extset.toml": '[set]\nname = "b"\n'})
    assert untrusted_root(root, None, source="cwd") == root
    monkeypatch.setattr(context_module, "ext_checkout", root.resolve)
    assert untrusted_root(root, None, source="cwd") is None


def test_a_record_in_an_agent_dir_the_set_chose_trusts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-71: doctor and `update --check` counted the state record of an agent dir the set
    itself chose ([target] agent_dir), which the set can write: its own `bin/pi` then ran."""
    import json

    root, marker = evil_set(tmp_path)
    with (root / "extset.toml").open("a") as manifest:
        manifest.write('[target]\nagent_dir = "agentdir"\n')
    forged = {"sets": [{"root": str(root), "name": "evil", "mode": "link", "ext_version": "0"}]}
    build_tree(
        root, {"agentdir/.extset/state.json": json.dumps(forged), "agentdir/extensions": None}
    )
    monkeypatch.chdir(root)
    for name in ("PI_CODING_AGENT_DIR", "EXT_AGENT_DIR", "EXT_SET"):
        monkeypatch.delenv(name, raising=False)

    result = CliRunner().invoke(app, ["--json", "doctor", "--check", "host"])

    assert not marker.exists()
    assert "is what the set runs" in doctor_row(result, "host")["message"]
