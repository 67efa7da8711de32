"""`ext init`: start a set, or make a repository with an install.sh a set in place.

No agent dir is involved: the set is a folder of the user's, so there is no journal. Each file is
created only where nothing is (never overwritten), and a failure removes what the run made.
"""

from __future__ import annotations

import os
from pathlib import Path

from installer.engine.result import PlanResult
from installer.ground.context import require_utf8, same_path
from installer.ground.errors import ExtError, UsageError
from installer.ground.home import expand_home
from installer.ground.manifest import MANIFEST_NAME
from installer.ground.records import NamedTuple
from installer.ground.shellword import shell_word
from installer.host.pi import HostInfo
from installer.scaffold import templates
from installer.scaffold.creation import GIT, Bench, Confirm, Piece, run
from installer.scaffold.manifest_text import manifest_text
from installer.scaffold.templates import host_package


class Init(NamedTuple):
    """`ext init`'s options, as installer.cli.grammar names them."""

    folder: Path | None = None
    name: str | None = None
    dry_run: bool = False
    yes: bool = False  # the front's: the confirm it hands in does not ask
    no_git: bool = False
    from_install_sh: Path | None = None


def init(bench: Bench, options: Init, confirm: Confirm) -> PlanResult:
    """A new set in the folder (else the current one), or a repository's install.sh made one."""
    o = options
    if o.from_install_sh is not None:
        if o.folder is not None:
            raise UsageError(
                "--from-install-sh makes the script's own repository a set",
                "leave out the folder",
            )
        made = (o.from_install_sh, o.name, o.dry_run, confirm, bench.host(), bench.pi_dir)
        return from_install_sh(*made)
    target = o.folder if o.folder is not None else bench.folder
    require_utf8(Path(os.path.abspath(target)), "the new set's folder")
    found = start_set(target, o.name, not o.no_git, o.dry_run, confirm, bench.host(), bench.git)
    if not found.applied:
        return found
    return found._replace(notes=(*found.notes, *adopt_hint(bench.pi_dir, _folder(target))))


def start_set(
    target: Path,
    name: str | None,
    git: bool,
    dry_run: bool,
    confirm: Confirm,
    host: HostInfo | None,
    git_bin: str | None,
) -> PlanResult:
    """Plan every file of a new set at target, show it, and create the missing ones."""
    root = _folder(target)
    _refuse_home(root)
    name = name or root.name
    package, package_dir = host_package(host)
    warnings = []
    if host is None:
        warnings.append(
            "pi was not found on PATH: tsconfig.json has no `paths` (editors will not find "
            "pi's types) and extset.toml no tested versions; run `ext init` again once pi is "
            "installed, after removing tsconfig.json"
        )
    warnings += _agent_dir_note(root)
    repo = _repository(root)
    git_note = _git_note(repo, git_bin, root) if git else None
    if git_note:
        warnings.append(git_note)
    want_git = git and git_note is None and git_bin is not None

    hello = root / "extensions" / templates.example_file(name)
    example = os.path.lexists(hello) or not _has_entries(root / "extensions")
    if not example:
        warnings.append("extensions/ already holds extensions of yours: no example added")

    def pieces() -> list[Piece]:
        found: list[Piece] = [Piece(root, what="the set folder")]
        version = host.version if host else None
        found.append(Piece(root / MANIFEST_NAME, manifest_text(name, version), "the manifest"))
        found.append(Piece(root / "extensions", what="extensions of the set"))
        if example:
            found.append(
                Piece(
                    hello,
                    templates.example(name, package),
                    f"an example extension: registers --{templates.flag_prefix(name)}-hello",
                )
            )
        found += [
            Piece(root / "README.md", templates.readme(name), "how to use the set"),
            Piece(root / ".gitignore", templates.GITIGNORE, "node_modules/, backups"),
            Piece(
                root / "tsconfig.json",
                templates.tsconfig(package, package_dir),
                f"type-checks `import type` against {package_dir or 'nothing: pi not found'}",
            ),
        ]
        if want_git:
            found.append(Piece(root / GIT, what="git init", git=git_bin))
        return found

    go = "" if same_path(root, Path.cwd()) else f"cd {shell_word(root)} && "
    notes = (f"next: {go}ext install   (ext launch runs pi with the set)",)
    return run("init", pieces, warnings, dry_run, confirm, notes)


def _agent_dir_note(root: Path) -> list[str]:
    """A word when the folder is an agent dir (ext's record in it, or pi's own files): a set
    there puts its extensions/ where the dir's are, and no install into that dir is taken
    (helper-77: `ext init` inside an agent dir said nothing, the install then refused)."""
    ext_s = (root / ".extset" / "state.json").is_file()
    pi_s = (root / "settings.json").is_file() and any(
        (root / name).exists() for name in ("sessions", "auth.json", "models.json")
    )
    if not (ext_s or pi_s):
        return []
    return [
        f"{root} is an agent dir (it holds {'ext' if ext_s else 'pi'}'s own files): a set "
        "there cannot be installed into it; make the set in a folder of its own, and adopt "
        f"what is here with `ext adopt --all --from {shell_word(root)}`"
    ]


def adopt_hint(pi_dir: Path | None, root: Path) -> tuple[str, ...]:
    """The line naming `ext adopt` when pi's agent dir holds hand-placed items to adopt; none
    otherwise (adopting from an empty or missing dir makes no sense)."""
    if pi_dir is None or not os.path.isdir(pi_dir):
        return ()
    from installer.links.scan import scan
    from installer.scaffold.adopt_scan import candidates

    try:
        found, _ = candidates(scan(pi_dir, root))
    except (OSError, ExtError):  # a dir ext would refuse to work in: adopt says why, not init
        return ()
    found = list({(c.kind, c.name): c for c in found}.values())  # alpha.ts and alpha.ts.off: one
    if not found:
        return ()
    where = shell_word(pi_dir)  # `~/…`, as the renderer shows every path under HOME
    what = f"{len(found)} item{'s' if len(found) > 1 else ''} you placed by hand in {where}"
    go = "" if same_path(root, Path.cwd()) else f"cd {shell_word(root)} && "  # as next: says
    return (f"  or move the {what} into it: {go}ext adopt --all --from {where}",)


def from_install_sh(
    script: Path,
    name: str | None,
    dry_run: bool,
    confirm: Confirm,
    host: HostInfo | None,
    pi_dir: Path | None = None,
) -> PlanResult:
    """Make the repository holding an install.sh a set in place: add extset.toml, nothing else.

    The script is never run nor read: only the resource folders (`extensions/`, `skills/`,
    `prompts/`, `themes/`) beside it, or above it in its repository (`scripts/install.sh`),
    matter.
    """
    path = expand_home(script).absolute()
    if not path.is_file():
        raise UsageError(
            f"{script} is not a file", "name the install script: --from-install-sh PATH"
        )
    root = _repository_of(path.resolve().parent)
    if root is None:
        here = path.resolve().parent
        raise UsageError(
            f"there is no extensions/, skills/, prompts/ or themes/ folder next to {path.name} "
            f"in {here}, nor above it in its repository",
            f"make the set with `ext init` in the folder that should hold them, then move the "
            f"files {path.name} links in there",
        )
    name = name or root.name
    origin = (
        f"Made from {path.name} by `ext init --from-install-sh`: `ext install` now does what\n"
        f"{path.name} did (--only/--skip, backups, pruning, --dry-run), and `ext undo` reverses it."
    )
    text = manifest_text(name, host.version if host else None, origin)
    counts = _resource_counts(root)
    held = ", ".join(f"{n} in {folder}/" for folder, n in counts.items())
    pieces = [Piece(root / MANIFEST_NAME, text, f"makes {root.name} a set ({held})")]
    linked = _links_into(pi_dir, root)
    many, them = ("s", "them") if linked > 1 else ("", "it")
    said = (
        f"the {linked} link{many} {path.name} made there lead{'' if many else 's'} into this "
        f"repository: ext counts {them} as its own and keeps {them}"
        if linked
        else f"no link into this repository is there yet: the install makes what {path.name} did"
    )
    notes = (
        f"next: cd {shell_word(root)} && ext --agent-dir ~/.pi/agent install --dry-run",
        f"  {said}; [target] agent_dir in extset.toml saves the --agent-dir",
    )
    return run("init", lambda: pieces, (), dry_run, confirm, notes)


def _repository_of(folder: Path) -> Path | None:
    """The folder an install.sh's set is: its own when a resource folder is beside it, else
    the nearest one above that has one within its git repository (`repo/scripts/install.sh`);
    never above the repository, never without one, never the home folder or the root."""
    if _resource_counts(folder):
        return None if _too_wide(folder) else folder
    top = _git_top(folder)
    at = folder.parent
    while top is not None and at.is_relative_to(top):
        if _resource_counts(at):
            return None if _too_wide(at) else at
        at = at.parent
    return None


def _git_top(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` that holds a `.git`, short of the home."""
    for at in (folder, *folder.parents):
        if same_path(at, Path.home()):
            return None
        if (at / ".git").exists():
            return at
    return None


def _too_wide(folder: Path) -> bool:
    return same_path(folder, Path.home()) or folder == Path(folder.anchor)


def _resource_counts(root: Path) -> dict[str, int]:
    """How many entries each resource folder of root holds (those that are there)."""
    from installer.sets.resources import FOLDER

    counts = {}
    for folder in FOLDER.values():
        try:
            counts[folder] = sum(not e.startswith(".") for e in os.listdir(root / folder))
        except OSError:
            continue
    return counts


def _links_into(pi_dir: Path | None, root: Path) -> int:
    """How many links of pi's resource folders in pi_dir lead into root (what install.sh made)."""
    from installer.sets.resources import FOLDER

    if pi_dir is None:
        return 0
    base = os.path.realpath(root) + os.sep
    count = 0
    for folder in FOLDER.values():
        try:
            entries = list(os.scandir(pi_dir / folder))
        except OSError:
            continue
        count += sum(e.is_symlink() and os.path.realpath(e.path).startswith(base) for e in entries)
    return count


def _refuse_home(root: Path) -> None:
    """The home (or /) as a set: every ext run below it would take it for the set (the set is
    the nearest folder up with an extset.toml), and git init would make it a repository."""
    home = Path(os.path.expanduser("~"))
    if same_path(root, home) or root == Path(root.anchor):
        shown, what = ("~", "your home folder") if same_path(root, home) else (root, "the root")
        raise UsageError(
            f"{shown} is {what}: as a set, every ext run in a folder below it would take it "
            "for the set; nothing was written",
            "make the set a folder of its own: ext init ~/my-extensions",
        )


def _folder(target: Path) -> Path:
    """The folder to make the set in, named without `..` (`ext init ../newset` showed
    `~/proj/sub/../newset` on every line; `nosuch/../set2` failed making `nosuch/..`)."""
    from installer.ground.context import without_dotdot

    root = without_dotdot(expand_home(target).absolute())
    if os.path.lexists(root) and not root.is_dir():
        raise UsageError(f"{root} exists and is not a folder", "name a new or existing folder")
    return root


def _has_entries(folder: Path) -> bool:
    try:
        return any(not e.startswith(".") for e in os.listdir(folder))
    except OSError:
        return False


def _repository(root: Path) -> Path | None:
    """The git work tree holding root, if any (a `.git` folder or file in it or above)."""
    for folder in (root, *root.parents):
        if os.path.lexists(folder / GIT):
            return folder
    return None


def _git_note(repo: Path | None, git_bin: str | None, root: Path) -> str | None:
    if repo == root:
        return "no git init: the folder is a git repository already"
    if repo is not None:
        return f"no git init: the folder is inside the git repository at {repo}"
    if git_bin is None:
        return "git was not found on PATH: no git init (run it yourself later)"
    return None
