"""`offline_load_check` takes back the files pi's start makes for itself (auth.json,
models-store.json holding `{}`) and nothing else: a fake pi that makes them as pi does."""

from __future__ import annotations

import os
from pathlib import Path

from installer.host.pi import offline_load_check
from tests.fs.test_host_run import child_env, fake_host
from tests.helpers import snapshot

# As pi's FileAuthStorageBackend: `{}` where there is no file, 0600; an existing file untouched.
MAKES = """\
for f in auth.json models-store.json; do
  [ -e "$PI_CODING_AGENT_DIR/$f" ] || printf '{}' > "$PI_CODING_AGENT_DIR/$f"
done
echo 'No API key found' >&2
"""


def test_the_files_pi_made_are_taken_back(tmp_path: Path, isolated_home: Path) -> None:
    agent = tmp_path / "agent"
    (agent / "extensions").mkdir(parents=True)
    host = fake_host(tmp_path / "bin" / "pi", MAKES)
    before = snapshot(agent)

    report = offline_load_check(host, agent, child_env(isolated_home))

    assert report.finished
    assert snapshot(agent) == before


def test_a_file_that_was_there_stays_even_when_it_is_empty(
    tmp_path: Path, isolated_home: Path
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "auth.json").write_text("{}")  # the user's, even if pi would write the same
    host = fake_host(tmp_path / "bin" / "pi", MAKES)

    offline_load_check(host, agent, child_env(isolated_home))

    assert sorted(os.listdir(agent)) == ["auth.json"]  # models-store.json, pi's, went


def test_what_a_start_wrote_into_it_stays(tmp_path: Path, isolated_home: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    body = 'printf \'{"anthropic": {"type": "api_key"}}\' > "$PI_CODING_AGENT_DIR/auth.json"\n'
    host = fake_host(tmp_path / "bin" / "pi", body)

    offline_load_check(host, agent, child_env(isolated_home))

    assert (agent / "auth.json").read_text() == '{"anthropic": {"type": "api_key"}}'


def test_a_file_locked_by_a_pi_at_work_stays(tmp_path: Path, isolated_home: Path) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    body = MAKES + 'mkdir "$PI_CODING_AGENT_DIR/auth.json.lock"\n'  # another pi holds its lock
    host = fake_host(tmp_path / "bin" / "pi", body)

    offline_load_check(host, agent, child_env(isolated_home))

    assert sorted(os.listdir(agent)) == ["auth.json", "auth.json.lock"]
