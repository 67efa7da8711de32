"""`ext doctor` end to end: the installed ext, the real pi, sets built in tmp_path."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE, SCOPES, line_of
from installer.host.pi import find_host
from tests.e2e.conftest import EXT, REPO, Run
from tests.helpers import build_tree
from tests.pis import RealPi

pytestmark = pytest.mark.e2e

LEVELS = {"ok", "info", "warn", "error"}


@pytest.fixture
def pi_facts(pi_bin: Path) -> tuple[str, str]:
    """The real pi's version and package scope."""
    host = find_host(str(pi_bin))
    assert host is not None and host.version and host.scope in SCOPES
    return host.version, host.scope


def make_set(root: Path, tested: str) -> Path:
    build_tree(
        root,
        {
            "extset.toml": f'[set]\nname = "probe"\n[host]\ntested = "{tested}"\n',
            "extensions/hello.ts": (
                "export default function (pi) {\n"
                '  pi.registerFlag("hello-probe", { description: "x", type: "boolean" });\n'
                "}\n"
            ),
            "extensions/tools/index.ts": "export default function () {}\n",
            "prompts/fix.md": "fix it\n",
        },
    )
    return root


@pytest.fixture
def installed(ext: Run, tmp_path: Path, pi_facts: tuple[str, str]) -> tuple[Path, Path]:
    """A small set, tested with exactly the real pi, installed into a fresh agent dir."""
    root = make_set(tmp_path / "set", f">={pi_facts[0]}")
    agent = tmp_path / "agent"
    ext("--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes", check=True)
    return root, agent


def doctor(
    ext: Run, root: Path, agent: Path, *args: str, **kw: Any
) -> subprocess.CompletedProcess[str]:
    return ext("--set", str(root), "--agent-dir", str(agent), "doctor", *args, **kw)


def checks(proc: subprocess.CompletedProcess[str]) -> list[dict[str, str]]:
    data = json.loads(proc.stdout)
    result: list[dict[str, str]] = data["checks"]
    return result


def test_a_healthy_install_is_all_ok_and_exits_0(
    ext: Run, installed: tuple[Path, Path], e2e_env: dict[str, str]
) -> None:
    root, agent = installed
    env = {**e2e_env, "PI_CODING_AGENT_DIR": str(agent)}

    text = doctor(ext, root, agent, env=env)
    data = doctor(ext, root, agent, "--json", env=env)

    assert text.returncode == 0, text.stdout + text.stderr
    assert text.stdout.rstrip().endswith("0 warnings, 0 errors: exit 0")
    found = checks(data)
    not_ok = [c for c in found if c["level"] != "ok" and not c["id"].startswith("updates")]
    # the old package's pi is told it moved (info, no warning): every other check is ok
    moved = [c for c in not_ok if c["id"] == "host.moved"]
    assert [c["level"] for c in moved] in ([], ["info"])
    assert [c for c in not_ok if c not in moved] == [], not_ok
    assert {c["level"] for c in found if c["id"].startswith("updates")} <= {"ok", "info"}
    assert data.returncode == 0


def test_json_shape(ext: Run, installed: tuple[Path, Path]) -> None:
    root, agent = installed

    proc = doctor(ext, root, agent, "--json")
    global_flag = ext("--json", "--set", str(root), "--agent-dir", str(agent), "doctor")

    data = json.loads(proc.stdout)
    assert list(data) == ["ok", "host", "agent_dir", "checks"] and data["ok"] is True
    assert (data["host"], data["agent_dir"]) == ("pi", str(agent))
    for check in data["checks"]:
        assert set(check) <= {"id", "level", "message", "fix"} and check["level"] in LEVELS
        assert {"id", "level", "message"} <= set(check)
    assert json.loads(global_flag.stdout)["ok"] is True
    assert proc.stderr == ""


def ext_as_run(env: dict[str, str]) -> str:
    """The word a text hint names ext by: `ext` when PATH finds the ext the test runs."""
    from installer.cli.run import as_run

    return as_run(str(EXT), env["PATH"])


def test_a_deleted_set_file_exits_1_naming_the_item_with_a_fix(
    ext: Run, installed: tuple[Path, Path], e2e_env: dict[str, str]
) -> None:
    root, agent = installed
    (root / "extensions" / "hello.ts").unlink()

    proc = doctor(ext, root, agent)
    data = checks(doctor(ext, root, agent, "--json"))

    assert proc.returncode == 1, proc.stdout
    [err] = [c for c in data if c["level"] == "error"]
    assert err["id"] == "items" and err["message"].startswith("hello: extensions/hello.ts")
    assert err["fix"].startswith("ext install")  # JSON: the command, as the docs write it
    # runnable as is: ext as run, with the --set and --agent-dir this run was given
    ran = f"{ext_as_run(e2e_env)} --set {root} --agent-dir {agent}"
    assert f"fix: {ran} install (prunes it)" in proc.stdout


def test_the_table_shows_home_as_tilde(ext: Run, e2e_env: dict[str, str], tmp_path: Path) -> None:
    home = Path(e2e_env["HOME"])
    root = make_set(home / "sets" / "probe", ">=0.1.0")
    agent = home / "agent"
    ext("--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes", check=True)

    proc = doctor(ext, root, agent)

    assert "~/sets/probe (probe, from --set)" in proc.stdout
    assert str(home) not in proc.stdout


def test_static_scope_errors_are_exactly_what_the_real_pi_fails_to_load(
    ext: Run, installed: tuple[Path, Path], pi_facts: tuple[str, str]
) -> None:
    # pi 0.73 loads only @mariozechner; pi 1.x maps @mariozechner onto its own modules too.
    root, agent = installed
    for scope in SCOPES:
        (root / "extensions" / f"{scope[1:]}.ts").write_text(
            f'import {{ getAgentDir }} from "{scope}/pi-coding-agent";\n'
            "export default function () { getAgentDir(); }\n"
        )
    ext("--set", str(root), "--agent-dir", str(agent), "install", "--yes", check=True)
    pi = line_of(pi_facts[0], f"{pi_facts[1]}/pi-coding-agent")

    static = checks(doctor(ext, root, agent, "--json", "--check", "host.scope"))
    deep = checks(doctor(ext, root, agent, "--json", "--deep", "--check", "host.load"))

    failing = [s[1:] for s in SCOPES if s not in pi.scopes]
    errors = [f for f in static if f["level"] == "error"]
    assert [f["message"].partition(":")[0] for f in errors] == failing
    for f in errors:
        assert f["message"].endswith(f"pi {pi_facts[0]} cannot load it")
        assert '"@mariozechner/pi-coding-agent"' in f["fix"]  # the scope every pi loads
    failed = [f for f in deep if f["level"] == "error"]
    assert [f["message"].partition(":")[0] for f in failed] == failing, deep
    if not failing:
        assert [f["level"] for f in deep] == ["ok"], deep
        # loads here, fails on 0.73: said, for a set meant to run on both
        [said] = [f for f in static if f["level"] == "info"]
        assert (
            said["message"].startswith("earendil-works: ") and "pi 0.73 cannot" in said["message"]
        )


def test_deep_on_a_healthy_install_is_ok(ext: Run, installed: tuple[Path, Path]) -> None:
    root, agent = installed

    [load] = checks(doctor(ext, root, agent, "--json", "--deep", "--check", "host.load"))

    assert load["level"] == "ok", load


def test_a_tested_range_the_host_misses_warns_in_install_and_doctor(
    ext: Run, tmp_path: Path, pi_facts: tuple[str, str]
) -> None:
    root = make_set(tmp_path / "set", ">=9.0.0")
    agent = tmp_path / "agent"

    installed = ext("--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes")
    plain = doctor(ext, root, agent)
    strict = doctor(ext, root, agent, "--strict")

    said = f"pi {pi_facts[0]} is older than the versions this set was tested with (>=9.0.0)"
    assert installed.returncode == 0 and said in installed.stderr
    assert plain.returncode == 0
    [row] = [line for line in plain.stdout.splitlines() if " host.drift " in line]
    assert row.startswith("warn ") and row.endswith(said)
    # no release of pi ext knows of is 9.x: today's package if one is out, else the author
    assert "fix: that range is newer than pi 1.6.0, the newest ext knows of: if a " in (
        plain.stdout
    )
    assert strict.returncode == 1


def test_a_range_of_the_old_package_names_it_on_the_new_one_and_nothing_on_the_old(
    ext: Run, tmp_path: Path, real_pi: RealPi
) -> None:
    """The bundled set's range before pi 1.x was tested: only the old package has it."""
    root = make_set(tmp_path / "set", ">=0.73.0 <0.74.0")
    agent = tmp_path / "agent"

    installed = ext("--set", str(root), "--agent-dir", str(agent), "install", "--create", "--yes")

    assert installed.returncode == 0, installed.stderr
    npm = f"npm --prefix {real_pi.bin.parents[2]}"  # the pi of .cache/: a local install there
    fix = (
        f"only {OLD_PACKAGE} has those versions: {npm} uninstall {NEW_PACKAGE} && "
        f"{npm} install {OLD_PACKAGE}@0.73.1, or re-test the set"
    )
    assert (fix in installed.stderr) is (real_pi.line.package == NEW_PACKAGE), installed.stderr
    assert ("is newer than" in installed.stderr) is (real_pi.line.package == NEW_PACKAGE)


def test_doctor_runs_before_anything_is_installed(
    ext: Run, tmp_path: Path, e2e_env: dict[str, str]
) -> None:
    root = make_set(tmp_path / "set", ">=0.1.0")

    named = doctor(ext, root, tmp_path / "missing")
    isolated = ext("--set", str(root), "doctor")

    assert named.returncode == 1
    assert "error  agent.dir" in named.stdout and "does not exist" in named.stdout
    assert "Traceback" not in named.stdout + named.stderr
    assert isolated.returncode == 0, isolated.stdout
    ran = f"{ext_as_run(e2e_env)} --set {root}"
    assert f"does not exist yet; `{ran} install` creates it" in isolated.stdout


def test_list_checks_and_an_unknown_check(ext: Run) -> None:
    listed = ext("doctor", "--list-checks")
    unknown = ext("doctor", "--check", "itemz")

    assert listed.returncode == 0
    assert listed.stdout.splitlines()[0].split()[0] == "set"
    assert any(
        line.startswith("host.load ") and "--deep" in line for line in listed.stdout.splitlines()
    )
    assert unknown.returncode == 2 and "doctor has no check named 'itemz'" in unknown.stderr
    assert unknown.stderr.rstrip().endswith("ext doctor --check items")  # to paste, ext as run


def test_the_bundled_set_freshly_installed_is_all_ok(ext: Run) -> None:
    ext("install", "--yes", cwd=REPO, check=True)

    proc = ext("--json", "doctor", cwd=REPO)

    found = checks(proc)
    assert proc.returncode == 0, found
    assert {c["level"] for c in found} <= {"ok", "info"}, [
        c for c in found if c["level"] not in ("ok", "info")
    ]
    by_id = {c["id"]: c for c in found}
    assert by_id["items"]["level"] == "ok" and by_id["host.drift"]["level"] == "ok"


def test_doctor_deep_in_a_repository_loads_none_of_its_project_extensions(
    ext: Run, real_pi: RealPi, tmp_path: Path
) -> None:
    """helper-69: `ext doctor --deep` started pi 0.73 in the folder ext ran in, and pi 0.73
    loads that folder's `.pi/extensions` unasked: a cloned repository's ran."""
    marker = tmp_path / "ran"
    repo = build_tree(
        tmp_path / "repo",
        {".pi/extensions/proj.ts": f'import {{ writeFileSync }} from "node:fs";\n'
                                   f'writeFileSync({json.dumps(str(marker))}, "x");\n'
                                   "export default function () {}\n"},
    )  # fmt: skip
    agent = build_tree(tmp_path / "agent", {"extensions": None})

    done = ext("--agent-dir", str(agent), "doctor", "--deep", "--check", "host.load", cwd=repo)

    assert "Traceback" not in done.stderr, done.stderr
    assert "pi loaded every extension" in done.stdout, done.stdout  # it ran, in the agent dir
    assert not marker.exists(), done.stdout
