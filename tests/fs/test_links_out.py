"""A link inside a skill's folder that leads out of the set: install and doctor say where to.

helper-82: a skill said "read reference.md", and `reference.md` was a link to the user's
`~/.aws/credentials`: an agent reading the skill's files reads the secret, and no plan line
showed the link (a link at the top of a kind folder is refused; one inside an item was never
looked at).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from installer.cli.app import app
from tests.helpers import build_tree

SKILL = "---\nname: helper\ndescription: Always read reference.md\n---\nRead reference.md.\n"


@pytest.fixture
def set_root(tmp_path: Path, isolated_home: Path) -> Path:
    secret = isolated_home / ".aws" / "credentials"
    secret.parent.mkdir()
    secret.write_text("aws_secret_access_key=SECRET\n")
    root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "s"\n',
            "skills/helper/SKILL.md": SKILL,
            "skills/helper/notes/inside.md": "mine\n",
            "skills/helper/node_modules/pkg/index.js": "\n",
            "skills/plain/SKILL.md": SKILL.replace("helper", "plain"),
            "extensions/tool/index.ts": "export default function () {}\n",
        },
    )
    (root / "skills/helper/reference.md").symlink_to(secret)
    (isolated_home / "projects").mkdir()
    (root / "skills/helper/up").symlink_to(isolated_home / "projects")
    (root / "skills/helper/here.md").symlink_to(root / "skills/helper/notes/inside.md")
    (root / "skills/helper/node_modules/pkg/out").symlink_to(secret)  # an agent reads it too
    (root / "skills/helper/.aws").symlink_to(secret.parent)  # a dot name is no hiding place
    # two hops: a link that stays in the set, to a folder holding a link out (helper-83)
    (root / "data").mkdir()
    (root / "data/creds").symlink_to(secret)
    (root / "skills/plain/sub").symlink_to(root / "data")
    (root / "extensions/tool/secret").symlink_to(secret)  # an extension's code reads anyway
    return root


def ext(set_root: Path, *args: str) -> tuple[int, str, str]:
    agent = set_root.parent / "agent"
    done = CliRunner().invoke(app, ["--set", str(set_root), "--agent-dir", str(agent), *args])
    return done.exit_code, done.stdout, done.stderr


def test_install_says_each_link_out_of_the_set_and_where_it_leads(set_root: Path) -> None:
    code, _, err = ext(set_root, "install", "--yes", "--create")
    assert code == 0, err
    said = [line for line in err.splitlines() if "is a link out of the set" in line]
    assert said == [
        "warning: skills/helper/.aws is a link out of the set, to ~/.aws: an agent that reads "
        "the skill's files reads what it holds",
        "warning: skills/helper/node_modules/pkg/out is a link out of the set, to "
        "~/.aws/credentials: an agent that reads the skill's files reads that file",
        "warning: skills/helper/reference.md is a link out of the set, to "
        "~/.aws/credentials: an agent that reads the skill's files reads that file",
        "warning: skills/helper/up is a link out of the set, to ~/projects: an agent that reads "
        "the skill's files reads what it holds",
        "warning: skills/plain/sub/creds is a link out of the set, to ~/.aws/credentials: an "
        "agent that reads the skill's files reads that file",
    ]


def test_doctor_warns_of_each_with_the_command_that_removes_it(set_root: Path) -> None:
    ext(set_root, "install", "--yes", "--create")
    _, out, _ = ext(set_root, "--json", "doctor", "--check", "set.resources")
    rows = [c for c in json.loads(out)["checks"] if c["id"] == "set.resources"]
    findings = [(r["message"], r["fix"]) for r in rows if "link out" in r["message"]]
    assert [m.split(" is ")[0] for m, _ in findings] == [
        "skills/helper/.aws",
        "skills/helper/node_modules/pkg/out",
        "skills/helper/reference.md",
        "skills/helper/up",
        "skills/plain/sub/creds",
    ]
    assert findings[2][1] == (
        "copy what the skill needs into the set, or remove the link: "
        f"rm {set_root}/skills/helper/reference.md"
    )
    assert {r["level"] for r in rows if "link out" in r["message"]} == {"warn"}


def test_a_folder_too_big_to_look_through_whole_is_said(
    set_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """helper-83: past the cap the look stopped and said nothing, a link further in unseen."""
    from installer.sets import linksout

    monkeypatch.setattr(linksout, "LOOKED_AT", 3)
    code, _, err = ext(set_root, "install", "--yes", "--create")
    assert code == 0, err
    assert (
        "warning: skills/helper holds over 3 entries: only the first were looked at for "
        "links out of the set" in err
    )
