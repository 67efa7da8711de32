"""Two skills of one set whose frontmatter gives one name: what the real pi makes of them,
which is why `ext doctor` warns of it (set.resources)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import Run, loader_view
from tests.helpers import build_tree

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("real_pi")]


def test_pi_loads_one_of_two_skills_of_one_name_and_doctor_says_so_first(
    ext: Run, e2e_env: dict[str, str], tmp_path: Path
) -> None:
    set_root = build_tree(
        tmp_path / "set",
        {
            "extset.toml": '[set]\nname = "twins"\n',
            "skills/a/SKILL.md": "---\nname: same\ndescription: one\n---\nOne.\n",
            "skills/b/SKILL.md": "---\nname: same\ndescription: two\n---\nTwo.\n",
        },
    )
    agent = tmp_path / "agent"
    at = ("--set", str(set_root), "--agent-dir", str(agent))
    ext(*at, "install", "--create", "--yes", check=True)

    view = loader_view(agent, set_root, e2e_env)
    skills = [item for item in view.loaded if item.kind == "skill"]
    assert len(skills) == 1  # one of the two, not both
    collisions = [d.winner for d in view.diagnostics if d.kind == "skill" and d.winner]
    assert collisions == [skills[0].path]  # and says which it loads instead of the other
    said = json.loads(ext(*at, "--json", "doctor", "--check", "set.resources").stdout)
    [row] = [c for c in said["checks"] if c["level"] == "warn"]
    assert "both name their skill 'same'" in row["message"]
