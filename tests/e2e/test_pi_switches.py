"""One switch: ext and `pi config` agree on what is on and off, judged by pi's own loader.

settings.json is written exactly as `pi config` writes it (`pi_config` below, pinned against a
real `pi config` run in a pty by the first tests); after every ext command, pi's loader and
`ext list --json` agree, and a switch made in pi holds.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Run, loader_view
from tests.helpers import build_tree
from tests.pis import RealPi

# What pi config writes and what pi loads may differ by pi: every test runs on each real pi.
pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("real_pi")]

EXT_CODE = "export default function (pi) {}\n"
SET = {
    "extset.toml": '[set]\nname = "sw"\n',
    "extensions/a.ts": EXT_CODE,
    "extensions/b.ts": EXT_CODE,
    "extensions/g/index.ts": EXT_CODE,
    "skills/rev/SKILL.md": "---\nname: rev\ndescription: Reviews.\n---\nReview.\n",
    "prompts/fix.md": "---\ndescription: Fix it.\n---\nFix.\n",
}
AFTER_PI_CONFIG = {
    "a": "enabled",
    "b": "disabled",
    "g": "disabled",
    "rev": "disabled",
    "fix": "enabled",
}
ENTRY_FILE = {"a": "a.ts", "b": "b.ts", "g": "g/index.ts", "rev": "SKILL.md", "fix": "fix.md"}


# --- what `pi config` writes (config-selector.js), and the real one to pin it --------------


def pi_config(path: Path, path_in: str, on: bool, package: str | None = None) -> None:
    """Switch one item in settings.json as `pi config` does: the item's patterns dropped,
    `+path`/`-path` appended, an entry with no arrays folded back; JSON.stringify(…, null, 2)."""
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    key = path_in.split("/", maxsplit=1)[0]

    def edit(current: list[str]) -> list[str]:
        kept = [p for p in current if (p[1:] if p[:1] in "!+-" else p) != path_in]
        return [*kept, ("+" if on else "-") + path_in]

    if package is None:
        data[key] = edit(data.get(key, []))
    else:
        packages = data["packages"]
        i = next(
            i
            for i, p in enumerate(packages)
            if (p if isinstance(p, str) else p["source"]) == package
        )
        entry = packages[i] if isinstance(packages[i], dict) else {"source": packages[i]}
        entry[key] = edit(entry.get(key, []))
        packages[i] = entry
    path.write_text(json.dumps(data, indent=2))


def _spawn_pi_config(agent: Path, env: dict[str, str], cwd: Path) -> Any:
    pexpect = pytest.importorskip("pexpect")
    pi = shutil.which("pi", path=env["PATH"])
    assert pi is not None
    child = pexpect.spawn(
        str(pi),
        ["config"],
        cwd=str(cwd),
        env={**env, "PI_CODING_AGENT_DIR": str(agent), "TERM": "xterm"},
        dimensions=(40, 120),
        encoding="utf-8",
        timeout=30,
    )
    child.expect("Resource Configuration|Global Resources")  # 0.73's title, then 1.6's
    child.expect(r"a\.ts")  # the list is drawn: keys reach it now
    return child


def _press_space_and_wait(child: Any, settings: Path) -> str:
    """Switch the selected item; pi's write is done once the text changed and pi released its
    lock (the `settings.json.lock` folder it holds from the read to after the write)."""
    before = settings.read_text() if settings.exists() else ""
    lock = settings.with_name("settings.json.lock")
    child.send(" ")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        now = settings.read_text() if settings.exists() else ""
        if now != before and not lock.exists() and _whole(now) and settings.read_text() == now:
            return now
        child.expect([pexpect_timeout(), r"\S"], timeout=0.05)  # let pi draw, then look again
    raise AssertionError("pi config wrote nothing")


def _whole(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def pexpect_timeout() -> Any:
    return pytest.importorskip("pexpect").TIMEOUT


def test_the_real_pi_config_writes_what_pi_config_here_writes(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    (agent / "extensions").mkdir(parents=True)
    (agent / "extensions" / "a.ts").symlink_to(set_root / "extensions" / "a.ts")
    settings = agent / "settings.json"
    settings.write_text("{}")
    mirror = tmp_path / "mirror.json"
    mirror.write_text("{}")
    child = _spawn_pi_config(agent, e2e_env, tmp_path)
    try:
        for on in (False, True):  # the only item: the linked a.ts, top-level, user scope
            real = _press_space_and_wait(child, settings)
            pi_config(mirror, "extensions/a.ts", on)
            assert real == mirror.read_text()
    finally:
        child.sendcontrol("c")
        child.close(force=True)


def test_the_real_pi_config_switches_a_package_entry_as_here(
    pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", {"extensions/a.ts": EXT_CODE})
    agent = tmp_path / "agent"
    agent.mkdir()
    start = json.dumps({"theme": "dark", "packages": [str(set_root)]}, indent=2)
    settings = agent / "settings.json"
    settings.write_text(start)
    mirror = tmp_path / "mirror.json"
    mirror.write_text(start)
    child = _spawn_pi_config(agent, e2e_env, tmp_path)
    try:
        for on in (False, True):
            real = _press_space_and_wait(child, settings)
            pi_config(mirror, "extensions/a.ts", on, package=str(set_root))
            assert real == mirror.read_text()
    finally:
        child.sendcontrol("c")
        child.close(force=True)


# --- after every ext command, pi's loader and `ext list` agree ------------------------------


def pi_loads(agent: Path, cwd: Path, env: dict[str, str]) -> set[str]:
    """Real paths of every extension, skill and prompt pi's own loader loads (ext's own agent
    files under .extset/agent/ belong to no item and are left out)."""
    view = loader_view(agent, cwd, env)
    assert not view.failed, view.failed
    own = os.path.realpath(agent / ".extset" / "agent")
    return {
        real
        for kind in ("extension", "skill", "prompt")
        for real in view.reals(kind)
        if not real.startswith(own + os.sep)
    }


def ext_says(ext: Run, agent: Path, set_root: Path) -> dict[str, dict[str, Any]]:
    done = ext("--json", "list", "--agent-dir", str(agent), cwd=set_root, check=True)
    return {i["name"]: i for i in json.loads(done.stdout)["items"]}


def agree(ext: Run, agent: Path, set_root: Path, env: dict[str, str]) -> dict[str, str]:
    """ext's states, once checked against what pi loads from the set."""
    said = ext_says(ext, agent, set_root)
    loaded = pi_loads(agent, set_root, env)
    for name, item in said.items():
        folder = {"skill": "skills/rev", "prompt": "prompts"}.get(item["kind"], "extensions")
        real = os.path.realpath(set_root / folder / ENTRY_FILE[name])
        assert (real in loaded) == (item["state"] == "enabled"), (name, item, sorted(loaded))
    return {name: item["state"] for name, item in said.items()}


def install(ext: Run, agent: Path, set_root: Path, *args: str) -> None:
    ext("install", "--yes", "--agent-dir", str(agent), *args, cwd=set_root, check=True)


def test_one_switch_across_ext_commands_and_both_modes(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    ours = ("--agent-dir", str(agent))

    def run(*args: str) -> dict[str, str]:
        ext(*args, "--yes", *ours, cwd=set_root, check=True)
        return agree(ext, agent, set_root, e2e_env)

    install(ext, agent, set_root, "--create", "--mode", "link")
    assert set(agree(ext, agent, set_root, e2e_env).values()) == {"enabled"}

    # pi config switches the linked a off: ext sees it, and says where it comes from
    pi_config(settings, "extensions/a.ts", False)
    said = ext_says(ext, agent, set_root)["a"]
    assert said["state"] == "disabled"
    assert said["pi"]["pattern"] == "-extensions/a.ts"
    assert said["pi"]["where"] == 'settings.json "extensions"'
    pinned = settings.read_text()
    assert run("install")["a"] == "disabled"  # a switch made in pi holds
    assert settings.read_text() == pinned

    assert run("disable", "b")["b"] == "disabled"  # link mode: the .off rename
    assert settings.read_text() == pinned
    assert run("enable", "a")["a"] == "enabled"  # clears pi's own switch
    assert "-extensions/a.ts" not in settings.read_text()

    # link -> register: pi's switch (a) and ext's (b) carry over as the entry's filters
    pi_config(settings, "extensions/a.ts", False)
    top = json.loads(settings.read_text())["extensions"]
    states = run("install", "--mode", "register")
    assert states["a"] == states["b"] == "disabled" and states["g"] == "enabled"
    data = json.loads(settings.read_text())
    assert data["extensions"] == top  # pi's top-level patterns stay, byte for byte
    assert data["packages"] == [
        {"source": str(set_root), "extensions": ["-extensions/a.ts", "-extensions/b.ts"]}
    ]

    # pi config switches inside the entry: g off, a back on; ext keeps them, in order
    pi_config(settings, "extensions/g/index.ts", False, package=str(set_root))
    pi_config(settings, "extensions/a.ts", True, package=str(set_root))
    pi_config(settings, "skills/rev/SKILL.md", False, package=str(set_root))
    pinned = settings.read_text()
    states = run("install")
    assert settings.read_text() == pinned  # pi's patterns, byte for byte and in order
    assert states == AFTER_PI_CONFIG

    # ext disable in register mode writes what pi config would write
    before = settings.read_text()
    assert run("disable", "fix")["fix"] == "disabled"
    mirror = tmp_path / "mirror.json"
    mirror.write_text(before)
    pi_config(mirror, "prompts/fix.md", False, package=str(set_root))
    assert json.loads(settings.read_text()) == json.loads(mirror.read_text())
    assert run("enable", "fix")["fix"] == "enabled"

    # register -> link: what is off in the entry is parked; what it had on comes on
    states = run("install", "--mode", "link")
    assert states == AFTER_PI_CONFIG
    assert (agent / "extensions" / "b.ts.off").is_symlink()

    pi_config(settings, "extensions/b.ts", True)  # pi's own switch, for uninstall to keep
    top = {k: v for k, v in json.loads(settings.read_text()).items() if k != "packages"}
    ext("uninstall", "--yes", *ours, cwd=set_root, check=True)
    data = json.loads(settings.read_text())
    assert "packages" not in data or data["packages"] == []
    assert {k: v for k, v in data.items() if k != "packages"} == top  # pi's patterns stay
    assert not {p for p in pi_loads(agent, set_root, e2e_env) if p.startswith(str(set_root))}


def test_enable_clears_a_switch_written_in_another_form_pi_reads_as_the_item(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    """A trial: with `"skills": ["-skills/rev"]` (the skill's folder) or `-./extensions/a.ts`
    by hand, `ext enable` dropped pi config's own form, which was not there, added `+path`,
    and said `now enabled`: pi went on skipping it (a `-` beats a `+`)."""
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    install(ext, agent, set_root, "--create")
    settings = agent / "settings.json"
    by_hand = {"extensions": ["-./extensions/a.ts"], "skills": ["-skills/rev"], "theme": "x"}
    settings.write_text(json.dumps(by_hand))
    states = agree(ext, agent, set_root, e2e_env)
    assert states["a"] == states["rev"] == "disabled"
    ext("enable", "a", "skill:rev", "--yes", "--agent-dir", str(agent), cwd=set_root, check=True)
    states = agree(ext, agent, set_root, e2e_env)
    assert states["a"] == states["rev"] == "enabled"
    assert json.loads(settings.read_text()) == {"theme": "x"}


def test_a_project_package_entry_is_what_pi_uses_and_ext_says_so(
    ext: Run, real_pi: RealPi, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    install(ext, agent, set_root, "--create", "--mode", "register")
    ext("disable", "a", "--yes", "--agent-dir", str(agent), cwd=set_root, check=True)
    # `pi install -l` of the set, run where ext runs: .pi/settings.json of the cwd
    project = set_root / ".pi"
    project.mkdir()
    (project / "settings.json").write_text(json.dumps({"packages": [".."]}, indent=2))
    if real_pi.line.trust_gate:  # pi 1.x reads a project's settings only once it trusts it
        assert agree(ext, agent, set_root, e2e_env)["a"] == "disabled"
        trust = {os.path.realpath(set_root): True}  # what pi saves for "trust this project"
        (agent / "trust.json").write_text(json.dumps(trust, indent=2))
    states = agree(ext, agent, set_root, e2e_env)
    assert states["a"] == "enabled"  # the project entry wins, with no filter
    said = ext_says(ext, agent, set_root)["a"]
    assert said["pi"]["scope"] == "project"
    doctor = ext("--json", "doctor", "--agent-dir", str(agent), cwd=set_root)
    twice = [c for c in json.loads(doctor.stdout)["checks"] if c["id"] == "loaded-twice"]
    assert any("project .pi/settings.json" in c["message"] for c in twice), twice


def test_a_set_linked_and_a_package_too_is_what_pi_loads_and_ext_says(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    ours = ("--agent-dir", str(agent))
    install(ext, agent, set_root, "--create", "--mode", "link", "--skip", "fix")
    ext("disable", "b", "--yes", *ours, cwd=set_root, check=True)  # parked: b.ts.off
    # `pi install <set>` by hand: the entry as pi writes it, relative to the agent dir
    settings = agent / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data["packages"] = [os.path.relpath(set_root, agent)]
    settings.write_text(json.dumps(data, indent=2))
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["b"], states["fix"]) == ("enabled", "enabled")  # from the package

    # a disable now keeps the link and writes pi's -path: the link wins, off
    ext("disable", "a", "--yes", *ours, cwd=set_root, check=True)
    assert (agent / "extensions" / "a.ts").is_symlink()
    assert agree(ext, agent, set_root, e2e_env)["a"] == "disabled"
    doctor = ext("--json", "doctor", *ours, cwd=set_root)
    [twice] = [c for c in json.loads(doctor.stdout)["checks"] if c["id"] == "loaded-twice"]
    assert twice["level"] == "error"
    assert twice["message"].endswith("loaded from the package now: b, prompt:fix"), twice
    ext("enable", "a", "--yes", *ours, cwd=set_root, check=True)
    assert agree(ext, agent, set_root, e2e_env)["a"] == "enabled"

    # doctor's fix for b (parked by ext, loaded by the entry): register mode, which makes
    # that switch hold as the entry's filter, as pi loads it
    install(ext, agent, set_root, "--mode", "register", "--skip", "fix")
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"]) == ("enabled", "disabled"), states


# --- `[set] switch = "pi"`: link mode switches as pi config does, so pi config lists it ------


def pi_config_lists(agent: Path, cwd: Path, env: dict[str, str]) -> dict[str, bool]:
    """Real path -> on, for every item `pi config` lists: pi's package manager resolve, as
    `pi config` runs it before drawing its list (tests/e2e/pi_config_list.mjs)."""
    import subprocess

    from installer.host.node import find_node
    from installer.host.pi import find_host, package_dir

    pi = shutil.which("pi", path=env["PATH"])
    assert pi is not None
    host = find_host(str(pi), env["PATH"])
    assert host is not None
    package, node = package_dir(host), find_node(host, env.get("PATH"))
    assert package is not None and node is not None
    script = Path(__file__).with_name("pi_config_list.mjs")
    done = subprocess.run(
        [str(node.path), str(script), str(package), str(agent), str(cwd)],
        env={**env, "PI_CODING_AGENT_DIR": str(agent)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    listed = json.loads(done.stdout.splitlines()[-1])
    return {i["realPath"]: i["enabled"] for kind in listed.values() for i in kind if i["realPath"]}


def test_with_switch_pi_a_disable_is_what_pi_config_lists_as_off(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(
        tmp_path / "set", {**SET, "extset.toml": '[set]\nname = "sw"\nswitch = "pi"\n'}
    )
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    ours = ("--agent-dir", str(agent))
    real = {
        "a": os.path.realpath(set_root / "extensions" / "a.ts"),
        "g": os.path.realpath(set_root / "extensions" / "g" / "index.ts"),
        "rev": os.path.realpath(set_root / "skills" / "rev" / "SKILL.md"),
    }
    install(ext, agent, set_root, "--create", "--mode", "link")
    links = sorted(p.name for p in (agent / "extensions").iterdir())

    ext("disable", "a", "g", "rev", "--yes", *ours, cwd=set_root, check=True)
    assert sorted(p.name for p in (agent / "extensions").iterdir()) == links  # nothing parked
    states = agree(ext, agent, set_root, e2e_env)  # pi's loader does not load them
    assert states == {
        "a": "disabled",
        "b": "enabled",
        "g": "disabled",
        "rev": "disabled",
        "fix": "enabled",
    }
    listed = pi_config_lists(agent, set_root, e2e_env)
    assert {name: listed.get(path) for name, path in real.items()} == {
        "a": False,
        "g": False,
        "rev": False,
    }  # pi config lists each one, as off
    mirror = tmp_path / "mirror.json"
    for path in ("extensions/a.ts", "extensions/g/index.ts", "skills/rev/SKILL.md"):
        pi_config(mirror, path, False)
    assert json.loads(settings.read_text()) == json.loads(mirror.read_text())

    # switched back on the way pi config does it: ext says enabled, and pi loads it
    pi_config(settings, "extensions/a.ts", True)
    said = ext_says(ext, agent, set_root)["a"]
    assert said["state"] == "enabled"
    assert agree(ext, agent, set_root, e2e_env)["a"] == "enabled"
    assert pi_config_lists(agent, set_root, e2e_env)[real["a"]] is True

    # ext enable clears pi's `-path`: pi loads it again
    ext("enable", "g", "--yes", *ours, cwd=set_root, check=True)
    assert agree(ext, agent, set_root, e2e_env)["g"] == "enabled"
    assert pi_config_lists(agent, set_root, e2e_env)[real["g"]] is True


def test_with_switch_pi_install_makes_parked_links_visible_to_pi_config(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    ours = ("--agent-dir", str(agent))
    install(ext, agent, set_root, "--create", "--mode", "link")
    ext("disable", "b", "g", "--yes", *ours, cwd=set_root, check=True)  # the default: parked
    assert (agent / "extensions" / "b.ts.off").is_symlink()
    real_b = os.path.realpath(set_root / "extensions" / "b.ts")
    assert real_b not in pi_config_lists(agent, set_root, e2e_env)  # pi config cannot list it

    (set_root / "extset.toml").write_text('[set]\nname = "sw"\nswitch = "pi"\n')
    install(ext, agent, set_root)
    assert (agent / "extensions" / "b.ts").is_symlink()
    assert not (agent / "extensions" / "b.ts.off").exists()
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["b"], states["g"]) == ("disabled", "disabled")  # install never re-enables
    assert pi_config_lists(agent, set_root, e2e_env)[real_b] is False
    again = ext("--json", "install", "--yes", *ours, cwd=set_root, check=True)
    assert json.loads(again.stdout)["changed"] is False


def test_with_switch_pi_register_to_link_carries_the_entrys_switches_as_paths(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(
        tmp_path / "set", {**SET, "extset.toml": '[set]\nname = "sw"\nswitch = "pi"\n'}
    )
    agent = tmp_path / "agent"
    install(ext, agent, set_root, "--create", "--mode", "register")
    ext("disable", "b", "--yes", "--agent-dir", str(agent), cwd=set_root, check=True)
    pi_config(agent / "settings.json", "extensions/g/index.ts", False, package=str(set_root))
    install(ext, agent, set_root, "--mode", "link")
    states = agree(ext, agent, set_root, e2e_env)
    assert (states["a"], states["b"], states["g"]) == ("enabled", "disabled", "disabled")
    assert (
        not list((agent / "extensions").glob("*.off")) and not (agent / "extensions/.off").exists()
    )
    listed = pi_config_lists(agent, set_root, e2e_env)
    for name, on in (("a.ts", True), ("b.ts", False), ("g/index.ts", False)):
        assert listed[os.path.realpath(set_root / "extensions" / name)] is on, name


@pytest.mark.parametrize("mode", ["link", "register"])
def test_a_settings_file_with_a_bom_or_that_does_not_parse_is_read_as_each_pi_reads_it(
    ext: Run, pi_bin: Path, e2e_env: dict[str, str], tmp_path: Path, mode: str
) -> None:
    """helper-51: a byte-order mark before settings.json (a Windows editor's) made `ext list`
    say a registered set was not installed, pi 1.6 loading it (pi 1.x reads past the mark,
    0.73 reads the file as empty). Each state is the pi's; a file pi reads as empty is said."""
    set_root = build_tree(tmp_path / "set", SET)
    agent = tmp_path / "agent"
    settings = agent / "settings.json"
    install(ext, agent, set_root, "--create", "--mode", mode)
    pi_config(
        settings, "extensions/a.ts", False, package=str(set_root) if mode == "register" else None
    )
    whole = settings.read_text()

    settings.write_text("\ufeff" + whole)
    states = agree(ext, agent, set_root, e2e_env)
    listed = ext("list", "--agent-dir", str(agent), cwd=set_root, check=True)
    if pi_strips_bom(e2e_env):
        assert states["a"] == "disabled" and states["b"] == "enabled"
        assert "warning:" not in listed.stderr
    else:
        assert "starts with a byte-order mark (U+FEFF)" in listed.stderr
        assert ": pi reads it as empty; so does this list (fix: remove it: sed" in listed.stderr
        assert states["a"] == "enabled" if mode == "link" else states["a"] == "not-installed"

    settings.write_text(whole[:-3])  # cut short, as no pi is writing it (no lock)
    states = agree(ext, agent, set_root, e2e_env)
    listed = ext("--json", "list", "--agent-dir", str(agent), cwd=set_root, check=True)
    [said] = json.loads(listed.stdout)["warnings"]
    assert said.startswith(f"{settings}: not valid JSON (")
    assert ": pi reads it as empty; so does this list (fix: edit " in said
    assert states["a"] == ("enabled" if mode == "link" else "not-installed")

    # helper-58: a duplicate key is read by JSON.parse (its last value), and so by ext's list
    data = json.loads(whole)
    doubled = whole.rstrip()[:-1].rstrip() + ',\n  "theme": "dark",\n  "theme": "light"\n}\n'
    settings.write_text(doubled)
    assert agree(ext, agent, set_root, e2e_env)["a"] == "disabled"
    assert json.loads(doubled) == {**data, "theme": "light"}

    # helper-59: a byte that is no UTF-8: pi reads it (as U+FFFD), and so does ext's list
    settings.write_bytes(whole.encode().replace(b"{", b'{\n  "theme": "caf\xe9",', 1))
    assert agree(ext, agent, set_root, e2e_env)["a"] == "disabled"

    # helper-58: a file at the lock path: pi reads settings.json as empty, and so does ext
    settings.write_text(whole)
    (agent / "settings.json.lock").write_text("")
    states = agree(ext, agent, set_root, e2e_env)
    assert states["a"] == ("enabled" if mode == "link" else "not-installed")
    listed = ext("list", "--agent-dir", str(agent), cwd=set_root, check=True)
    assert "settings.json.lock is a file: pi cannot lock settings.json" in listed.stderr


def pi_strips_bom(env: dict[str, str]) -> bool:
    """Whether the pi on env's PATH is of a line that reads settings.json past a BOM."""
    from installer.host.pi import line_here

    return line_here("pi", env["PATH"]).strips_bom
