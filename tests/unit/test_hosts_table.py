"""The table of hosts: names the manifest knows, places that stay inside the host's dir or a
shared HOME folder, and --host's words for a name it does not know."""

from __future__ import annotations

from pathlib import Path

import pytest

from installer.ground.errors import UsageError
from installer.ground.manifest import HOST_NAMES, parse_manifest
from installer.hosts.table import HOSTS, PI, host_named


def test_the_manifest_knows_every_host_of_the_table() -> None:
    assert tuple(HOSTS) == HOST_NAMES


def test_pi_is_the_host_when_none_is_named() -> None:
    assert host_named(None) is PI
    assert host_named("") is PI


def test_an_unknown_host_names_the_closest_and_the_known_ones() -> None:
    with pytest.raises(UsageError) as err:
        host_named("claud", "EXT_HOST")
    assert "EXT_HOST: no host named 'claud'" in err.value.message
    assert "did you mean claude?" in err.value.fix
    assert "pi, claude, codex, opencode, gemini" in err.value.fix


@pytest.mark.parametrize("host", [h for h in HOSTS.values() if not h.is_pi], ids=str)
def test_another_host_takes_skills_and_commands_and_says_why_not_the_rest(host) -> None:
    assert {p.kind for p in host.places} == {"skill", "prompt"}
    assert set(host.why_not) == {"extension", "theme"}
    home = Path("/home/u")
    for folder in host.folders(home):
        assert not folder.startswith("~")
        assert folder.startswith(str(home)) or not folder.startswith("/")


def test_a_manifest_names_the_hosts_it_serves_with_their_dirs_and_ranges(tmp_path: Path) -> None:
    text = b"""
[hosts]
serve = ["pi", "claude", "claude"]
[hosts.claude]
agent_dir = "cc"
tested = ">=2.1"
"""
    m = parse_manifest(text, tmp_path / "extset.toml")
    assert m.serves == ("pi", "claude")
    assert m.host_dirs == {"claude": (tmp_path / "cc").absolute()}
    assert m.hosts_tested == {"claude": ">=2.1"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (b'[hosts]\nserve = ["claud"]\n', "no agent named 'claud'"),
        (b"[hosts.pi]\ntested = '1.6.0'\n", "[hosts.pi]"),
        (b"[hosts.gemini]\ntested = 'not a range'\n", "[hosts.gemini] tested"),
    ],
)
def test_a_bad_hosts_table_is_a_usage_error_naming_the_fix(
    tmp_path: Path, text: bytes, said: str
) -> None:
    with pytest.raises(UsageError) as err:
        parse_manifest(text, tmp_path / "extset.toml")
    assert said in err.value.message
    assert err.value.fix


def test_an_unknown_key_of_a_host_table_is_a_warning(tmp_path: Path) -> None:
    m = parse_manifest(b"[hosts.claude]\ndir = 'x'\n", tmp_path / "extset.toml")
    assert any("[hosts.claude] dir" in w for w in m.warnings)
