"""What ext knows about each line of pi, in one table: every rule that differs by version asks it.

pi moved: up to 0.73.1 it was published as `@mariozechner/pi-coding-agent` (Node >= 20.6),
from 0.74.0 as `@earendil-works/pi-coding-agent` (today 1.6.0, Node >= 22.19). A row is one
line of releases with the facts ext relies on, each checked against the row's `tested`
release by the suite (`tests/e2e/test_pi_lines.py` runs the real pi of each row). Code
asks `line_of(version, package)` for the pi it found and reads a field; it never compares
versions itself.

Only the standard library is imported: `ext --version` and a no-op install ask this table.
"""

from __future__ import annotations

import re

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    BarePiKey = Literal["nothing", "conventional"]

    ImportsFrom = Literal["link", "target"]

    SessionApi = Literal["authStorage", "modelRuntime"]

OLD_PACKAGE = "@mariozechner/pi-coding-agent"
NEW_PACKAGE = "@earendil-works/pi-coding-agent"
OLD_SCOPE = "@mariozechner"
NEW_SCOPE = "@earendil-works"
# Every scope pi's packages were published under; an extension imports pi's modules from one.
SCOPES = (OLD_SCOPE, NEW_SCOPE)
PACKAGES = (OLD_PACKAGE, NEW_PACKAGE)


class PiLine(NamedTuple):
    """One line of pi releases and the facts about it that ext relies on."""

    name: str  # how a message names the line: "0.73", "1.x"
    first: str  # the first release of the line; a line ends where the next begins
    tested: str  # the release of this line the suite runs (scripts/setup installs it)
    package: str  # the npm package the line is published as
    node: str  # engines.node of `tested`; the pi found says its own in its package.json
    bin: str  # the bin's file inside the package (the package.json is above it)
    # Import scopes whose value imports load in an extension (the aliases of
    # dist/core/extensions/loader.js). `typebox` and `@sinclair/typebox` load alike on both.
    scopes: tuple[str, ...]
    # A root `pi` key with no resource field (`{}`, `{"image": …}`): a manifest naming
    # nothing, or no manifest at all, so the conventional folders are discovered
    # (`hasManifestResourceFields` in 1.x's dist/core/package-manager.js).
    bare_pi_key: BarePiKey
    # Where a linked extension's relative imports and packages resolve: from the link's
    # place in the agent dir, or from the file it points at (in the set). 0.73's
    # `loadExtensionModule` hands jiti the link's path; 1.x `canonicalizePath`s it first
    # (dist/core/extensions/loader.js). Read by installer/sets/link_imports.py's callers.
    imports_from: ImportsFrom
    trust_gate: bool  # a project's .pi/ and .agents/skills wait for pi's project trust
    session_api: SessionApi  # what the SDK's createAgentSession takes for models and keys
    # pi's own installer makes a managed install that `pi update` updates in place
    # (`getActiveManagedInstallRoot` in 1.x's dist/package-manager-cli.js; 0.73 has none).
    managed_install: bool
    # `pi update` runs PI_SELF_UPDATE_COMMAND, else the `selfUpdateCommand` setting, instead
    # of its own install (`getConfiguredSelfUpdateArgv` in 1.x's dist/config.js; 0.73 has none).
    self_update_command: bool
    # Whether pi drops a byte order mark before it looks for a skill's frontmatter (`stripBom`
    # in 1.x's dist/utils/frontmatter.js); 0.73 does not, and skips such a SKILL.md.
    strips_bom: bool
    # What `pi -p x --offline --no-session` prints for an extension it cannot load.
    load_failed: str = r'(?:Error: )?Failed to load extension "(.+?)": (.*)'


LINES: tuple[PiLine, ...] = (
    PiLine(
        name="0.73",
        first="0.0.0",
        tested="0.73.1",
        package=OLD_PACKAGE,
        node=">=20.6.0",
        bin="dist/cli.js",
        scopes=(OLD_SCOPE,),
        bare_pi_key="nothing",
        imports_from="link",
        trust_gate=False,
        session_api="authStorage",
        managed_install=False,
        self_update_command=False,
        strips_bom=False,
    ),
    PiLine(
        name="1.x",
        first="0.74.0",
        tested="1.6.0",
        package=NEW_PACKAGE,
        node=">=22.19.0",
        bin="dist/bundle/cli.js",
        scopes=(NEW_SCOPE, OLD_SCOPE),  # 1.x maps @mariozechner/pi-* onto its own modules
        bare_pi_key="conventional",
        imports_from="target",
        trust_gate=True,
        session_api="modelRuntime",
        managed_install=True,
        self_update_command=True,
        strips_bom=True,
    ),
)
TODAY = LINES[-1]  # what a person who installs pi today gets: the README's default
OLDEST = LINES[0]  # the oldest line ext supports


def line_of(version: str | None = None, package: str | None = None) -> PiLine:
    """The line of a pi: by its version; by its package when the version is unknown or is not
    one the package was published at; today's line when neither says."""
    by_package = next((line for line in LINES if line.package == package), None)
    key = _key(version)
    if key is None:
        return by_package or TODAY
    by_version = next(line for line in reversed(LINES) if (_key(line.first) or (0, 0, 0)) <= key)
    if by_package is not None and by_package is not by_version:
        return by_package  # a fork or a pre-release numbering: the package is what was installed
    return by_version


def line_named(package: str | None) -> PiLine | None:
    """The line published as `package`, or None for a package that is not pi."""
    return next((line for line in LINES if line.package == package), None)


def install_spec(line: PiLine, version: str | None = None) -> str:
    """`<package>@<version>`: what npm installs for a release of `line` (its tested one)."""
    return f"{line.package}@{version or line.tested}"


def _key(version: str | None) -> tuple[int, int, int] | None:
    """`1.6.0` -> (1, 6, 0); None for text that is not a version."""
    if not version:
        return None
    match = re.match(r"v?(\d+)\.(\d+)\.(\d+)", version.strip())
    if match is None:
        return None
    major, minor, patch = match.groups()
    return int(major), int(minor), int(patch)
