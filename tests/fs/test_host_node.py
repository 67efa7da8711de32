"""The Node check against fake pis and fake nodes: no real Node is started.

A fake pi is npm's global layout (`<prefix>/lib/node_modules/<package>` with its package.json
and a bin starting `#!/usr/bin/env node`, linked from `<prefix>/bin/pi`); a fake node is a
shell script on a tmp PATH that prints a chosen version and appends its arguments to a log,
so every start of it can be counted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from installer.doctor import Finding, Subject, run_checks
from installer.doctor.subject import resolve_subject
from installer.ground.context import Env
from installer.host.lines import NEW_PACKAGE, OLD_PACKAGE
from installer.host.node import find_node, fit, node_version, refusal
from installer.host.pi import HostInfo, find_host
from tests.fs.test_host_find import make_executable
from tests.helpers import build_tree

EXT = Path(sys.executable).with_name("ext")


def fake_pi(
    tmp_path: Path,
    package: str = NEW_PACKAGE,
    version: str = "1.6.0",
    engines: str | None = ">=22.19.0",
    first_line: str = "#!/usr/bin/env node",
) -> Path:
    """A pi installed globally under `<tmp>/prefix`; returns its bin folder."""
    prefix = tmp_path / "prefix"
    pkg = prefix / "lib" / "node_modules" / package
    manifest: dict[str, object] = {"name": package, "version": version}
    manifest["bin"] = {"pi": "dist/bundle/cli.js"}
    if engines is not None:
        manifest["engines"] = {"node": engines}
    build_tree(pkg, {"package.json": json.dumps(manifest), "dist/bundle/cli.js": f"{first_line}\n"})
    make_executable(pkg / "dist" / "bundle" / "cli.js")
    build_tree(prefix, {"bin/pi": pkg / "dist" / "bundle" / "cli.js"})
    return prefix / "bin"


def fake_node(folder: Path, version: str) -> tuple[Path, Path]:
    """`<folder>/node` printing `version` (read from a file, so a test can change it); and its
    log, one line per start."""
    log, said = folder / "node.log", folder / "node.version"
    build_tree(
        folder,
        {
            "node.version": version + "\n",
            "node": f'#!/bin/sh\necho "$*" >> "{log}"\nread v < "{said}"\necho "$v"\n',
        },
    )
    make_executable(folder / "node")
    return folder / "node", log


def starts(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def host_on(path: str) -> HostInfo:
    host = find_host("pi", path)
    assert host is not None
    return host


def doctor(tmp_path: Path, path: str) -> list[Finding]:
    s = Subject(Env(environ={**os.environ, "PATH": path}, cwd=tmp_path))
    return [f for f in run_checks(s, ["host.node"]) if f.id == "host.node"]


@pytest.fixture
def node20(tmp_path: Path) -> tuple[Path, Path]:
    return fake_node(tmp_path / "node20", "v20.20.2")


@pytest.fixture
def node22(tmp_path: Path) -> tuple[Path, Path]:
    return fake_node(tmp_path / "node22", "v22.23.5")


# ---- doctor -----------------------------------------------------------------


def test_pi_1x_on_node_20_is_an_error_naming_the_node_the_need_and_both_fixes(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    node, _ = node20
    path = f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}"

    [finding] = doctor(tmp_path, path)

    assert finding.level == "error"
    assert finding.message == (
        f"pi 1.6.0 cannot run on Node 20.20.2 ({node}): it needs Node 22.19.0 or newer "
        "(engines.node in its package.json)"
    )
    assert finding.fix == (
        "install Node 22.19.0 or newer and put it first on PATH; or keep Node 20.20.2 and "
        f"switch to pi 0.73.1, which runs on it: npm uninstall -g {NEW_PACKAGE} && "
        f"npm install -g {OLD_PACKAGE}@0.73.1"
    )


@pytest.mark.parametrize(("tested", "offered"), [(">=1.6.0 <1.7.0", False), ("1.6 || 0.73", True)])
def test_an_older_pi_is_offered_only_inside_the_sets_tested_range(
    tmp_path: Path, node20: tuple[Path, Path], tested: str, offered: bool
) -> None:
    """A trial: with `tested = ">=1.6.0 <1.7.0"` (init's default), the fix for Node 20 said to
    switch to pi 0.73.1, which would only trade the error for a drift warning."""
    node, _ = node20
    the_set = build_tree(
        tmp_path / "set", {"extset.toml": f'[set]\nname = "s"\n[host]\ntested = "{tested}"\n'}
    )
    path = f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}"
    s = resolve_subject(Env(environ={**os.environ, "PATH": path}, cwd=the_set), the_set, None)

    [finding] = [f for f in run_checks(s, ["host.node"]) if f.id == "host.node"]

    assert finding.level == "error"
    assert ("switch to pi 0.73.1" in (finding.fix or "")) == offered
    assert (finding.fix or "").startswith("install Node 22.19.0 or newer and put it first on PATH")


def test_a_pi_in_a_folders_own_node_modules_is_switched_there_not_globally(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    """scripts/setup's pis (`.cache/pi-1.6.0/node_modules`) are local installs: the fix
    switches that folder's pi, as the update check's hint does, never a global one."""
    node, _ = node20
    local = tmp_path / "cache" / "pi-1.6.0"
    pkg = local / "node_modules" / NEW_PACKAGE
    manifest = {"name": NEW_PACKAGE, "version": "1.6.0", "engines": {"node": ">=22.19.0"}}
    manifest["bin"] = {"pi": "dist/bundle/cli.js"}
    cli = pkg / "dist" / "bundle" / "cli.js"
    build_tree(
        pkg, {"package.json": json.dumps(manifest), "dist/bundle/cli.js": "#!/usr/bin/env node\n"}
    )
    make_executable(cli)
    build_tree(local, {"node_modules/.bin/pi": cli})

    [finding] = doctor(tmp_path, f"{local / 'node_modules' / '.bin'}{os.pathsep}{node.parent}")

    assert finding.level == "error"
    assert finding.fix is not None and finding.fix.endswith(
        f"switch to pi 0.73.1, which runs on it: npm --prefix {local} uninstall {NEW_PACKAGE} "
        f"&& npm --prefix {local} install {OLD_PACKAGE}@0.73.1"
    )


def test_the_first_node_on_path_is_the_one_judged(
    tmp_path: Path, node20: tuple[Path, Path], node22: tuple[Path, Path]
) -> None:
    bin_ = fake_pi(tmp_path)
    first22 = os.pathsep.join([str(bin_), str(node22[0].parent), str(node20[0].parent)])
    first20 = os.pathsep.join([str(bin_), str(node20[0].parent), str(node22[0].parent)])

    [ok] = doctor(tmp_path, first22)
    [bad] = doctor(tmp_path, first20)

    assert (ok.level, ok.message) == (
        "ok",
        f"Node 22.23.5 at {node22[0]} runs pi 1.6.0 (it needs >=22.19.0)",
    )
    assert bad.level == "error"


def test_an_old_pi_on_node_20_is_ok_and_on_a_too_old_node_has_no_older_pi_to_offer(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    bin_ = fake_pi(tmp_path, OLD_PACKAGE, "0.73.1", ">=20.6.0")
    node18, _ = fake_node(tmp_path / "node18", "v18.20.0")

    [ok] = doctor(tmp_path, f"{bin_}{os.pathsep}{node20[0].parent}")
    [bad] = doctor(tmp_path, f"{bin_}{os.pathsep}{node18.parent}")

    assert ok.level == "ok"
    assert bad.level == "error"
    assert bad.fix == "install Node 20.6.0 or newer and put it first on PATH"


def test_a_node_between_a_range_s_parts_cannot_run_pi_and_one_above_its_top_is_a_warning(
    tmp_path: Path, node22: tuple[Path, Path]
) -> None:
    node21, _ = fake_node(tmp_path / "node21", "v21.7.0")
    gap = fake_pi(tmp_path / "gap", engines="^20.6.0 || >=22.19.0")
    top = fake_pi(tmp_path / "top", engines=">=20.6.0 <22")

    [between] = doctor(tmp_path, f"{gap}{os.pathsep}{node21.parent}")
    [above] = doctor(tmp_path, f"{top}{os.pathsep}{node22[0].parent}")

    assert between.level == "error"
    assert "it needs a Node that meets '^20.6.0 || >=22.19.0'" in between.message
    assert (above.level, above.message) == (
        "warn",
        f"Node 22.23.5 at {node22[0]} is newer than pi 1.6.0 was made for "
        "(>=20.6.0 <22, engines.node in its package.json)",
    )


def test_without_engines_the_table_s_node_for_the_pi_s_line_is_used(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    bin_ = fake_pi(tmp_path, engines=None)

    [finding] = doctor(tmp_path, f"{bin_}{os.pathsep}{node20[0].parent}")

    assert finding.level == "error"
    assert "it needs Node 22.19.0 or newer (engines.node in ext's table of pi lines)" in (
        finding.message
    )


def test_no_node_on_path_for_a_pi_that_starts_node_from_path_is_an_error(tmp_path: Path) -> None:
    bin_ = fake_pi(tmp_path)

    [finding] = doctor(tmp_path, str(bin_))

    assert finding.level == "error"
    assert finding.message == (
        "pi 1.6.0 cannot start: its first line runs node from PATH, which is not there "
        "(it needs Node 22.19.0 or newer)"
    )
    assert finding.fix == "install Node 22.19.0 or newer and put it on PATH"


def test_a_node_named_by_path_that_is_gone_is_an_error_naming_it(tmp_path: Path) -> None:
    gone = tmp_path / "old-nvm" / "bin" / "node"
    bin_ = fake_pi(tmp_path, first_line=f"#!{gone}")

    [finding] = doctor(tmp_path, str(bin_))

    assert finding.level == "error"
    assert finding.message.startswith(f"pi 1.6.0 cannot start: its first line runs {gone}, ")


def test_a_node_named_by_path_in_the_first_line_wins_over_path(
    tmp_path: Path, node20: tuple[Path, Path], node22: tuple[Path, Path]
) -> None:
    bin_ = fake_pi(tmp_path, first_line=f"#!{node22[0]}")

    [finding] = doctor(tmp_path, f"{bin_}{os.pathsep}{node20[0].parent}")

    assert finding.level == "ok"
    assert str(node22[0]) in finding.message


def test_env_s_options_and_assignments_are_read_through(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    bin_ = fake_pi(tmp_path, first_line="#!/usr/bin/env -S NODE_OPTIONS=-x node --no-warnings")
    host = host_on(f"{bin_}{os.pathsep}{node20[0].parent}")

    found = find_node(host, f"{bin_}{os.pathsep}{node20[0].parent}")

    assert found is not None and found.path == node20[0] and found.runs_pi


@pytest.mark.parametrize(
    ("first_line", "says"),
    [("#!/bin/sh", "names no node in its first line"), ("", "names no node in its first line")],
)
def test_a_pi_that_is_no_node_script_is_not_judged(
    tmp_path: Path, node20: tuple[Path, Path], first_line: str, says: str
) -> None:
    """A wrapper or a compiled pi: the Node on PATH may have nothing to do with it."""
    bin_ = fake_pi(tmp_path, first_line=first_line)

    [finding] = doctor(tmp_path, f"{bin_}{os.pathsep}{node20[0].parent}")

    assert finding.level == "info"
    assert says in finding.message
    assert starts(node20[1]) == []


def test_a_node_that_prints_no_version_is_unknown_not_an_error(tmp_path: Path) -> None:
    bin_ = fake_pi(tmp_path)
    node, _ = fake_node(tmp_path / "odd", "no version here")

    [finding] = doctor(tmp_path, f"{bin_}{os.pathsep}{node.parent}")

    assert finding.level == "info"
    assert finding.message == f"{node} printed no version: whether it can run pi 1.6.0 is unknown"


def test_no_pi_is_a_skip(tmp_path: Path, node20: tuple[Path, Path]) -> None:
    [finding] = doctor(tmp_path, str(node20[0].parent))

    assert (finding.level, finding.message) == ("info", "not checked: pi was not found (see host)")


# ---- the version, remembered ------------------------------------------------


def test_a_second_look_does_not_start_node_again(tmp_path: Path, node22: tuple[Path, Path]) -> None:
    node, log = node22
    host = host_on(f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}")
    path = f"{host.path.parent}{os.pathsep}{node.parent}"

    first, second = fit(host, path), fit(host, path)

    assert (first.version, second.version) == ("22.23.5", "22.23.5")
    assert first.side == second.side == "in"
    assert starts(log) == ["--version"]


def test_a_replaced_node_is_asked_again(tmp_path: Path, node22: tuple[Path, Path]) -> None:
    node, log = node22
    assert node_version(node) == "22.23.5"

    node.write_text(node.read_text() + "# upgraded\n")  # another file: size and mtime differ

    assert node_version(node) == "22.23.5"
    assert starts(log) == ["--version", "--version"]


def test_a_remembered_too_old_answer_is_asked_again_before_it_refuses(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    """A version manager's shim is one binary for many Nodes: the one it runs now may fit."""
    node, log = node20
    host = host_on(f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}")
    path = f"{host.path.parent}{os.pathsep}{node.parent}"
    assert fit(host, path).cannot_run
    assert len(starts(log)) == 1  # a fresh answer is believed at once

    (node.parent / "node.version").write_text("v22.23.5\n")  # the shim switched Node
    now = fit(host, path)

    assert (now.version, now.cannot_run) == ("22.23.5", False)
    assert refusal(host, now) is None
    assert len(starts(log)) == 2


# ---- ext launch -------------------------------------------------------------


def test_launch_refuses_on_a_node_too_old_and_starts_nothing(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    node, log = node20
    path = os.pathsep.join([str(fake_pi(tmp_path)), str(node.parent), os.environ["PATH"]])
    env = {**os.environ, "PATH": path, "EXT_NO_UPDATE_CHECK": "1"}

    proc = subprocess.run(
        [str(EXT), "launch", "--", "--version"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert proc.returncode == 1
    assert proc.stdout == ""
    assert f"error: pi 1.6.0 cannot run on Node 20.20.2 ({node})" in proc.stderr
    assert f"npm install -g {OLD_PACKAGE}@0.73.1" in proc.stderr
    assert "cli.js" not in "\n".join(starts(log))  # node was asked its version, never ran pi
    assert starts(log) == ["--version"]


def test_install_of_a_set_with_a_tested_range_warns_that_pi_cannot_start_on_this_node(
    tmp_path: Path, node20: tuple[Path, Path], node22: tuple[Path, Path]
) -> None:
    """helper-81: pi 1.6 with Node 20 first on PATH, `ext install` said `done: 10 linked` and
    no more; only doctor said pi would not start. A set with a tested range (its install
    looks for pi anyway) now says it before the plan; on a Node that fits, nothing."""
    set_root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n[host]\ntested = "1.6.0"\n',
            "extensions/a.ts": "export default function () {}\n",
        },
    )
    said = {}
    pi = fake_pi(tmp_path)
    for node, _ in (node20, node22):
        path = os.pathsep.join([str(pi), str(node.parent), os.environ["PATH"]])
        env = {**os.environ, "PATH": path, "EXT_NO_UPDATE_CHECK": "1", "EXT_NO_REPLAY": "1"}
        argv = [str(EXT), "--set", str(set_root), "--agent-dir", str(tmp_path / "agent")]
        proc = subprocess.run(
            [*argv, "install", "--yes", "--create"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        said[node.parent.name] = [ln for ln in proc.stderr.splitlines() if "Node" in ln]
    assert said["node22"] == []
    [line] = said["node20"]
    assert line.startswith(
        f"warning: pi 1.6.0 cannot run on Node 20.20.2 ({node20[0]}): it needs Node 22.19.0 "
        "or newer (engines.node in its package.json); `"
    )
    # the doctor named as ext was run, with this run's set and dir: pasted, it looks here
    assert line.endswith(
        f"--set {set_root} --agent-dir {tmp_path / 'agent'} doctor` says how to fix it"
    )


def test_launch_on_a_node_that_fits_execs_pi(tmp_path: Path, node22: tuple[Path, Path]) -> None:
    node, log = node22
    bin_ = fake_pi(tmp_path)
    path = os.pathsep.join([str(bin_), str(node.parent), os.environ["PATH"]])
    env = {**os.environ, "PATH": path, "EXT_NO_UPDATE_CHECK": "1"}

    proc = subprocess.run(
        [str(EXT), "launch", "--", "--version"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "v22.23.5\n"  # what the fake node prints for pi
    assert starts(log) == ["--version", f"{bin_ / 'pi'} --version"]  # pi, by its first line


# ---- pi's loader (doctor --deep) ------------------------------------------------


def test_pi_s_loader_is_not_started_under_a_node_that_cannot_run_pi(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    from installer.host.loader import Unavailable, ask

    node, log = node20
    path = f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}"

    answer = ask(host_on(path), [(tmp_path, tmp_path)], {**os.environ, "PATH": path})

    assert isinstance(answer, Unavailable)
    assert answer.reason.startswith(f"pi 1.6.0 cannot run on Node 20.20.2 ({node})")
    assert starts(log) == ["--version"]


def test_doctor_deep_skips_starting_pi_and_its_loader_and_says_why(
    tmp_path: Path, node20: tuple[Path, Path]
) -> None:
    from installer.doctor import resolve_subject

    node, log = node20
    path = f"{fake_pi(tmp_path)}{os.pathsep}{node.parent}"
    agent = build_tree(tmp_path / "agent", {"extensions/x.ts": "export default () => {}\n"})
    env = Env(environ={**os.environ, "PATH": path}, cwd=tmp_path)
    s = resolve_subject(env, None, agent)

    found = run_checks(s, ["host.node", "host.load", "loader"])

    said = {f.id: (f.level, f.message) for f in found}
    assert said["host.node"][0] == "error"
    skipped = "not checked: pi cannot run on Node 20.20.2 (see host.node)"
    assert said["host.load"] == said["loader"] == ("info", skipped)
    assert starts(log) == ["--version"]  # asked once per doctor run, pi never started
