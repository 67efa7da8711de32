"""Every command, option and argument of ext, declared once, as plain data.

Two readers build on this table and nothing else: `installer.cli.fast`, the hand parser of
the everyday commands (no framework import, so they start fast), and `installer.cli.app`,
the click app that parses every other command line and prints help, errors and shell
completions. Each command names its verb and the verb's options type; the one generic call
(`installer.cli.calls.call`) builds that options value from the parsed values by field name.
So a new option is one line here and a field (and its use) beside the verb:
`tests/unit/test_cli_options.py` holds every option to a field and back, and
`tests/unit/test_cli_parity.py` holds the two readers to the same result on every argv the
fast one takes.
"""

from __future__ import annotations

from installer.ground.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Kind = Literal["flag", "text", "path", "list"]  # list: text that may repeat, kept in order

    Completer = Literal["items", "modes", "shells", "hosts"]


class Option(NamedTuple):
    """`--name VALUE` (or a flag): `dest` is the call's parameter it fills."""

    dest: str
    flags: tuple[str, ...]
    kind: Kind
    help: str
    default: str | None = None  # text options only; flags default to False, lists to None
    metavar: str | None = None
    complete: Completer | None = None
    commas: bool = False  # a list of names: `--only a,b --only c` is (a, b, c); "" is an error


class Argument(NamedTuple):
    """A positional argument; a `list` one takes every remaining word."""

    dest: str
    kind: Literal["text", "path", "list"]
    help: str
    metavar: str
    required: bool = False
    complete: Completer | None = None


class Command(NamedTuple):
    """One command; `path` is its words (`("consent", "approve")`), `call` its name for the two
    parsers, `verb` its function and `takes` the type of that function's options, both as
    `module:name` in installer.commands (`install:install`, `install:Install`)."""

    path: tuple[str, ...]
    call: str
    help: str
    options: tuple[Option, ...] = ()
    arguments: tuple[Argument, ...] = ()
    fast: bool = False  # an everyday command: installer.cli.fast parses its plain forms
    passthrough: bool = False  # what follows the command is the host's (ext launch -- ARGS)
    verb: str = ""
    takes: str = ""
    asks: bool = False  # the verb writes: it is handed the prompt (installer.render.Prompt)

    @property
    def name(self) -> str:
        return " ".join(self.path)


class Group(NamedTuple):
    """A word that only gathers commands (`ext consent …`)."""

    name: str
    help: str


HELP = "Install your own set of coding-agent extensions into an agent dir, and keep it healthy."
HELP_FLAGS = frozenset({"--help", "-h"})  # but after `launch`, where -h is pi's
LAUNCH_HELP_FLAGS = frozenset({"--help"})  # `ext launch -h` is `pi -h`

GLOBALS = (
    Option("set_dir", ("--set",), "path", "The set folder (else EXT_SET, cwd, bundled)."),
    Option(
        "agent_dir",
        ("--agent-dir",),
        "path",
        "The agent dir (else EXT_AGENT_DIR, PI_CODING_AGENT_DIR, manifest, isolated).",
    ),
    Option(
        "host",
        ("--host",),
        "text",
        "The agent: pi, claude, codex, opencode, gemini (else EXT_HOST, else pi).",
        complete="hosts",
    ),
    Option("json", ("--json",), "flag", "Print JSON on stdout."),
    Option("quiet", ("--quiet", "-q"), "flag", "Print less."),
    Option("no_color", ("--no-color",), "flag", "No colour (or NO_COLOR)."),
    Option("debug", ("--debug",), "flag", "Show tracebacks."),
)
VERSION = Option("version", ("--version",), "flag", "Show versions and exit.")
INSTALL_COMPLETION = Option(
    "install_completion",
    ("--install-completion",),
    "flag",
    "Install shell completion for the shell ext runs in ($SHELL), then exit.",
)
SHOW_COMPLETION = Option(
    "show_completion",
    ("--show-completion",),
    "flag",
    "Print the completion script for the shell ext runs in, then exit.",
)

_DRY_RUN = Option("dry_run", ("--dry-run",), "flag", "Show the plan; write nothing.")
_YES = Option("yes", ("--yes", "-y"), "flag", "Apply without asking.")
_FORCE = Option(
    "force", ("--force",), "flag", "Disable even when a guard refuses (warns of the risk)."
)
_TRUST_SET = Option(
    "trust_set",
    ("--trust-set",),
    "flag",
    "Run the set's own [host] command (to read its version) though the set is not installed.",
)
_ITEMS = Argument(
    "names",
    "list",
    "Items of the set: notify, notify.ts, skill:review.",
    "NAME",
    required=True,
    complete="items",
)
_SWITCHED = (
    "Without the checklist: switch these {}, as one plan (what /ext runs); names joined "
    "by commas, or the option given again."
)
_PROJECT = Argument("project", "path", "The project folder (default: the current folder).", "DIR")

GROUPS = (
    Group("consent", "Review and approve the hook commands a project would run."),
    Group("settings", "Tidy the agent's settings.json (renamed and retired keys)."),
)

COMMANDS = (
    Command(
        ("install",),
        "install",
        "Link the set into the agent dir, backing up what is in the way.\n\n"
        "Or, with --mode register, add it to settings.json as a local-path package.",
        (
            Option(
                "only",
                ("--only",),
                "list",
                "Install just these names (comma-separated); an item installed before and "
                "not named is taken out (for this run: a plain install puts it back).",
                complete="items",
                commas=True,
            ),
            Option(
                "skip",
                ("--skip",),
                "list",
                "Install all but these names; one installed before is taken out (for this "
                "run). With --only, --only decides.",
                complete="items",
                commas=True,
            ),
            _DRY_RUN,
            _YES,
            Option(
                "create", ("--create",), "flag", "Create a named agent dir that does not exist."
            ),
            Option(
                "mode",
                ("--mode",),
                "text",
                "link (symlinks) or register (a package in settings.json).",
                complete="modes",
            ),
            Option(
                "reseed",
                ("--reseed",),
                "flag",
                "Seed settings again, also the ones you removed since the first run.",
            ),
            _TRUST_SET,
        ),
        fast=True,
        verb="install:install",
        takes="install:Install",
        asks=True,
    ),
    Command(
        ("launch",),
        "launch",
        "Run pi on the agent dir: ext launch -- ARGS…\n\n"
        "Every word but --help goes to pi as it is: `ext launch -h` and `ext launch -- --help` "
        "show pi's help.",
        fast=True,
        passthrough=True,
        verb="launch:launch",
        takes="launch:Launch",
    ),
    Command(
        ("uninstall",),
        "uninstall",
        "Remove the set from the agent dir; backups stay.",
        (_DRY_RUN, _YES),
        verb="uninstall:uninstall",
        takes="uninstall:Uninstall",
        asks=True,
    ),
    Command(
        ("list",),
        "list_items",
        "Every item of the set and its state.",
        fast=True,
        verb="listing:list_items",
        takes="listing:Listing",
    ),
    Command(
        ("env",),
        "env",
        'The line that points pi at the agent dir: eval "$(ext env)".',
        (Option("shell", ("--shell",), "text", "sh, bash, zsh or fish.", "sh", complete="shells"),),
        fast=True,
        verb="env:env",
        takes="env:EnvLine",
    ),
    Command(
        ("enable",),
        "enable",
        "Switch items back on.",
        (_DRY_RUN, _YES),
        (_ITEMS,),
        verb="toggle:enable",
        takes="toggle:Enable",
        asks=True,
    ),
    Command(
        ("disable",),
        "disable",
        "Switch items off, unless a guard refuses (exit 3).",
        (_FORCE, _DRY_RUN, _YES),
        (_ITEMS,),
        verb="toggle:disable",
        takes="toggle:Disable",
        asks=True,
    ),
    Command(
        ("toggle",),
        "toggle",
        "Switch items in a checklist: space switches, Enter applies, Escape leaves.",
        (
            _FORCE,
            _YES,
            _DRY_RUN,
            *(
                Option(
                    way, (f"--{way}",), "list", _SWITCHED.format(way), complete="items", commas=True
                )
                for way in ("on", "off")
            ),
        ),
        verb="toggle:toggle",
        takes="toggle:Toggle",
        asks=True,
    ),
    Command(
        ("init",),
        "init",
        "Start a set (manifest, an example, README, tsconfig, git).",
        (
            Option("name", ("--name",), "text", "The set's name."),
            _DRY_RUN,
            _YES,
            Option("no_git", ("--no-git",), "flag", "Do not run git init."),
            Option(
                "from_install_sh",
                ("--from-install-sh",),
                "path",
                "Make the repository of this install.sh a set in place (never runs it).",
            ),
        ),
        (Argument("folder", "path", "Where the set goes (default: here).", "FOLDER"),),
        verb="init:init",
        takes="init:Init",
        asks=True,
    ),
    Command(
        ("add",),
        "add",
        "Add an extension (or skill, prompt, theme) to the set.",
        (
            Option("kind", ("--kind",), "text", "extension, skill, prompt or theme.", "extension"),
            Option("as_dir", ("--dir",), "flag", "A folder extension (<name>/index.ts)."),
            _DRY_RUN,
            _YES,
        ),
        (
            Argument(
                "name",
                "text",
                "The new item's name, e.g. notify (skill:review is --kind skill).",
                "NAME",
                required=True,
            ),
        ),
        verb="add:add",
        takes="add:Add",
        asks=True,
    ),
    Command(
        ("adopt",),
        "adopt",
        "Bring hand-placed extensions into the set, linked back.",
        (
            Option("every", ("--all",), "flag", "Adopt every one there is."),
            Option(
                "from_dir",
                ("--from",),
                "path",
                "The agent dir to adopt from (else --agent-dir).",
            ),
            Option(
                "prefer",
                ("--prefer",),
                "text",
                "When the set has the same name: keep 'set' or 'agent'.",
            ),
            Option(
                "clean_backups", ("--clean-backups",), "flag", "Delete the backups adoption kept."
            ),
            _DRY_RUN,
            _YES,
        ),
        (Argument("names", "list", "Files or folders to adopt: notify, skill:review.", "NAMES"),),
        verb="adopt:adopt",
        takes="adopt:Adopt",
        asks=True,
    ),
    Command(
        ("doctor",),
        "doctor",
        "What is wrong with the install, and how to fix it.",
        (
            Option(
                "deep",
                ("--deep",),
                "flag",
                "Also start pi offline; report what fails to load.",
            ),
            Option("strict", ("--strict",), "flag", "Exit 1 on warnings too."),
            Option("list_checks", ("--list-checks",), "flag", "List the checks and exit."),
            Option(
                "check",
                ("--check",),
                "list",
                "Run only this check (repeatable).",
                metavar="ID",
                commas=True,
            ),
            Option("no_network", ("--no-network",), "flag", "Skip what needs the network."),
            _TRUST_SET,
        ),
        verb="doctor:doctor",
        takes="doctor:Doctor",
    ),
    Command(
        ("update",),
        "update",
        "Newer ext, pi or set, and the command to upgrade each.\n\n"
        "ext does not upgrade anything itself: it names the command that fits how each thing "
        "was installed. Exit 0 whether or not updates exist; only a failure of ext itself is "
        "non-zero.",
        (Option("check", ("--check",), "flag", "Check for newer versions now."), _TRUST_SET),
        verb="updates:update",
        takes="updates:Update",
    ),
    Command(
        ("outdated",),
        "outdated",
        "The same as `ext update --check`.",
        (_TRUST_SET,),
        verb="updates:outdated",
        takes="updates:Outdated",
    ),
    Command(
        ("undo",),
        "undo",
        "Reverse the last change ext made.",
        (_DRY_RUN, _YES),
        verb="undo:undo",
        takes="undo:Undo",
        asks=True,
    ),
    Command(
        ("history",),
        "history",
        "What ext did here, newest first.",
        verb="undo:history",
        takes="undo:History",
    ),
    Command(
        ("settings", "migrate"),
        "settings_migrate",
        "Move renamed keys to their new names; with --remove-retired also delete retired keys.",
        (
            _DRY_RUN,
            _YES,
            Option(
                "remove_retired",
                ("--remove-retired",),
                "flag",
                "Also remove retired keys (shown in the plan).",
            ),
        ),
        verb="migrate:migrate",
        takes="migrate:SettingsMigrate",
        asks=True,
    ),
    Command(
        ("consent", "check"),
        "consent_check",
        "Exit 0 if the project's hooks are approved, else 3.\n\n"
        "A project without hooks has nothing to approve: exit 0.",
        arguments=(_PROJECT,),
        verb="consent:check",
        takes="consent:ConsentCheck",
    ),
    Command(
        ("consent", "approve"),
        "consent_approve",
        "Show the project's hooks, then approve them.\n\n"
        "Lists every hook (event, matcher, command) and, when they changed since the last "
        "approval, the diff; then asks y/N. --yes approves without asking.",
        (
            Option("yes", ("--yes", "-y"), "flag", "Approve without asking."),
            Option(
                "dry_run", ("--dry-run",), "flag", "Show the hooks and the diff; record nothing."
            ),
            Option(
                "expect",
                ("--expect",),
                "text",
                "Approve only if the hooks still hash to this (what was shown elsewhere).",
                metavar="SHA256",
            ),
        ),
        (_PROJECT,),
        verb="consent:approve",
        takes="consent:ConsentApprove",
        asks=True,
    ),
    Command(
        ("consent", "revoke"),
        "consent_revoke",
        "Remove the project's approval, once confirmed.\n\n"
        "Its hooks then need a new approval before they run. Asks y/N, as every command that "
        "writes does; --yes revokes without asking.",
        (Option("yes", ("--yes", "-y"), "flag", "Revoke without asking."),),
        (_PROJECT,),
        verb="consent:revoke",
        takes="consent:ConsentRevoke",
        asks=True,
    ),
    Command(
        ("consent", "list"),
        "consent_list",
        "Every approval, and whether it still matches.\n\n"
        "Shows each project, when it was approved, the short hash, and whether its hooks are "
        "still the approved ones (current), changed, or the folder is gone.",
        verb="consent:list_approvals",
        takes="consent:ConsentList",
    ),
)

BY_NAME = {c.name: c for c in COMMANDS}
BY_CALL = {c.call: c for c in COMMANDS}
