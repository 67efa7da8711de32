"""The layers of docs/architecture.md, held: a module imports from the layers below its own.

Each import that goes up is named here with why; a new one fails until it is a decision.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "installer"

# Outside in; a package of the domain shares its rank with the rest of the domain.
RANK = {"cli": 6, "render": 5, "commands": 4, "engine": 2, "ground": 1, "host": 1}
DOMAIN = {
    "sets",
    "links",
    "settings",
    "consent",
    "scaffold",
    "doctor",
    "updates",
    "agent",
    "hosts",
}
# settings.json's writer, pi's lock, and the file's stat before either (or pi) reads it.
ENGINE_FILES = {"settings/store.py", "settings/lock.py", "settings/files.py"}

# (importing module, imported module): why it may go up.
UPWARD = {
    # The engine carries out writes whose rules live with the file they write.
    ("engine/apply.py", "agent/recorder.py"): "the recorder's copy of an agent file",
    ("engine/transaction.py", "settings/__init__.py"): "settings.json's text edits",
    ("engine/transaction.py", "settings/merge.py"): "undo's three-way merge of settings.json",
    ("engine/transaction.py", "consent/store.py"): "the consent store's lock and its path",
    ("engine/transaction.py", "consent/record.py"): "the store's records, read and written",
    ("engine/plan.py", "consent/store.py"): "a consent change's payload type",
    ("engine/plan.py", "consent/record.py"): "a consent change's payload type",
    ("settings/store.py", "settings/__init__.py"): "the text edits it writes",
    ("settings/store.py", "settings/splice.py"): "the text edits it writes",
    ("settings/store.py", "settings/jsondoc.py"): "the document it edits, parsed",
    # Resolving the set asks pi's rules whether a folder is a pi package.
    ("ground/context.py", "sets/pirules.py"): "a package.json with a pi manifest is a set",
    # Resolving the agent dir asks the host --host names where its dir is.
    ("ground/context.py", "hosts/table.py"): "the host --host or EXT_HOST names",
    ("ground/context.py", "hosts/dirs.py"): "another host's dir, in its own order",
    ("ground/context.py", "hosts/profile.py"): "the context's host, a type",
}


def _rank(rel: str) -> int:
    if rel in ENGINE_FILES:
        return RANK["engine"]
    top = rel.split("/", 1)[0]
    return 3 if top in DOMAIN else RANK[top]


def _target(dotted: str) -> str | None:
    rel = dotted.removeprefix("installer.").replace(".", "/")
    for candidate in (f"{rel}.py", f"{rel}/__init__.py"):
        if (PACKAGE / candidate).is_file():
            return candidate
    return None


def _imports(path: Path) -> set[str]:
    """Every installer module a file imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("installer."):
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("installer.")}
    return {t for t in map(_target, found) if t is not None}


def _upward() -> set[tuple[str, str]]:
    up = set()
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        if "/" not in rel:
            continue
        for target in _imports(path):
            if "/" in target and _rank(target) > _rank(rel):
                up.add((rel, target))
    return up


def test_the_package_root_holds_only_packages() -> None:
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py"]
    for folder in PACKAGE.iterdir():
        if folder.is_dir() and folder.name != "__pycache__":
            assert folder.name in RANK or folder.name in DOMAIN, f"{folder.name}: which layer?"


def test_no_module_imports_a_layer_above_its_own_but_the_named_ones() -> None:
    up = _upward()
    assert up - UPWARD.keys() == set(), "a new upward import: move the code or name it here"
    assert UPWARD.keys() - up == set(), "no longer imported: take it off the list"


def test_no_verb_imports_another_verb() -> None:
    for path in (PACKAGE / "commands").glob("*.py"):
        others = {t for t in _imports(path) if t.startswith("commands/")} - {"commands/__init__.py"}
        assert others == set(), f"{path.name} imports {sorted(others)}"
