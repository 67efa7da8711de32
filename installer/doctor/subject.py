"""What doctor looks at, each piece resolved on its own so one broken piece hides no other."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from installer.ground.context import Context, Env
from installer.ground.errors import ExtError
from installer.ground.manifest import Manifest
from installer.host.lines import PiLine
from installer.host.pi import HostInfo
from installer.hosts.profile import Host
from installer.hosts.table import PI
from installer.sets.resources import Resource

T = TypeVar("T")
HostFinder = Callable[[str, "str | None"], "HostInfo | None"]


def _find_host(command: str, path_env: str | None, untrusted: Path | None) -> HostInfo | None:
    from installer.host.pi import DOCTOR_VERSION_TIMEOUT, find_host

    # doctor asks, waits longer, and refreshes the cache
    timeout = DOCTOR_VERSION_TIMEOUT
    return find_host(command, path_env, fresh=True, timeout=timeout, untrusted=untrusted)


@dataclass(frozen=True)
class SettingsRead:
    """settings.json as doctor read it: text (None when absent), data, or the error."""

    path: Path
    text: str | None
    data: dict[str, Any] | None
    error: ExtError | None = None


@dataclass
class Subject:
    """The set, its manifest, the agent dir and the host, with the error for each that failed."""

    env: Env
    on: Host = PI  # the host doctor checks: pi unless --host (or EXT_HOST) named another
    set_root: Path | None = None
    set_source: str | None = None
    set_error: ExtError | None = None
    manifest: Manifest | None = None
    manifest_error: ExtError | None = None
    agent_dir: Path | None = None
    agent_source: str | None = None
    agent_error: ExtError | None = None
    host_finder: HostFinder | None = None  # a test's stand-in for the lookup, which runs nothing
    trust_set: bool = False  # --trust-set: the set's own host command may run before install
    # Real paths of extensions host.load found failing: the loader check does not say it again.
    load_failures: set[str] = field(default_factory=set)
    # (real path, tool or flag, name) of conflicts host.load reported: the same, for loader.
    clashes: set[tuple[str, str, str]] = field(default_factory=set)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def ctx(self) -> Context | None:
        """A Context for shared code (listing, settings) once the set and agent dir are known."""
        if self.set_root is None or self.agent_dir is None:
            return None
        from installer.ground.manifest import default_manifest

        manifest = self.manifest or default_manifest(self.set_root)
        source = self.agent_source or "?"
        host = None if self.on.is_pi else self.on
        return Context(
            self.set_root, manifest, self.agent_dir, source, self.set_source or "?", self.env, host
        )

    @property
    def host_command(self) -> str:
        return self.manifest.host_command if self.manifest else "pi"

    def memo(self, key: str, make: Callable[[], T]) -> T:
        """make()'s result, computed once per doctor run (an exception is raised each time)."""
        if key not in self._cache:
            try:
                self._cache[key] = (True, make())
            except Exception as exc:
                self._cache[key] = (False, exc)
        done, value = self._cache[key]
        if not done:
            raise value
        return cast(T, value)

    def host(self) -> HostInfo | None:
        """The host binary (looked up once), or None when it is not on PATH.

        A binary the set names is not run while the set is not installed here (`withheld`).
        """
        from installer.host.set_command import untrusted_root

        path = self.env.environ.get("PATH")
        source = self.agent_source or ""
        untrusted = untrusted_root(
            self.set_root, self.agent_dir, self.trust_set, self.set_source, source
        )
        finder = self.host_finder or (lambda c, p: _find_host(c, p, untrusted))
        return self.memo("host", lambda: finder(self.host_command, path))

    def runnable_host(self) -> HostInfo:
        """The host, for a check that starts it; Skip when it is not found or is withheld."""
        from installer.doctor.finding import Skip
        from installer.host.set_command import withheld_note

        host = self.host()
        if host is None:
            raise Skip(f"{self.host_command} was not found (see host)")
        if host.withheld:
            raise Skip(withheld_note(self.host_command, said=""))
        return host

    def loading_host(self) -> HostInfo:
        """The host, for a check that starts it on the agent dir (loading what is there): Skip
        as `runnable_host`, and when that dir is the choice of a set nothing trusts: its
        extensions are the set's code (helper-68: a cloned repository's `agentdir/` ran)."""

        host = self.runnable_host()
        self.check_startable("pi")
        return host

    def check_startable(self, title: str) -> None:
        """Skip a check that starts the host `title` on the agent dir when that dir is the
        choice of a set nothing trusts: what is there is the set's (helper-68: a cloned
        repository's `agentdir/` ran in pi; helper-79: its `settings.json` hooks, in Claude
        Code)."""
        from installer.doctor.finding import Skip

        chosen = (self.agent_source or "").startswith("[")  # [target] or [hosts.NAME] agent_dir
        if chosen and self._strange():
            raise Skip(
                f"{title} is not started on the agent dir: it is the set's own choice "
                f"({self.agent_source}), and the set is not installed (--trust-set starts "
                f"{title} on it; so does every command once the set is installed)"
            )

    def loader_view(self, agent: Path) -> Any:
        """pi's loader on the agent dir (also its cwd), asked once per run: a View, or
        Unavailable; Skip when the host is not found or is withheld."""
        from installer.host.loader import Unavailable, ask

        host = self.loading_host()

        def make() -> Any:
            # The agent dir as the cwd: a project's .pi/extensions is code doctor may not run.
            answer = ask(host, [(agent, agent)], self.env.environ)
            return answer if isinstance(answer, Unavailable) else answer[0]

        return self.memo("loader", make)

    def _strange(self) -> bool:
        """Whether nothing trusts the set (installer.host.set_command.set_trusted)."""
        from installer.host.set_command import set_trusted

        source = self.agent_source or ""
        return not set_trusted(
            self.set_root, self.set_source, self.agent_dir, source, self.trust_set
        )

    def resources(self) -> tuple[Resource, ...]:
        """The set's resources; raises the ExtError that discovery raised."""
        from installer.sets.resources import discover

        root = self.set_root
        if root is None:
            raise ExtError("the set was not found")
        return self.memo("resources", lambda: discover(root, self.pi_line()))

    def pi_line(self) -> PiLine:
        """The line of the pi found, today's when none: the rules the set is read by.

        For another host, pi is never started: the line its package.json names, as every
        other command of that host reads the set."""
        from installer.host.lines import line_of

        if not self.on.is_pi:
            from installer.host.pi import line_here

            return line_here(self.host_command, self.env.environ.get("PATH"))

        host = self.host()
        return line_of(host.version, host.package) if host else line_of()

    def other_agents(self) -> frozenset[str]:
        """The agents whose installs alone the agent dir holds (installs.other_agents_only),
        read once: the runner and agent.dir both ask."""
        from installer.ground.installs import other_agents_only

        agent = self.agent_dir
        if agent is None:
            return frozenset()
        return self.memo("other agents", lambda: other_agents_only(agent, self.on.name))

    def settings(self) -> SettingsRead:
        """settings.json of the agent dir, read once and without taking pi's lock."""
        from installer.doctor.settings_file import read_unlocked

        agent = self.agent_dir
        if agent is None:
            raise ExtError("the agent dir is not known")
        return self.memo("settings", lambda: read_unlocked(agent / "settings.json"))

    def package_entries(self) -> list[Any]:
        """The set's entries in settings.json "packages" (read unlocked); raises when unreadable."""
        from installer.settings import SetPackage, find_entries

        read = self.settings()
        data = read.data
        if read.error is not None:  # what pi reads all the same (a duplicate key, a BOM on 1.x)
            from installer.settings.switches import as_pi_parses

            pi_reads = as_pi_parses(read.text, self.pi_line().strips_bom) if read.text else None
            if pi_reads is None:
                raise read.error
            data = pi_reads  # helper-60: `items` said "cannot be read" of a file list read
        if self.set_root is None or not data:
            return []
        ours = SetPackage.of(self.set_root, read.path)
        return [data["packages"][i] for i in find_entries(data, ours)]

    def folders(self) -> list[tuple[str, str]]:
        """The host's folders as the link engine names them (`skills`, or an absolute one in
        HOME), each with the set's own folder of that kind (`skills`)."""
        from installer.ground.context import home_of
        from installer.hosts.profile import folder_of
        from installer.sets.resources import FOLDER

        home = home_of(self.env)
        return [(folder_of(p, home), FOLDER[p.kind]) for p in self.on.places]

    @property
    def agent_exists(self) -> bool:
        return self.agent_dir is not None and self.agent_dir.is_dir()


def resolve_subject(
    env: Env,
    set_dir: Path | None,
    agent_dir: Path | None,
    host_finder: HostFinder | None = None,
    host: str | None = None,
) -> Subject:
    """Resolve set, manifest and agent dir in DESIGN.md's order, keeping each failure.

    `host`: --host's value (else EXT_HOST; else pi); a name ext does not know is a usage
    error, as for every other command."""
    from installer.ground.context import find_agent_dir, find_set, require_utf8
    from installer.ground.manifest import default_manifest, load_manifest
    from installer.hosts.table import host_named

    named_host, source = (host, "--host") if host else (env.environ.get("EXT_HOST"), "EXT_HOST")
    s = Subject(env, host_named(named_host, source), host_finder=host_finder)
    try:
        s.set_root, s.set_source = find_set(env, set_dir)
        require_utf8(s.set_root, "the set's folder")  # as every other command refuses it
    except ExtError as exc:
        s.set_root, s.set_error = None, exc
    if s.set_root is not None:
        try:
            s.manifest = load_manifest(s.set_root)
        except ExtError as exc:
            s.manifest_error = exc
    named = agent_dir is not None or any(
        env.environ.get(v) for v in ("EXT_AGENT_DIR", s.on.dir_var or "") if v
    )
    if s.manifest is None and not named:
        # The manifest may name the agent dir; guessing another one would check the wrong dir.
        why = "was not found" if s.set_root is None else "has a manifest that could not be read"
        s.agent_error = ExtError(
            f"the agent dir is unknown: the set, which may name it, {why}",
            "fix the set (see the set checks), or name the dir with --agent-dir",
        )
        return s
    manifest = s.manifest or default_manifest(s.set_root or Path(os.curdir))
    named_set = s.set_root if s.set_source == "--set" else None  # a fix names it again
    try:
        if s.on.is_pi:
            s.agent_dir, s.agent_source = find_agent_dir(
                env, manifest, agent_dir, create=False, named_set=named_set
            )
        else:
            from installer.hosts.dirs import find_host_dir

            s.agent_dir, s.agent_source = find_host_dir(
                env, s.on, agent_dir, False, named_set, manifest
            )
        # helper-42: doctor said ok of a dir every other command refuses (exit 2)
        require_utf8(s.agent_dir, "the agent dir")
    except ExtError as exc:
        s.agent_dir, s.agent_error = None, exc
    return s
