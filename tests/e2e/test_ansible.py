"""examples/ansible: the playbook drives ext idempotently, and fails the play on doctor errors.

ansible-core is installed from the configured package index into a venv cached under
.cache/ansible-venv (keyed by its version and the Python); ext's dependencies are fetched
once into a wheelhouse there too, so the role's own `pip install -e <this checkout>` runs
offline (`--no-index --find-links`), as it would on a fleet without an index.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from tests.e2e.conftest import EXT, REPO, find_pi

pytestmark = [pytest.mark.e2e, pytest.mark.ansible]

ANSIBLE_CORE = "2.19.14"
PLAYBOOK = REPO / "examples" / "ansible" / "site.yml"
CACHE = REPO / ".cache" / "ansible-venv"
PY = f"py{sys.version_info.major}{sys.version_info.minor}"
FLAG = "hello-from-ansible"
# The user's pip configuration, read before the autouse fixture clears PIP_INDEX_URL.
PIP_ENV = {k: v for k, v in os.environ.items() if k.startswith("PIP_")}
RECAP = re.compile(
    r"^(?P<host>\S+)\s+:\s+ok=(?P<ok>\d+)\s+changed=(?P<changed>\d+)\s+"
    r"unreachable=(?P<unreachable>\d+)\s+failed=(?P<failed>\d+)",
    re.MULTILINE,
)


def _fail_or_skip(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _build_env(home: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "TMPDIR", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    return {**env, **PIP_ENV, "HOME": str(home), "PIP_CACHE_DIR": str(CACHE / "pip-cache")}


def _cached(name: str, build: Any, home: Path) -> Path:
    """CACHE/name, built once under a lock; a half-built one (no stamp) is built again."""
    CACHE.mkdir(parents=True, exist_ok=True)
    target = CACHE / name
    stamp = target / ".complete"
    with FileLock(str(CACHE / ".lock")):
        if not stamp.exists():
            shutil.rmtree(target, ignore_errors=True)
            proc = build(target, _build_env(home))
            if proc.returncode != 0:
                shutil.rmtree(target, ignore_errors=True)
                _fail_or_skip(f"could not build {target}:\n{proc.stdout}\n{proc.stderr}")
            stamp.write_text("")
    return target


def _run(*argv: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="session")
def ansible_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a venv holding ansible-core."""

    def build(target: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        made = _run(sys.executable, "-m", "venv", target, env=env)
        if made.returncode != 0:
            return made
        return _run(target / "bin" / "python", "-m", "pip", "install", "-q",
                    f"ansible-core=={ANSIBLE_CORE}", env=env)  # fmt: skip

    home = tmp_path_factory.mktemp("ansible-build-home")
    return _cached(f"ansible-core-{ANSIBLE_CORE}-{PY}", build, home) / "bin"


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels of ext's dependencies and build backend, so the role installs ext offline."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    reqs = sorted([*project["project"]["dependencies"], *project["build-system"]["requires"]])
    key = sha256("\n".join([PY, *reqs]).encode()).hexdigest()[:12]

    def build(target: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return _run(sys.executable, "-m", "pip", "download", "-q", "-d", target, *reqs, env=env)

    home = tmp_path_factory.mktemp("wheel-build-home")
    return _cached(f"wheels-{PY}-{key}", build, home)


def make_set(root: Path, env: dict[str, str]) -> Path:
    """A git repo holding a set with one extension that registers a flag."""
    (root / "extensions").mkdir(parents=True)
    (root / "extset.toml").write_text('[set]\nname = "ansible-demo"\n')
    (root / "extensions" / "hello.ts").write_text(
        'import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";\n\n'
        "export default function (pi: ExtensionAPI) {\n"
        f'\tpi.registerFlag("{FLAG}", {{ description: "the set came from Ansible", '
        'type: "boolean", default: false });\n}\n'
    )
    git_env = {
        **env,
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
    }
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "a set"]):
        subprocess.run(["git", *argv], cwd=root, env=git_env, check=True, capture_output=True)
    return root


@pytest.fixture
def ansible_env(e2e_env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The test's HOME and XDG dirs, Ansible's temp dirs and config inside tmp_path."""
    config = tmp_path / "ansible.cfg"
    config.write_text("[defaults]\n")
    return {
        **e2e_env,
        "LC_ALL": "C.UTF-8",  # ansible-core refuses any other encoding than UTF-8
        "ANSIBLE_CONFIG": str(config),
        "ANSIBLE_HOME": str(tmp_path / "ansible-home"),
        "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-local"),
        "ANSIBLE_REMOTE_TEMP": str(tmp_path / "ansible-remote"),
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_RETRY_FILES_ENABLED": "0",
    }


def playbook(
    ansible_bin: Path,
    env: dict[str, str],
    cwd: Path,
    hosts: dict[str, dict[str, Any]],
    *args: str,
) -> subprocess.CompletedProcess[str]:
    """Run site.yml against local hosts, each with its own variables."""
    inventory = {
        "all": {
            "vars": {
                "ansible_connection": "local",
                "ansible_python_interpreter": str(ansible_bin / "python"),
            },
            "hosts": hosts,
        }
    }
    (cwd / "inventory.json").write_text(json.dumps(inventory))
    argv = [ansible_bin / "ansible-playbook", "-i", cwd / "inventory.json", PLAYBOOK, *args]
    return subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def recap(proc: subprocess.CompletedProcess[str]) -> dict[str, dict[str, int]]:
    return {
        m["host"]: {k: int(v) for k, v in m.groupdict().items() if k != "host"}
        for m in RECAP.finditer(proc.stdout)
    }


def links(agent: Path, set_root: Path) -> dict[str, tuple[str, str]]:
    """Every entry of an agent dir but ext's bookkeeping; link targets relative to the set."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(agent):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) != agent / ".extset"]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(agent))
            if path.is_symlink():
                target = Path(dirpath, os.readlink(path)).resolve()
                if target.is_relative_to(agent.resolve() / ".extset"):  # ext's own /ext
                    out[rel] = ("ext", str(target.relative_to(agent.resolve())))
                else:
                    out[rel] = ("link", str(target.relative_to(set_root.resolve())))
            elif path.is_dir():
                out[rel] = ("dir", "")
            else:
                out[rel] = ("file", path.read_text())
    return out


def stat_tree(root: Path) -> dict[str, tuple[int, int, str]]:
    """(mtime_ns, size, link target) of every entry under root, ext's own files included."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            st = path.lstat()
            target = os.readlink(path) if path.is_symlink() else ""
            out[str(path.relative_to(root))] = (st.st_mtime_ns, st.st_size, target)
    return out


def test_playbook_installs_a_set_idempotently_like_ext_install(
    ansible_bin: Path,
    wheelhouse: Path,
    ansible_env: dict[str, str],
    tmp_path: Path,
) -> None:
    origin = make_set(tmp_path / "origin", ansible_env)
    agent = tmp_path / "agent-ansible"  # does not exist yet: the role passes --create
    host_vars = {
        "extset_set_url": origin.as_uri(),
        "extset_set_version": "main",
        "extset_agent_dir": str(agent),
        "extset_create_agent_dir": True,
        "extset_python": sys.executable,
        "extset_pip_spec": str(REPO),
        "extset_pip_editable": True,
        "extset_pip_extra_args": f"--no-index --find-links {wheelhouse} --no-compile",
    }
    hosts = {"localhost": host_vars}

    first = playbook(ansible_bin, ansible_env, tmp_path, hosts)
    output = first.stdout + first.stderr
    assert first.returncode == 0, output
    assert recap(first)["localhost"]["failed"] == 0, output
    assert recap(first)["localhost"]["changed"] >= 3, output  # pip, git, ext install
    assert re.search(r"TASK \[extset : Install the set with ext\] \**\nchanged:", first.stdout)

    data = Path(ansible_env["XDG_DATA_HOME"]) / "extset"
    assert (data / "venv" / "bin" / "ext").exists(), "ext is installed in the role's venv"
    assert (data / "set" / "extensions" / "hello.ts").is_file(), "the set is checked out"

    before = stat_tree(agent)
    second = playbook(ansible_bin, ansible_env, tmp_path, hosts)
    assert second.returncode == 0, second.stdout + second.stderr
    assert recap(second)["localhost"]["changed"] == 0, second.stdout
    assert stat_tree(agent) == before, "a run that reports changed=0 wrote nothing"

    direct = tmp_path / "agent-direct"
    argv = ["--json", "--set", str(origin), "--agent-dir", str(direct), "install", "--yes"]
    proc = subprocess.run(
        [str(EXT), *argv, "--create"],
        env=ansible_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    assert json.loads(proc.stdout)["changed"] is True
    expected = links(direct, origin)
    assert expected["extensions/hello.ts"] == ("link", "extensions/hello.ts")
    assert links(agent, data / "set") == expected

    pi = find_pi()
    if pi is not None:  # the real pi loads what the play installed
        env = {**ansible_env, "PI_CODING_AGENT_DIR": str(agent)}
        shown = _run(pi, "--help", env=env)
        assert f"--{FLAG}" in shown.stdout + shown.stderr  # pi prints its help on stderr

    # extset_skip on a host that has the item takes it out; dropping the variable puts it back.
    skipping = {"localhost": {**host_vars, "extset_skip": ["hello"]}}
    skipped = playbook(ansible_bin, ansible_env, tmp_path, skipping)
    assert recap(skipped)["localhost"]["changed"] == 1, skipped.stdout
    assert "extensions/hello.ts" not in links(agent, data / "set")
    back = playbook(ansible_bin, ansible_env, tmp_path, hosts)
    assert recap(back)["localhost"]["changed"] == 1, back.stdout
    assert links(agent, data / "set")["extensions/hello.ts"] == expected["extensions/hello.ts"]

    # --check: ext plans with --dry-run; a missing link is reported as a change, not made.
    (agent / "extensions" / "hello.ts").unlink()
    check = playbook(ansible_bin, ansible_env, tmp_path, hosts, "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert recap(check)["localhost"]["changed"] == 1, check.stdout
    assert not (agent / "extensions" / "hello.ts").is_symlink()


FAKE_EXT = """#!{python}
# A stand-in for ext whose doctor answers as {scenario!r}; it records every call.
import json, sys

args = sys.argv[1:]
with open({calls!r}, "a") as f:
    f.write(json.dumps(args) + "\\n")
scenario = {scenario!r}
checks = {{
    "healthy": [{{"id": "links", "level": "ok", "message": "1 link in place"}},
                {{"id": "pi-version", "level": "warn", "message": "pi 0.80 is untested"}}],
    "broken": [{{"id": "pi-missing", "level": "error", "message": "pi is not on PATH",
                 "fix": "npm install -g @mariozechner/pi-coding-agent"}}],
}}.get(scenario, [])
if "doctor" in args and "--help" in args:
    if scenario == "no-doctor":
        sys.stderr.write("Error: No such command 'doctor'.\\n")
        sys.exit(2)
    sys.exit(0)
if "doctor" in args:
    ok = all(c["level"] != "error" for c in checks)
    print(json.dumps({{"ok": ok, "checks": checks}}))
    sys.exit(0 if ok else 1)
if "install" in args:
    print(json.dumps({{"command": "install", "changed": False, "dry_run": "--dry-run" in args,
                      "actions": [], "warnings": []}}))
    sys.exit(0)
sys.exit(2)
"""


def test_play_fails_on_doctor_errors_and_skips_a_missing_doctor(
    ansible_bin: Path, ansible_env: dict[str, str], tmp_path: Path
) -> None:
    origin = make_set(tmp_path / "origin", ansible_env)
    hosts: dict[str, dict[str, Any]] = {}
    for scenario in ("healthy", "broken", "no-doctor"):
        venv = tmp_path / scenario / "venv"
        (venv / "bin").mkdir(parents=True)
        fake = venv / "bin" / "ext"
        calls = str(tmp_path / scenario / "calls.jsonl")
        fake.write_text(FAKE_EXT.format(python=sys.executable, scenario=scenario, calls=calls))
        fake.chmod(0o755)
        hosts[scenario] = {
            "extset_set_url": origin.as_uri(),
            "extset_install": False,
            "extset_venv": str(venv),
            "extset_set_dir": str(tmp_path / scenario / "set"),
            "extset_agent_dir": str(tmp_path / scenario / "agent"),
        }
    hosts["broken"] |= {"extset_only": ["hello", "other"], "extset_mode": "link"}
    hosts["no-doctor"] |= {"extset_skip": "hello", "extset_create_agent_dir": True}

    proc = playbook(ansible_bin, ansible_env, tmp_path, hosts)
    output = proc.stdout + proc.stderr
    result = recap(proc)
    assert proc.returncode == 2, output  # ansible-playbook: some host failed
    assert result["healthy"]["failed"] == 0, output
    assert result["no-doctor"]["failed"] == 0, output
    assert result["broken"]["failed"] == 1, output
    assert "pi-missing: pi is not on PATH (fix: npm install -g" in output
    assert "pi-version: pi 0.80 is untested" in output  # a warning is shown, not fatal
    assert "the post-check is skipped" in output

    def calls(scenario: str) -> list[list[str]]:
        text = (tmp_path / scenario / "calls.jsonl").read_text()
        return [json.loads(line) for line in text.splitlines()]

    broken = hosts["broken"]
    install, probe, doctor = calls("broken")
    globals_ = [
        "--json",
        "--set",
        broken["extset_set_dir"],
        "--agent-dir",
        broken["extset_agent_dir"],
    ]
    assert install == [*globals_, "install", "--yes", "--mode", "link", "--only", "hello,other"]
    assert probe == ["doctor", "--help"]
    assert doctor == [*globals_, "doctor"]
    install, probe = calls("no-doctor")
    assert install[-5:] == ["install", "--yes", "--skip", "hello", "--create"]
