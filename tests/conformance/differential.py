"""The differential run: ext's `list --json` against pi's own loader, after every step.

Each layout is installed, in each mode, into eight agent dirs, one per chain of steps:
`install`; `install --only`; `install --skip`; `install, disable`; `install, disable,
enable`; `install, uninstall`; `install, disable, install`; `install, disable, install`
in the other mode. Then every agent dir's two views are compared per kind:
the union of the `entries` of the items ext calls enabled (less the skills it says pi skips,
`host_refuses`), and the real paths pi's
loader loads (or fails to load). All agent dirs go to pi in one loader call: a Node
start costs more than a dozen agent dirs, so the steps are chains, not rounds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from installer.commands.install import Install, install
from installer.commands.toggle import switch
from installer.commands.uninstall import Uninstall, uninstall
from installer.ground.context import Context, Env, resolve
from installer.ground.errors import ExtError
from installer.host.loader import Kind, Unavailable, View, ask
from installer.host.pi import HostInfo, package_dir
from installer.links.states import items
from tests.conformance.layouts import Layout, materialise
from tests.helpers import build_tree, yes

KINDS: tuple[Kind, ...] = ("extension", "skill", "prompt", "theme")
MODES = ("link", "register")
LOADER_TIMEOUT = 120.0  # a whole batch on a loaded 2-core machine


CHAINS = {
    "install": ("install",),
    "only": ("install --only",),
    "skip": ("install --skip",),
    "disable": ("install", "disable"),
    "enable": ("install", "disable", "enable"),
    "uninstall": ("install", "uninstall"),
    # What was disabled stays disabled when the set is installed again, in either mode.
    "reinstall": ("install", "disable", "install"),
    "switch": ("install", "disable", "install --other-mode"),
}


@dataclass
class Case:
    """One layout installed one way into one agent dir, and what happened to it."""

    layout: Layout
    mode: str
    chain: str  # a key of CHAINS
    set_root: Path
    agent: Path
    host: HostInfo  # the pi whose loader judges the case
    log: list[str] = field(default_factory=list)  # the steps taken, with ext's refusals

    def context(self) -> Context:
        # The judged pi first on PATH: ext reads the set by the rules of the pi it finds.
        path = f"{self.host.path.parent}{os.pathsep}{os.environ.get('PATH', '')}"
        env = Env(environ={**os.environ, "PATH": path}, cwd=self.set_root.parent)
        return resolve(env, self.set_root, self.agent)

    def run(self, step: str, do: Callable[[Context], object]) -> None:
        try:
            do(self.context())
            self.log.append(step)
        except ExtError as exc:  # a refusal is an answer too: pi must then load what ext says
            self.log.append(f"{step} (refused: {exc.message})")

    def listing(self) -> list[dict[str, Any]]:
        """`ext --json list`'s items; none when ext refuses the set (it then installs nothing)."""
        try:
            _, found = items(self.context())
        except ExtError as exc:
            if not self.log or not self.log[-1].startswith("list (refused"):
                self.log.append(f"list (refused: {exc.message})")
            return []
        return [i.to_json() for i in found]


def label(item: dict[str, Any]) -> str:
    return item["name"] if item["kind"] == "extension" else f"{item['kind']}:{item['name']}"


def one_per_kind(listing: list[dict[str, Any]], last: bool = False) -> list[str]:
    """A label of each kind present: the first of each kind (or the last)."""
    chosen: dict[str, str] = {}
    for item in reversed(listing) if last else listing:
        chosen.setdefault(item["kind"], label(item))
    return sorted(chosen.values())


def build(tmp: Path, layouts: Sequence[Layout], host: HostInfo) -> list[Case]:
    """Every layout's set, and its agent dirs, one per mode and chain: nothing installed yet."""
    theme = _pi_theme(host)
    cases = []
    for i, layout in enumerate(layouts):
        spec: dict[str, str | bytes | Path | None] = dict(materialise(layout.files, theme))
        root = build_tree(tmp / f"{i:02d}-{layout.name}" / "set", spec)
        for mode in MODES:
            for chain in CHAINS:
                agent = root.parent / f"agent-{mode}-{chain}"
                agent.mkdir()
                cases.append(Case(layout, mode, chain, root, agent, host))
    return cases


def _pi_theme(host: HostInfo) -> dict[str, Any]:
    """A theme pi accepts: the dark theme pi ships."""
    package = package_dir(host)
    assert package is not None, f"no pi package found for {host.path}"
    path = package / "dist" / "modes" / "interactive" / "theme" / "dark.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data.pop("$schema", None)
    return data


def play(case: Case) -> None:
    """Take the case's chain of steps, naming one item of each kind where a step names items."""
    for step in CHAINS[case.chain]:
        if step == "uninstall":
            case.run(step, lambda ctx: uninstall(ctx, Uninstall(), yes))
            continue
        listing = case.listing()
        names = one_per_kind(listing, last=step == "install --only")
        if step == "install":
            case.run(f"install --mode {case.mode}", _install(case.mode, [], []))
        elif step == "install --other-mode":
            other = next(m for m in MODES if m != case.mode)
            case.run(f"install --mode {other}", _install(other, [], []))
        elif not names:
            case.log.append(f"{step} (the set has no items to name)")
        elif step.startswith("install"):
            only, skip = (names, []) if step == "install --only" else ([], names)
            case.run(
                f"{step} {' '.join(names)} --mode {case.mode}", _install(case.mode, only, skip)
            )
        else:
            case.run(f"{step} {' '.join(names)}", _switch(names, enable=step == "enable"))


def _install(mode: str, only: list[str], skip: list[str]) -> Callable[[Context], object]:
    return lambda ctx: install(ctx, Install(only=tuple(only), skip=tuple(skip), mode=mode), yes)


def _switch(names: list[str], enable: bool) -> Callable[[Context], object]:
    return lambda ctx: switch(ctx, names, enable, False, False, yes)


def views_of(
    cases: Sequence[Case], host: HostInfo, cwd: Path, env: dict[str, str] | None = None
) -> tuple[View, ...]:
    """pi's loader's view of every case, in one loader call."""
    views = ask(host, [(c.agent, cwd) for c in cases], env=env, timeout=LOADER_TIMEOUT)
    if isinstance(views, Unavailable):
        raise AssertionError(f"pi's loader could not be asked: {views.reason}")
    return views


def compare(cases: Sequence[Case], views: Sequence[View]) -> list[str]:
    """Every difference between ext's list and pi's loader, over all cases."""
    # Two empty views agree: a loader that saw nothing at all would pass every layout.
    silent = [k for k in KINDS if not any(v.reals(k) for v in views)]
    found = [f"pi's loader loaded no {k} from any of {len(cases)} agent dirs" for k in silent]
    return found + [d for c, v in zip(cases, views, strict=True) for d in differences(c, v)]


def differences(case: Case, view: View) -> list[str]:
    """This case's differences, each a self-contained report: layout, steps, kind, paths."""
    if view.error:
        return [_report(case, f"pi's loader threw: {view.error.splitlines()[0]}")]
    listing = case.listing()
    out = []
    for kind in KINDS:
        ext_says = _enabled_entries(listing, kind)
        pi_loads = set(view.reals(kind))
        if kind == "extension":
            pi_loads |= {f.real for f in view.failed}
        pi_loads -= _ext_own(case, pi_loads)
        if ext_says != pi_loads:
            out.append(_report(case, _diff(case, kind, ext_says, pi_loads)))
    for failure in view.failed:
        out.append(_report(case, f"pi failed to load {failure.real}: {failure.error}"))
    return out


def _ext_own(case: Case, paths: set[str]) -> set[str]:
    """ext's own agent-side files (the /ext command, the recorder): in .extset/, not the set's."""
    own = os.path.join(os.path.realpath(case.agent), ".extset", "agent") + os.sep
    return {p for p in paths if p.startswith(own)}


def _enabled_entries(listing: list[dict[str, Any]], kind: str) -> set[str]:
    found: set[str] = set()
    for item in listing:
        if item["kind"] != kind or item["state"] != "enabled":
            continue
        if "host_refuses" in item:  # in place, and ext says why pi skips it
            continue
        if "entries" not in item:
            found.add(f"<{label(item)}: no 'entries' in ext list --json>")
            continue
        found |= {os.path.realpath(p) for p in item["entries"]}
    return found


def _diff(case: Case, kind: str, ext_says: set[str], pi_loads: set[str]) -> str:
    def rel(paths: set[str]) -> str:
        root = os.path.realpath(case.set_root)
        shown = sorted(os.path.relpath(p, root) if p.startswith(root) else p for p in paths)
        return ", ".join(shown) or "-"

    return (
        f"{kind}s: ext says enabled, pi does not load: {rel(ext_says - pi_loads)}; "
        f"pi loads, ext does not say enabled: {rel(pi_loads - ext_says)}"
    )


def _report(case: Case, what: str) -> str:
    tree = ", ".join(sorted(k for k in case.layout.files if k != "extset.toml"))
    manifest = case.layout.files.get("package.json")
    pi = f"\n    package.json pi: {json.loads(manifest)['pi']}" if manifest else ""
    return (
        f"[{case.layout.name}, {case.mode}] {what}\n"
        f"    steps: {' -> '.join(case.log)}\n    files: {tree}{pi}"
    )


def run_all_steps(tmp: Path, layouts: Sequence[Layout], host: HostInfo) -> Run:
    """Build every case, play each chain, then ask pi about all of them at once."""
    cases = build(tmp, layouts, host)
    for case in cases:
        play(case)
    cwd = tmp / "cwd"  # no .pi/ and no .agents/ here: pi sees only the agent dir
    cwd.mkdir()
    views = views_of(cases, host, cwd)
    return Run(compare(cases, views), cases, views, cwd)


@dataclass(frozen=True)
class Run:
    """The differences found, the cases played (to see which ext refused), pi's views of them
    and the folder pi was asked from."""

    differences: list[str]
    cases: list[Case]
    views: tuple[View, ...]
    cwd: Path

    def refused(self, mode: str) -> set[str]:
        """Layouts whose plain install ext refused in `mode`: they agree with pi trivially."""
        return {
            c.layout.name
            for c in self.cases
            if c.mode == mode and c.chain == "install" and any("(refused" in s for s in c.log)
        }
