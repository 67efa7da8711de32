"""What `ext init` and `ext add` write: a valid, commented manifest and templates that stay lean."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from installer.ground.manifest import parse_manifest
from installer.scaffold import manifest_text as mt
from installer.scaffold import templates

PATH = Path("/set/extset.toml")


@pytest.mark.parametrize("version", ["0.73.1", None])
def test_manifest_is_valid_and_warns_of_nothing(version: str | None) -> None:
    text = mt.manifest_text("my set", version)
    manifest = parse_manifest(text.encode(), PATH)
    assert manifest.name == "my set"
    assert manifest.mode == "link"
    assert manifest.host_tested == (">=0.73.0 <0.74.0" if version else None)
    assert manifest.warnings == ()


def test_manifest_explains_every_section_in_comments() -> None:
    text = mt.manifest_text("x", "0.73.1")
    comments = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    for word in ("[target]", "agent_dir", "quietStartup", "[guards.NAME]", "requires", "renamed"):
        assert word in comments
    for table in ("[set]", "[host]", "[settings.seed]", "[updates]"):
        assert table in text


def test_the_tested_comment_says_what_the_range_parser_takes() -> None:
    from installer.host.versions import range_error

    text = mt.manifest_text("x", "0.73.1")
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.startswith("tested = "))
    start = max(i for i in range(end) if not lines[i].startswith("#")) + 1
    comment = " ".join(line.lstrip("# ") for line in lines[start:end])
    examples = re.findall(r'"([^"]+)"', comment)
    assert len(examples) >= 3
    assert [e for e in examples if range_error(e) is not None] == []
    assert "or commas" not in comment  # npm ranges refuse them (exit 2 in a manifest)
    assert range_error(">=0.73.0, <0.74.0") is not None


def test_the_target_comment_names_every_way_to_name_an_agent_dir() -> None:
    comment = " ".join(mt.manifest_text("x", None).split("[target]", 1)[1].split("\n")[:5])
    for way in ("--agent-dir", "EXT_AGENT_DIR", "PI_CODING_AGENT_DIR"):
        assert way in comment


def test_manifest_quotes_a_hostile_name() -> None:
    name = 'a "quoted"\nname \\ with = and ['
    manifest = parse_manifest(mt.manifest_text(name, None).encode(), PATH)
    assert manifest.name == name


def test_manifest_carries_where_it_came_from() -> None:
    text = mt.manifest_text("repo", None, "Made from install.sh\nsecond line")
    assert "# Made from install.sh\n# second line" in text
    assert parse_manifest(text.encode(), PATH).warnings == ()


@pytest.mark.parametrize(
    ("version", "expected"),
    [("0.73.1", ">=0.73.0 <0.74.0"), ("1.0.0-rc.1", ">=1.0.0 <1.1.0"), ("x", None), (None, None)],
)
def test_tested_range_is_the_minor_series(version: str | None, expected: str | None) -> None:
    assert mt.tested_range(version) == expected


@pytest.mark.parametrize(
    ("name", "prefix"), [("myset", "myset"), ("My Set!", "my-set"), ("---", "my-set")]
)
def test_flag_prefix_is_flag_safe(name: str, prefix: str) -> None:
    assert templates.flag_prefix(name) == prefix


def test_example_registers_one_flag_with_type_imports_only() -> None:
    text = templates.example("My Set", "@earendil-works/pi-coding-agent")
    assert text.count("pi.registerFlag(") == 1
    assert '"my-set-hello"' in text
    imports = [line for line in text.splitlines() if line.startswith("import")]
    assert imports == ['import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";']


def test_example_keeps_a_hostile_name_out_of_its_strings() -> None:
    text = templates.example('x"); evil(); ("*/', templates.DEFAULT_PACKAGE)
    assert "evil()" not in text
    assert text.count("*/") == 1  # the doc comment closes once, where the template closes it


def test_extension_template_registers_nothing() -> None:
    text = templates.EXTENSION.format(name="deploy", package=templates.DEFAULT_PACKAGE)
    code = [line.strip() for line in text.splitlines() if line.strip().startswith("pi.")]
    assert code == []
    assert "import type" in text


def test_tsconfig_maps_the_host_package_when_known() -> None:
    body = json.loads(templates.tsconfig("@scope/pi-coding-agent", Path("/nm/@scope/pkg")))
    assert body["compilerOptions"]["paths"] == {"@scope/pi-coding-agent": ["/nm/@scope/pkg"]}
    assert body["compilerOptions"]["noEmit"] is True
    unknown = json.loads(templates.tsconfig(None, None))
    assert "paths" not in unknown["compilerOptions"]


def test_theme_has_every_colour_token() -> None:
    body = json.loads(templates.theme("mine", None))
    assert body["name"] == "mine"
    assert len(body["colors"]) == 51
    assert "$schema" not in body


def test_readme_and_gitignore_name_no_host() -> None:
    text = templates.readme("s") + templates.GITIGNORE
    assert not re.search(r"https?://", text)


def test_the_manifest_names_both_switch_styles() -> None:
    text = mt.manifest_text("x", "0.73.1")
    assert parse_manifest(text.encode(), PATH).switch == "rename"
    assert 'switch = "rename"' in text and '"pi"' in text
