"""Per-module mutation score from mutmut's result files (mutants/**/*.py.meta)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

# mutmut 3.8's exit codes: 1 and 3 are a failing test run, 0 a mutant every test passed.
KILLED = {1, 3, 36, 24, -24, 152, 255, 37}
SURVIVED = {0}


def main(folder: str) -> int:
    rows = []
    for meta in sorted(Path(folder).rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"].values()
        count = Counter(
            "killed" if c in KILLED else "survived" if c in SURVIVED else "other" for c in codes
        )
        if count["killed"] + count["survived"]:
            module = meta.relative_to(folder).as_posix().removesuffix(".meta")
            rows.append((module, count["killed"], count["survived"], count["other"]))
    if not rows:
        print("mutation: no mutant was run; see .cache/mutation.log", file=sys.stderr)
        return 1
    print(f"{'module':40} {'killed':>7} {'survived':>9} {'other':>6} {'score':>7}")
    for module, killed, survived, other in rows:
        print(f"{module:40} {killed:7} {survived:9} {other:6} {killed / (killed + survived):7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "mutants"))
