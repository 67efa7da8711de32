"""A fix line pasted into a shell names what it says, whatever the names hold.

A trial (helper-38) pasted doctor's fix for a dangling link named `precious x;touch PWNED;.ts`:
it removed another file and ran the `touch`. A name or path in a fix is one shell word
(installer.ground.shellword); these tests paste the fixes into bash and look at what they did.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import resolve
from installer.ground.errors import ExtError
from tests.fs.test_doctor_checks import doctor, env, only
from tests.helpers import build_tree, yes

HOSTILE = ["precious x;touch PWNED;.ts", "it's $(touch PWNED).ts", "tick `touch PWNED`.ts"]


def pasted(command: str, cwd: Path) -> None:
    """Run a fix as the person would paste it (`~` expands to the test's HOME)."""
    subprocess.run(["bash", "-c", command], cwd=cwd, check=False, env={**os.environ})


@pytest.mark.parametrize("name", HOSTILE)
def test_doctors_rm_of_a_dangling_link_removes_that_link_and_runs_nothing(
    tmp_path: Path, name: str
) -> None:
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n', "prompts/p.md": "p"})
    agent = tmp_path / "agent"
    agent.mkdir()
    install(resolve(env(tmp_path), root, agent), Install(), yes)
    (agent / "extensions").mkdir(exist_ok=True)
    os.symlink(tmp_path / "nowhere", agent / "extensions" / name)
    (agent / "extensions" / "precious").write_text("mine\n")  # what the bare word named
    here = tmp_path / "paste"
    here.mkdir()

    [found] = only(doctor(tmp_path, root, agent), "items.foreign")
    assert found.fix is not None
    pasted(found.fix, here)

    assert not os.path.lexists(agent / "extensions" / name)
    assert (agent / "extensions" / "precious").read_text() == "mine\n"
    assert os.listdir(here) == []  # nothing ran


@pytest.mark.parametrize(
    "labels", [["my dir", "x$(touch PWNED)"], ["plain"]], ids=["hostile", "plain"]
)
def test_the_skip_of_an_install_refusal_is_one_word_naming_each_item(
    tmp_path: Path, labels: list[str]
) -> None:
    """Folder extensions pi would hang on (a FIFO): the refusal's `--skip` names them."""
    root = build_tree(tmp_path / "set", {"extset.toml": '[set]\nname = "s"\n'})
    for label in labels:
        folder = root / "extensions" / label
        folder.mkdir(parents=True)
        os.mkfifo(folder / "index.ts")
    agent = tmp_path / "agent"
    agent.mkdir()

    with pytest.raises(ExtError) as refused:
        install(resolve(env(tmp_path), root, agent), Install(), yes)

    fix = refused.value.fix or ""
    words = shlex.split(fix[fix.index("--skip") :])
    assert words[:2] == ["--skip", ",".join(sorted(labels))], fix


def test_consent_checks_approve_names_the_project_as_one_word(tmp_path: Path) -> None:
    from installer.consent.commands import CheckResult
    from installer.render.consent import check_lines

    project = tmp_path / "my proj $(touch PWNED)"
    result = CheckResult(str(project), "never-approved", "0" * 64, None, ())
    [line] = [x for x in check_lines(result) if "approve them with" in x]

    command = line.split("with: ", 1)[1]
    assert shlex.split(command) == ["ext", "consent", "approve", str(project)]


@pytest.mark.parametrize("name", ["my set", "x;touch PWNED"])
def test_doctors_chmod_of_a_set_or_agent_dir_others_can_write_names_that_folder(
    tmp_path: Path, name: str
) -> None:
    """helper-52: `chmod -R go-w /tmp/a/my set` pasted ran chmod -R on `set` in the folder
    it was pasted in; the set's folder and the agent dir's stayed writable by others."""
    root = build_tree(tmp_path / name, {"extset.toml": '[set]\nname = "s"\n', "prompts/p.md": "p"})
    agent = tmp_path / f"agent {name}"
    agent.mkdir()
    install(resolve(env(tmp_path), root, agent), Install(), yes)
    here = build_tree(tmp_path / "paste", {"set/x": "mine\n", "my/x": "mine\n"})
    os.chmod(here / "set", 0o777)  # noqa: S103 (what a bare word would narrow)
    for folder in (root, agent):
        os.chmod(folder, 0o777)  # noqa: S103 (the loose folders doctor finds)

    found = doctor(tmp_path, root, agent)
    fixes = [f.fix for f in [*only(found, "set.permissions"), *only(found, "agent.permissions")]]
    assert len(fixes) == 2 and all(fix and fix.startswith("chmod") for fix in fixes), fixes
    for fix in fixes:
        pasted(str(fix), here)

    assert not (root.stat().st_mode & 0o022) and not (agent.stat().st_mode & 0o022)
    assert (here / "set").stat().st_mode & 0o777 == 0o777  # what the bare words named
    assert sorted(os.listdir(here)) == ["my", "set"]  # nothing ran
