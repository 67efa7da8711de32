"""pi_loader when pi's loader cannot be asked: each reason said in one line, never a traceback.

The real loader's answers are checked against the real pi in tests/conformance; here fake
pi packages stand in for the cases the real one cannot show: no pi, no node, an older pi
without the loader exports, a loader that hangs.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from installer.host.loader import Unavailable, View, ask
from installer.host.node import find_node
from installer.host.pi import HostInfo, package_dir
from tests.helpers import build_tree

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None and not os.environ.get("CI"), reason="no node")


def fake_pi(tmp_path: Path, index_js: str, shebang: str = "#!/usr/bin/env node") -> HostInfo:
    """A pi package whose dist/index.js is `index_js`, and a bin/pi link to its cli.js."""
    pkg = tmp_path / "lib" / "node_modules" / "@fake" / "pi-coding-agent"
    build_tree(
        pkg,
        {
            "package.json": json.dumps(
                {
                    "name": "@fake/pi-coding-agent",
                    "version": "0.1.0",
                    "type": "module",
                    "bin": {"pi": "dist/cli.js"},
                    "exports": {".": {"import": "./dist/index.js"}},
                }
            ),
            "dist/cli.js": f"{shebang}\n",
            "dist/index.js": index_js,
        },
    )
    (tmp_path / "bin").mkdir()
    os.symlink(pkg / "dist" / "cli.js", tmp_path / "bin" / "pi")
    return HostInfo("pi", tmp_path / "bin" / "pi", pkg / "dist" / "cli.js", "0.1.0",
                    "@fake/pi-coding-agent", "@fake")  # fmt: skip


def reason(answer: tuple[View, ...] | Unavailable) -> str:
    assert isinstance(answer, Unavailable), answer
    assert "\n" not in answer.reason
    return answer.reason


def test_no_pi_is_said_in_one_line() -> None:
    assert "pi was not found" in reason(ask(None, [(Path("/a"), Path("/b"))]))


def test_the_package_is_found_from_the_binary_and_a_foreign_binary_has_none(
    tmp_path: Path,
) -> None:
    host = fake_pi(tmp_path, "")
    assert package_dir(host) == host.resolved.parents[1]
    stray = host._replace(package=None)
    assert package_dir(stray) is None
    assert "pi package" in reason(ask(stray, [(tmp_path, tmp_path)]))


def test_without_node_on_path_or_beside_pi_the_loader_is_not_asked(tmp_path: Path) -> None:
    host = fake_pi(tmp_path, "")
    empty = tmp_path / "empty-path"
    empty.mkdir()
    assert find_node(host, str(empty)) is None
    answer = ask(host, [(tmp_path, tmp_path)], {"PATH": str(empty)})
    assert "node was not found" in reason(answer)


@needs_node
def test_node_beside_pi_is_the_last_resort_and_a_shebang_naming_node_wins(
    tmp_path: Path,
) -> None:
    assert NODE is not None
    host = fake_pi(tmp_path, "")
    os.symlink(NODE, tmp_path / "bin" / "node")
    empty = tmp_path / "empty-path"
    empty.mkdir()
    beside = find_node(host, str(empty))
    assert beside is not None and beside.path == tmp_path / "bin" / "node"
    assert "beside" in beside.how
    on_path = find_node(host, str(Path(NODE).parent))
    assert on_path is not None and "PATH" in on_path.how
    named = fake_pi(tmp_path / "named", "", shebang=f"#!{NODE}")
    chosen = find_node(named, str(empty))
    assert chosen is not None and chosen.path == Path(NODE) and "first line" in chosen.how


@needs_node
def test_an_older_pi_without_the_loader_exports_is_named_with_what_it_lacks(
    tmp_path: Path,
) -> None:
    host = fake_pi(tmp_path, "export class SettingsManager {}\n")
    assert reason(ask(host, [(tmp_path, tmp_path)])) == (
        "pi 0.1.0 does not export DefaultResourceLoader: its loader cannot be asked"
    )


@needs_node
def test_a_loader_that_hangs_is_stopped_at_the_timeout(tmp_path: Path) -> None:
    hang = "setInterval(() => {}, 1000);\nawait new Promise(() => {});\n"
    host = fake_pi(tmp_path, hang)
    assert "did not answer within 1 s" in reason(ask(host, [(tmp_path, tmp_path)], timeout=1))


@needs_node
def test_a_loader_that_crashes_says_its_last_line(tmp_path: Path) -> None:
    host = fake_pi(tmp_path, 'throw new Error("broken build");\n')
    said = reason(ask(host, [(tmp_path, tmp_path)]))
    assert said.startswith("pi's loader failed (exit 1)")


# An SDK with the loader's two exports, answering for an empty agent dir, beside a module that
# throws when it is imported: the loader imports the modules its names come from, and no other.
_SDK = """\
export class SettingsManager {
    static create() { return new SettingsManager(); }
    drainErrors() { return []; }
}
export class DefaultResourceLoader {
    async reload() {}
    getExtensions() { return { extensions: [], errors: [] }; }
    getSkills() { return { skills: [], diagnostics: [] }; }
    getPrompts() { return { prompts: [], diagnostics: [] }; }
    getThemes() { return { themes: [], diagnostics: [] }; }
}
"""
_THROWS = 'throw new Error("the interactive UI, imported");\n'


def _split_sdk(tmp_path: Path, index_js: str) -> HostInfo:
    host = fake_pi(tmp_path, index_js)
    assert host.resolved is not None
    build_tree(host.resolved.parent, {"core/loader.js": _SDK, "modes/ui.js": _THROWS})
    return host


@needs_node
def test_the_loader_imports_only_the_modules_its_names_come_from(tmp_path: Path) -> None:
    index = (
        "// pi's entry: re-exports only\n"
        "export { DefaultResourceLoader,\n"
        '    SettingsManager as SettingsManager } from "./core/loader.js";\n'
        'export { InteractiveMode } from "./modes/ui.js";\n'
        "//# sourceMappingURL=index.js.map\n"
    )
    host = _split_sdk(tmp_path, index)
    views = ask(host, [(tmp_path, tmp_path)])
    assert not isinstance(views, Unavailable), views
    assert [view.loaded for view in views] == [()]
    whole = ask(host, [(tmp_path, tmp_path)], {**os.environ, "EXT_LOADER_WHOLE_SDK": "1"})
    assert reason(whole).startswith("pi's loader failed (exit 1)")


@pytest.mark.parametrize(
    "index",
    [
        'export * from "./core/loader.js";\nexport { InteractiveMode } from "./modes/ui.js";\n',
        'export { DefaultResourceLoader, SettingsManager } from "./core/loader.js";\n'
        'import "./modes/ui.js";\n',
    ],
    ids=["export-star", "code-of-its-own"],
)
@needs_node
def test_an_entry_that_is_not_re_exports_alone_is_imported_whole(
    tmp_path: Path, index: str
) -> None:
    host = _split_sdk(tmp_path, index)
    assert reason(ask(host, [(tmp_path, tmp_path)])).startswith("pi's loader failed (exit 1)")
