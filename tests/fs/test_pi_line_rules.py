"""The set is read by the rules of the pi found: a fake pi of each line, never started."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from installer.commands.install import Install, install
from installer.ground.context import Env, resolve
from installer.host.lines import LINES, TODAY, PiLine
from installer.host.pi import line_here
from installer.links.states import items
from tests.helpers import build_tree, yes

EXT = "export default function () {}\n"


def fake_pi(prefix: Path, line: PiLine) -> Path:
    """npm's global layout of the line's tested release; its bin leaves `ran` behind if run."""
    pkg = prefix / "lib" / "node_modules" / line.package
    marker = prefix / "ran"
    build_tree(
        prefix,
        {
            f"{pkg.relative_to(prefix)}/{line.bin}": f'#!/bin/sh\necho ran >> "{marker}"\n',
            f"{pkg.relative_to(prefix)}/package.json": json.dumps(
                {"name": line.package, "version": line.tested, "bin": {"pi": line.bin}}
            ),
            "bin/pi": pkg / line.bin,
        },
    )
    entry = pkg / line.bin
    entry.chmod(entry.stat().st_mode | stat.S_IXUSR)
    return prefix / "bin"


def env(tmp_path: Path, path: str) -> Env:
    return Env(environ={**os.environ, "PATH": path}, cwd=tmp_path)


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.name)
def test_the_line_comes_from_the_package_json_of_the_pi_found(tmp_path: Path, line: PiLine) -> None:
    bin_dir = fake_pi(tmp_path / "pi", line)

    assert line_here("pi", str(bin_dir)) is line
    assert not (tmp_path / "pi" / "ran").exists()  # never started


def test_with_no_pi_the_line_is_today_s(tmp_path: Path) -> None:
    assert line_here("pi", str(tmp_path / "empty")) is TODAY


@pytest.mark.parametrize("pi_key", [{}, {"image": "x.png"}])
@pytest.mark.parametrize("line", [*LINES, None], ids=lambda line: line.name if line else "none")
@pytest.mark.parametrize("mode", ["link", "register"])
def test_a_metadata_only_pi_key_is_read_as_the_pi_found_reads_it(
    tmp_path: Path, pi_key: dict[str, str], line: PiLine | None, mode: str
) -> None:
    # 0.73: a manifest naming nothing; 1.x (and no pi: today's): the conventional folders.
    path = str(fake_pi(tmp_path / "pi", line) if line else tmp_path / "empty")
    root = build_tree(
        tmp_path / "set",
        {
            "package.json": json.dumps({"name": "s", "pi": pi_key}),
            "extensions/a.ts": EXT,
            "extensions/b/index.ts": EXT,
        },
    )
    agent = tmp_path / "agent"
    agent.mkdir()
    ctx = resolve(env(tmp_path, path), root, agent)

    result = install(ctx, Install(mode=mode), yes)
    _, listed = items(ctx)

    conventional = (line or TODAY).bare_pi_key == "conventional"
    assert [(i.resource.name, i.state) for i in listed] == (
        [("a", "enabled"), ("b", "enabled")] if conventional else []
    ), result
    assert not (tmp_path / "pi" / "ran").exists()


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.name)
def test_the_bundled_set_imports_nothing_a_line_of_pi_cannot_load(line: PiLine) -> None:
    from installer.doctor.checks.loaded import is_typescript, source_files
    from installer.sets.resources import discover
    from installer.sets.scan_source import scan_imports, scope_drift

    repo = Path(__file__).resolve().parents[2]
    extensions = [r for r in discover(repo, line) if r.kind == "extension"]
    files = [p for r in extensions for p in source_files(Path(r.source))]
    assert len(extensions) >= 5 and files
    drift = {
        str(p): scope_drift(scan_imports(p.read_text(), typescript=is_typescript(p)), line)
        for p in files
    }
    assert {p: d for p, d in drift.items() if d} == {}
