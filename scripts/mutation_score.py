"""Per-module mutation score from mutmut's result files (mutants/**/*.py.meta).

A mutant is "text" when it changes nothing but the words of string literals (a message, a
detail, `"utf-8"` → `"UTF-8"`): the target of 90 % is for the others, the mutants of logic.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import sys
import tokenize
from collections import Counter
from pathlib import Path

# mutmut 3.8's exit codes: 1 and 3 are a failing test run, 0 a mutant every test passed.
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}
SURVIVED = {0}
# From Python 3.12 an f-string is tokens: only its FSTRING_MIDDLE parts are words.
_TEXT = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


@functools.cache
def _tokens(source: str) -> list[tuple[int, str]]:
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    found = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(t.type, t.string) for t in found if t.type not in skip]


def _functions(module: Path) -> dict[str, str]:
    """Each function of a mutated module (originals and mutants) by name, as source."""
    text = module.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    out = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "__mutmut_" in node.name:
            # By line numbers: ast.get_source_segment reads the file from its start each time.
            body = "".join(lines[node.lineno - 1 : node.end_lineno]).strip()
            out[node.name] = body.replace(node.name, "f", 1)  # the def line: same name
    return out


def text_only(functions: dict[str, str], name: str) -> bool:
    """Whether mutant `name` differs from its original only inside string literals."""
    original = functions.get(name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
    mutant = functions.get(name)
    if original is None or mutant is None:
        return False
    a, b = _tokens(original), _tokens(mutant)
    if len(a) != len(b):
        return False
    changed = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return bool(changed) and all(x[0] == y[0] and x[0] in _TEXT for x, y in changed)


def main(folder: str) -> int:
    rows = []
    for meta in sorted(Path(folder).rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if not any(c in KILLED | SURVIVED for c in codes.values()):
            continue  # a module mutated but not run (scripts/mutation was given other modules)
        functions = _functions(meta.with_suffix(""))
        count: Counter[str] = Counter()
        for key, code in codes.items():
            verdict = "killed" if code in KILLED else "survived" if code in SURVIVED else "other"
            count[verdict] += 1
            if verdict != "other" and not text_only(functions, key.rsplit(".", 1)[-1]):
                count[f"logic {verdict}"] += 1
        if count["killed"] + count["survived"]:
            module = meta.relative_to(folder).as_posix().removesuffix(".meta")
            rows.append((module, count))
    if not rows:
        print("mutation: no mutant was run; see .cache/mutation.log", file=sys.stderr)
        return 1
    print(f"{'module':36} {'killed':>6} {'survived':>8} {'other':>5} {'score':>6} {'logic':>6}")
    for module, c in rows:
        score = c["killed"] / (c["killed"] + c["survived"])
        tried = c["logic killed"] + c["logic survived"]
        logic = f"{c['logic killed'] / tried:6.1%}" if tried else f"{'-':>6}"
        print(f"{module:36} {c['killed']:6} {c['survived']:8} {c['other']:5} {score:6.1%} {logic}")
    print("score: killed / (killed + survived); logic: the same, leaving out text-only mutants")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "mutants"))
