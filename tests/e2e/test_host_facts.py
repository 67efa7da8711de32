"""The facts about Claude Code, Codex CLI, OpenCode and Gemini CLI that ext's host profiles
rely on, pinned on each real binary (tests/hosts.py): where each reads skills and commands,
which shared folders it also reads, that ext's disabled forms are not loaded and its links
are, which copy wins a name clash, and which name a skill gets. Each fails if the host
changes. They ask the hosts through installer.hosts.judges (the judges ext doctor uses), run
offline under unshare, with the test's own HOME; a few run the binary by hand to pin what a
judge cannot see (what the host writes at start, what app-server offers).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path

import pytest

from installer.hosts import judges
from tests.helpers import build_tree, serve, snapshot, stop
from tests.hosts import BY_NAME, RealHost, environment

pytestmark = pytest.mark.e2e


def _skill(name: str, description: str | None = None) -> str:
    about = description or f"The probe skill {name}."
    return f"---\nname: {name}\ndescription: {about}\n---\n\nProbe.\n"


def _md(description: str) -> str:
    return f"---\ndescription: {description}\n---\n\nSay {description} $ARGUMENTS\n"


def _toml(description: str) -> str:
    return f'description = "{description}"\nprompt = "Say {description} {{{{args}}}}"\n'


@pytest.fixture
def set_dir(tmp_path: Path) -> Path:
    """A set: skills (one whose frontmatter name is not its folder's), commands both ways."""
    return build_tree(
        tmp_path / "set",
        {
            "skills/alpha/SKILL.md": _skill("alpha", "Alpha from the set."),
            "skills/beta/SKILL.md": _skill("beta"),
            "skills/gamma/SKILL.md": _skill("gamma"),
            "skills/folder/SKILL.md": _skill("front-name"),
            "other/alpha/SKILL.md": _skill("alpha", "Alpha from elsewhere."),
            "commands/hello.md": _md("hello"),
            "commands/bye.md": _md("bye"),
            "commands/git/commit.md": _md("commit"),
            "commands/hello.toml": _toml("hello"),
            "commands/bye.toml": _toml("bye"),
            "commands/git/commit.toml": _toml("commit"),
        },
    )


def _host(name: str) -> RealHost:
    return BY_NAME[name].require()


def _judge(name: str, home: Path, config_dir: Path, tmp_path: Path) -> judges.Judged:
    """What the host loads, by its judge, run offline; the user's dirs must not change."""
    host = _host(name)
    before = snapshot(home)
    found = judges.judge(
        name, host.offline_bin(tmp_path / "bin"), config_dir, home, environment(home)
    )
    assert snapshot(home) == before, f"judging {name} wrote into the user's dirs"
    return found


def _where(found: judges.Judged, kind: judges.Kind, name: str) -> str | None:
    (item,) = [i for i in found.loaded if i.kind == kind and i.name == name]
    return item.path


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_a_missing_binary_is_a_judge_error_naming_the_fix(name: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with pytest.raises(judges.JudgeError) as caught:
        judges.judge(name, str(tmp_path / "absent"), home / ".cfg", home, environment(home))
    assert "could not run" in caught.value.message
    assert caught.value.fix and "install the host" in caught.value.fix
    assert judges.version(name, str(tmp_path / "absent"), environment(home)) is None


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_each_judge_reads_its_hosts_version(name: str, isolated_home: Path, tmp_path: Path) -> None:
    host = _host(name)
    binary = host.offline_bin(tmp_path / "bin")
    assert judges.version(name, binary, environment(isolated_home)) == host.version


# ---- Claude Code --------------------------------------------------------------------


def test_claude_reads_its_config_dir_and_skips_the_disabled_forms(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".claude"
    build_tree(
        config,
        {
            "skills/alpha": set_dir / "skills/alpha",
            "skills/.off/beta": set_dir / "skills/beta",
            "skills/folder": set_dir / "skills/folder",
            "commands/hello.md": set_dir / "commands/hello.md",
            "commands/bye.md.off": set_dir / "commands/bye.md",
            "commands/git": set_dir / "commands/git",
        },
    )
    found = _judge("claude", isolated_home, config, tmp_path)
    # A skill is named by its folder, not its frontmatter; a command folder gives `ns:name`.
    assert found.names("skill") == {"alpha", "folder"}
    assert found.names("command") == {"hello", "git:commit"}
    assert _where(found, "skill", "alpha") == str(config / "skills/alpha/SKILL.md")


def test_claude_does_not_read_the_shared_agents_skills(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    build_tree(isolated_home, {".agents/skills/gamma": set_dir / "skills/gamma"})
    config = build_tree(isolated_home / ".claude", {"skills": None})
    assert _judge("claude", isolated_home, config, tmp_path).names("skill") == set()
    # Asked by hand too, with HOME the home that holds ~/.agents/skills.
    init = _claude_init(isolated_home, config, tmp_path)
    assert "gamma" not in init["skills"]


def test_claude_writes_into_its_config_dir_at_start(isolated_home: Path, tmp_path: Path) -> None:
    """Why its judge runs on a sandbox config dir: a start writes sessions and state."""
    config = build_tree(isolated_home / ".claude", {"skills": None})
    _claude_init(isolated_home, config, tmp_path)
    assert set(snapshot(config)) - {"skills"}, "claude no longer writes at start"


def _claude_init(home: Path, config: Path, tmp_path: Path) -> dict[str, object]:
    from installer.hosts.judges.claude import ARGS, OFFLINE, parse_init

    done = _host("claude").run(
        list(ARGS), home, tmp_path, {"CLAUDE_CONFIG_DIR": str(config), **OFFLINE}, stdin=""
    )
    records = [r for r in map(parse_init, done.stdout.splitlines()) if r is not None]
    assert records, f"no init record: {done.stdout[-500:]} {done.stderr[-500:]}"
    return records[0]


# ---- Codex CLI ----------------------------------------------------------------------


def test_codex_reads_agents_skills_and_still_codex_home_skills(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".codex"
    build_tree(
        isolated_home,
        {
            ".agents/skills/alpha": set_dir / "skills/alpha",
            ".agents/skills/.off/beta": set_dir / "skills/beta",
            ".agents/skills/folder": set_dir / "skills/folder",
            ".codex/skills/gamma": set_dir / "skills/gamma",
            ".codex/skills/.off/beta": set_dir / "skills/beta",
            ".codex/prompts/hello.md": set_dir / "commands/hello.md",
        },
    )
    found = _judge("codex", isolated_home, config, tmp_path)
    # Named by the frontmatter; the path is the link's target (Codex resolves links).
    assert found.names("skill") == {"alpha", "gamma", "front-name"}
    assert _where(found, "skill", "alpha") == str(set_dir / "skills/alpha/SKILL.md")


def test_codex_clash_between_codex_home_and_agents_skills(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".codex"
    build_tree(
        isolated_home,
        {
            ".agents/skills/alpha": set_dir / "skills/alpha",
            ".codex/skills/alpha": set_dir / "other/alpha",
        },
    )
    found = _judge("codex", isolated_home, config, tmp_path)
    alphas = sorted(i.path or "" for i in found.loaded if i.name == "alpha")
    assert alphas == sorted(
        [str(set_dir / "skills/alpha/SKILL.md"), str(set_dir / "other/alpha/SKILL.md")]
    ), "codex no longer lists both copies of a clashing name"


def test_codex_writes_its_system_skills_into_codex_home(
    isolated_home: Path, tmp_path: Path
) -> None:
    """Why its judge gives it a sandbox CODEX_HOME: app-server's start writes `.system`."""
    config = build_tree(isolated_home / ".codex", {"skills": None})
    _codex_ask(isolated_home, config, tmp_path, [])
    assert (config / "skills/.system").is_dir()


def test_codex_does_not_expand_a_tilde_in_codex_home(isolated_home: Path, tmp_path: Path) -> None:
    """Why ext refuses CODEX_HOME='~/.codex' (installer.hosts.dirs): Codex takes the `~` as
    a folder's name, so ~/.codex, there and full, is not what it reads."""
    import subprocess

    build_tree(isolated_home / ".codex", {"skills": None})
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        [_host("codex").offline_bin(tmp_path / "bin"), "app-server"],
        env=environment(isolated_home, CODEX_HOME="~/.codex"),
        cwd=work,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert 'CODEX_HOME points to "~/.codex", but that path does not exist' in done.stderr


def test_codex_app_server_cannot_list_prompts(isolated_home: Path, tmp_path: Path) -> None:
    config = build_tree(isolated_home / ".codex", {"prompts/hello.md": _md("hello")})
    ask = {"jsonrpc": "2.0", "id": 3, "method": "prompts/list", "params": {}}
    (answer,) = _codex_ask(isolated_home, config, tmp_path, [ask])
    assert "unknown variant `prompts/list`" in answer["error"]["message"]


def _codex_ask(
    home: Path, config: Path, tmp_path: Path, extra: list[dict[str, object]]
) -> list[dict[str, object]]:
    """Ask app-server skills/list, then each of `extra`; the answers to `extra`. Its stdin
    stays open until the last answer: at end of input it stops without answering."""
    from installer.hosts.judges.codex import ASK, requests
    from installer.hosts.judges.sandbox import lines

    last = extra[-1]["id"] if extra else ASK
    seen = lines(
        [_host("codex").offline_bin(tmp_path / "bin"), "app-server"],
        environment(home, CODEX_HOME=str(config)),
        tmp_path,
        lambda ln: _id(ln) == last,
        send=[*requests(tmp_path), *map(json.dumps, extra)],
    )
    assert seen and _id(seen[-1]) == last, "".join(seen)[-500:]
    ids = {m["id"] for m in extra}
    return [json.loads(ln) for ln in seen if _id(ln) in ids]


def _id(line: str) -> object:
    from installer.hosts.judges.codex import answer_id

    return answer_id(line)


# ---- OpenCode -----------------------------------------------------------------------


def test_opencode_reads_its_config_dir_and_skips_the_disabled_forms(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".config/opencode"
    build_tree(
        config,
        {
            "skills/alpha": set_dir / "skills/alpha",
            "skills/.off/beta": set_dir / "skills/beta",
            "skills/folder": set_dir / "skills/folder",
            "commands/hello.md": set_dir / "commands/hello.md",
            "commands/bye.md.off": set_dir / "commands/bye.md",
            "commands/git": set_dir / "commands/git",
            # a backup ext made of the user's own skill, a real folder: skipped too (helper-48)
            "skills/.bak/delta.bak.20261205-120000/SKILL.md": (
                "---\nname: delta\ndescription: The user's own.\n---\nMine.\n"
            ),
        },
    )
    found = _judge("opencode", isolated_home, config, tmp_path)
    assert found.names("skill") == {"alpha", "front-name"}  # named by the frontmatter
    assert found.names("command") == {"hello", "git/commit"}  # a folder gives `ns/name`
    assert _where(found, "skill", "alpha") == str(config / "skills/alpha/SKILL.md")
    assert _where(found, "command", "hello") == str(config / "commands/hello.md")


def test_opencode_reads_the_singular_folders_too(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".config/opencode"
    build_tree(
        config,
        {"skill/gamma": set_dir / "skills/gamma", "command/bye.md": set_dir / "commands/bye.md"},
    )
    found = _judge("opencode", isolated_home, config, tmp_path)
    assert (found.names("skill"), found.names("command")) == ({"gamma"}, {"bye"})


def test_opencode_reads_claude_and_agents_skills(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    build_tree(
        isolated_home,
        {
            ".claude/skills/beta": set_dir / "skills/beta",
            ".agents/skills/gamma": set_dir / "skills/gamma",
        },
    )
    found = _judge("opencode", isolated_home, isolated_home / ".config/opencode", tmp_path)
    assert _where(found, "skill", "beta") == str(isolated_home / ".claude/skills/beta/SKILL.md")
    assert _where(found, "skill", "gamma") == str(isolated_home / ".agents/skills/gamma/SKILL.md")


@pytest.mark.parametrize("name", ["opencode", "gemini"])
def test_which_hosts_read_the_hidden_folders_of_the_shared_skills_folders(
    name: str, isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """`reads_hidden`: a skill ext parked for Claude Code or Codex CLI (`skills/.off/`) in a
    shared folder is one OpenCode loads all the same (its own folder's `.off` it skips); Gemini
    CLI does not."""
    from installer.hosts.table import HOSTS

    build_tree(
        isolated_home,
        {
            ".claude/skills/.off/beta": set_dir / "skills/beta",
            ".agents/skills/.off/gamma": set_dir / "skills/gamma",
        },
    )
    config = isolated_home / {"opencode": ".config/opencode", "gemini": ".gemini"}[name]
    config.mkdir(parents=True)
    found = _judge(name, isolated_home, config, tmp_path).names("skill")
    reads = {"~/.claude/skills": "beta", "~/.agents/skills": "gamma"}
    hidden = {reads[f] for f in HOSTS[name].also_reads} if HOSTS[name].reads_hidden else set()
    assert found == hidden


@pytest.mark.parametrize(
    ("switch", "value", "unread"),
    [
        ("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "1", {"beta"}),
        ("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "yes", {"beta"}),
        ("OPENCODE_DISABLE_CLAUDE_CODE", "true", {"beta"}),
        ("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1", {"beta", "gamma"}),
        ("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "0", set()),
    ],
)
def test_opencode_switches_that_stop_reading_the_shared_folders(
    switch: str, value: str, unread: set[str], isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """The real OpenCode, and what installer/hosts/table.py's `unread_by` makes ext take it
    to read under the same switch."""
    from installer.hosts.table import OPENCODE

    build_tree(
        isolated_home,
        {
            ".claude/skills/beta": set_dir / "skills/beta",
            ".agents/skills/gamma": set_dir / "skills/gamma",
            ".config/opencode/skills/alpha": set_dir / "skills/alpha",
        },
    )
    done = _host("opencode").run(["debug", "skill"], isolated_home, tmp_path, {switch: value})
    from installer.hosts.judges.opencode import parse_skills

    names = {s.name for s in parse_skills(json.loads(done.stdout))}
    assert names == {"alpha", "beta", "gamma"} - unread, done.stderr[-500:]
    by_folder = {"~/.claude/skills": "beta", "~/.agents/skills": "gamma"}
    assert {by_folder[f] for f in OPENCODE.reads({switch: value})} == {"beta", "gamma"} - unread


def test_opencode_clash_loads_one_and_reports_the_other(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """Which copy wins is not fixed (seen both ways on one machine): its scans race. What
    holds is one loaded and the other named as a duplicate, which is why ext never links a
    skill into OpenCode's own folder that it already reads from a shared one."""
    config = isolated_home / ".config/opencode"
    build_tree(
        isolated_home,
        {
            ".config/opencode/skills/alpha": set_dir / "skills/alpha",
            ".agents/skills/alpha": set_dir / "other/alpha",
        },
    )
    found = _judge("opencode", isolated_home, config, tmp_path)
    both = {
        str(config / "skills/alpha/SKILL.md"),
        str(isolated_home / ".agents/skills/alpha/SKILL.md"),
    }
    loaded = _where(found, "skill", "alpha")
    assert loaded in both
    (problem,) = found.problems
    assert "duplicate skill name" in problem
    assert (both - {loaded}).pop() in problem


def test_opencode_writes_into_its_config_dir_at_start(isolated_home: Path, tmp_path: Path) -> None:
    """Why its judge runs on a sandbox config dir."""
    config = build_tree(isolated_home / ".config/opencode", {"skills": None})
    _host("opencode").run(["debug", "skill"], isolated_home, tmp_path)
    assert set(snapshot(config)) - {"skills"}, "opencode no longer writes at start"


# ---- Gemini CLI ---------------------------------------------------------------------


def test_gemini_reads_its_skills_and_skips_the_parked_one(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".gemini"
    build_tree(
        config,
        {
            "skills/alpha": set_dir / "skills/alpha",
            "skills/.off/beta": set_dir / "skills/beta",
            "skills/folder": set_dir / "skills/folder",
        },
    )
    found = _judge("gemini", isolated_home, config, tmp_path)
    assert found.names("skill") == {"alpha", "front-name"}  # named by the frontmatter
    assert _where(found, "skill", "alpha") == str(config / "skills/alpha/SKILL.md")


def test_gemini_reads_agents_skills_under_gemini_cli_home_not_home(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    gemini_home = tmp_path / "gemini-home"
    build_tree(
        tmp_path,
        {
            "gemini-home/.agents/skills/gamma": set_dir / "skills/gamma",
            "home/.agents/skills/beta": set_dir / "skills/beta",
        },
    )
    done = _host("gemini").run(
        ["skills", "list"], isolated_home, tmp_path, {"GEMINI_CLI_HOME": str(gemini_home)}
    )
    from installer.hosts.judges.gemini import parse_skills

    assert {s.name for s in parse_skills(done.stdout)} == {"gamma"}, done.stdout + done.stderr


def test_gemini_clash_agents_skills_wins_and_is_reported(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    config = isolated_home / ".gemini"
    build_tree(
        isolated_home,
        {
            ".gemini/skills/alpha": set_dir / "skills/alpha",
            ".agents/skills/alpha": set_dir / "other/alpha",
        },
    )
    found = _judge("gemini", isolated_home, config, tmp_path)
    assert _where(found, "skill", "alpha") == str(isolated_home / ".agents/skills/alpha/SKILL.md")
    (problem,) = found.problems
    assert problem.startswith("Skill conflict detected")
    assert str(config / "skills/alpha/SKILL.md") in problem


def test_gemini_reports_one_skill_linked_in_both_folders_as_a_clash(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """The fact behind installer.hosts.shared.doubled_elsewhere: the same skill, linked into
    ~/.gemini/skills and ~/.agents/skills (Gemini CLI's install first, then Codex CLI's),
    is found twice by Gemini CLI, which reports it (helper-50)."""
    config = isolated_home / ".gemini"
    build_tree(
        isolated_home,
        {
            ".gemini/skills/alpha": set_dir / "skills/alpha",
            ".agents/skills/alpha": set_dir / "skills/alpha",
        },
    )
    found = _judge("gemini", isolated_home, config, tmp_path)
    (problem,) = found.problems
    assert problem.startswith("Skill conflict detected")


def test_gemini_writes_into_its_home_at_start(isolated_home: Path, tmp_path: Path) -> None:
    """Why its judge gives it a sandbox GEMINI_CLI_HOME."""
    config = build_tree(isolated_home / ".gemini", {"skills": None})
    _host("gemini").run(
        ["skills", "list"], isolated_home, tmp_path, {"GEMINI_CLI_HOME": str(isolated_home)}
    )
    assert set(snapshot(config)) - {"skills"}, "gemini no longer writes at start"


def test_gemini_commands_by_their_layout(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """Gemini has no command lister: each command is run against a fake Gemini API on
    loopback (the one run here not under unshare: nothing but 127.0.0.1 is reachable from
    the test's server), and the prompt it sends shows whether the command was expanded."""
    config = isolated_home / ".gemini"
    build_tree(
        config,
        {
            "commands/hello.toml": set_dir / "commands/hello.toml",
            "commands/bye.toml.off": set_dir / "commands/bye.toml",
            "commands/git": set_dir / "commands/git",
            # The API key's auth method, chosen as gemini's first interactive start would.
            "settings.json": '{"security": {"auth": {"selectedType": "gemini-api-key"}}}\n',
        },
    )
    host = _host("gemini")
    with _FakeApi() as api:

        def send(text: str) -> str:
            env = environment(
                isolated_home,
                GEMINI_CLI_HOME=str(isolated_home),
                GEMINI_API_KEY="not-a-key",
                GOOGLE_GEMINI_BASE_URL=api.url,
            )
            return api.prompt([str(host.bin), "--skip-trust", "-p", text], env, tmp_path)

        assert "Say hello now" in send("/hello now")
        assert "Say commit now" in send("/git:commit now")
        parked = send("/bye now")
        assert "/bye now" in parked, "a parked command's prompt is no longer sent as typed"
        assert "Say bye" not in parked
    from installer.hosts.judges.gemini import commands

    assert {c.name for c in commands(config)} == {"hello", "git:commit"}


def test_codex_exec_does_not_expand_prompts(
    isolated_home: Path, set_dir: Path, tmp_path: Path
) -> None:
    """`codex exec` sends `/prompts:<n>` as typed (a fake API on loopback, as for Gemini):
    prompts are no feature of a non-interactive run. Whether the TUI still offers
    `$CODEX_HOME/prompts` is not pinned: no offline lister says so."""
    config = build_tree(
        isolated_home / ".codex", {"prompts/hello.md": set_dir / "commands/hello.md"}
    )
    host = _host("codex")
    with _FakeApi() as api:
        provider = {
            "model_provider": '"fake"',
            "model_providers.fake.name": '"fake"',
            "model_providers.fake.base_url": f'"{api.url}/v1"',
            "model_providers.fake.env_key": '"FAKE_KEY"',
            "model_providers.fake.wire_api": '"responses"',
        }
        flags = [arg for key, value in provider.items() for arg in ("-c", f"{key}={value}")]
        argv = [str(host.bin), "exec", "--skip-git-repo-check", *flags, "/prompts:hello now"]
        env = environment(isolated_home, CODEX_HOME=str(config), FAKE_KEY="not-a-key")
        sent = api.prompt(argv, env, tmp_path)
    assert "/prompts:hello now" in sent
    assert "Say hello now" not in sent


@pytest.mark.parametrize("both", [True, False], ids=["skill-and-command", "command-alone"])
def test_claude_runs_the_skill_when_a_command_has_its_name(
    isolated_home: Path, tmp_path: Path, both: bool
) -> None:
    """`/review now` with `skills/review/` and `commands/review.md` both in place sends the
    skill's text, not the command's (a fake API on loopback, as for Gemini): the command is
    not offered (the host's `skill_hides_command`, helper-77). Alone, the command runs."""
    from installer.hosts.table import CLAUDE

    files = {"commands/review.md": "---\ndescription: d\n---\nCommand text $ARGUMENTS\n"}
    if both:
        files["skills/review/SKILL.md"] = "---\nname: review\ndescription: d\n---\nSkill text\n"
    config = build_tree(isolated_home / ".claude", files)
    host = _host("claude")
    with _FakeApi() as api:
        env = environment(
            isolated_home,
            CLAUDE_CONFIG_DIR=str(config),
            ANTHROPIC_API_KEY="not-a-key",
            ANTHROPIC_BASE_URL=api.url,
        )
        sent = api.prompt([str(host.bin), "-p", "/review now"], env, tmp_path)
    assert ("Skill text" in sent, "Command text now" in sent) == (both, not both), sent[-2000:]
    assert CLAUDE.skill_hides_command


class _FakeApi:
    """A model API on 127.0.0.1 that keeps the first request's body and answers nothing
    useful: the test stops the host as soon as that request (or the host's end) arrives."""

    def __enter__(self) -> _FakeApi:
        import http.server
        import threading

        self.bodies: list[str] = []
        self.arrived = threading.Event()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length") or 0)
                fake.bodies.append(self.rfile.read(size).decode("utf-8", "replace"))
                fake.arrived.set()
                self.send_response(500)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = serve(Handler)
        return self

    def __exit__(self, *exc: object) -> None:
        stop(self.server)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def prompt(self, argv: list[str], env: dict[str, str], cwd: Path) -> str:
        """What argv sends first (else its stderr, when it sent nothing before it ended)."""
        import subprocess
        import threading

        self.bodies.clear()
        self.arrived.clear()
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # gemini relaunches itself in a child: stop the group
        )
        threading.Thread(target=lambda: (proc.wait(), self.arrived.set()), daemon=True).start()
        try:
            assert self.arrived.wait(timeout=120), f"{argv[0]} neither asked nor ended"
        finally:
            with contextlib.suppress(ProcessLookupError):  # it ended, and its helpers with it
                os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate(timeout=30)
        return "\n".join(self.bodies) or err


# ---- what a skill's frontmatter must hold -------------------------------------------

NEEDS_PLACE = {
    "claude": ".claude/skills",
    "codex": ".agents/skills",
    "opencode": ".config/opencode/skills",
    "gemini": ".gemini/skills",
}
NEEDS_DIR = {
    "claude": ".claude",
    "codex": ".codex",
    "opencode": ".config/opencode",
    "gemini": ".gemini",
}


EDGE = "e" * 64  # the Agent Skills format's longest name
LONG = "l" * 65


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_the_frontmatter_fields_a_host_needs_to_load_a_skill(
    name: str, isolated_home: Path, tmp_path: Path
) -> None:
    """installer/hosts/table.py's `skill_needs`, which install and list warn by: a skill that
    lacks a field one host needs is left out by that host alone."""
    from installer.hosts.table import HOSTS

    src = build_tree(
        tmp_path / "src",
        {
            "both/SKILL.md": "---\nname: both\ndescription: Has both.\n---\nBody\n",
            "nodesc/SKILL.md": "---\nname: nodesc\n---\nBody\n",
            "noname/SKILL.md": "---\ndescription: Has no name.\n---\nBody\n",
            "nofm/SKILL.md": "Body only\n",
            "long/SKILL.md": f"---\nname: {LONG}\ndescription: A long name.\n---\nBody\n",
            "edge/SKILL.md": f"---\nname: {EDGE}\ndescription: A name at the edge.\n---\nB\n",
        },
    )
    place = isolated_home / NEEDS_PLACE[name]
    place.mkdir(parents=True)
    for skill in ("both", "nodesc", "noname", "nofm", "long", "edge"):
        (place / skill).symlink_to(src / skill)
    config = isolated_home / NEEDS_DIR[name]
    config.mkdir(parents=True, exist_ok=True)
    found = _judge(name, isolated_home, config, tmp_path)
    loaded = {i.name for i in found.loaded if i.kind == "skill"}
    needs, most = set(HOSTS[name].skill_needs), HOSTS[name].skill_name_max
    by_folder = HOSTS[name].skill_named_by == "folder"
    expected = {"both", "edge" if by_folder else EDGE}
    expected |= {"nodesc"} if "absent" not in HOSTS[name].description_refused else set()
    expected |= {"noname"} if "name" not in needs else set()
    expected |= set() if most is not None and len(LONG) > most else {"long" if by_folder else LONG}
    assert loaded == expected


@pytest.mark.parametrize("named", [False, True], ids=["unset", "set-to-default"])
def test_claude_reads_its_json_from_inside_claude_config_dir_once_that_is_set(
    named: bool, isolated_home: Path, tmp_path: Path
) -> None:
    """Why `ext env --host claude` at ~/.claude prints `unset CLAUDE_CONFIG_DIR` (the host's
    `unset_at_default`): set, even to ~/.claude, Claude Code keeps `.claude.json` inside it
    instead of at ~/.claude.json, so the user's settings and trusted folders seem gone."""
    from installer.hosts.table import CLAUDE

    assert CLAUDE.unset_at_default
    (isolated_home / ".claude").mkdir()
    extra = {"CLAUDE_CONFIG_DIR": str(isolated_home / ".claude")} if named else {}
    _host("claude").run(
        ["-p", "--output-format", "stream-json", "--verbose", "hi"], isolated_home, tmp_path, extra
    )
    inside = (isolated_home / ".claude" / ".claude.json").exists()
    beside = (isolated_home / ".claude.json").exists()
    assert (inside, beside) == ((True, False) if named else (False, True))
