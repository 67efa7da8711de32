"""ext's own release on a package index without PyPI's JSON API: the Simple API every index
serves (PEP 691 JSON, PEP 503 HTML), as pip reads it (helper-40: a PEP 503 index was told
"no valid answer; check the network" while pip listed 0.2.0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.updates import UpdateConfig
from installer.updates.check import check_ext
from installer.updates.method import InstallMethod
from installer.updates.pyindex import IndexAnswer, files, latest_on_index
from tests.fs.test_updates_check import OK, Server, send, server  # noqa: F401 (the fixture)

PIPX = InstallMethod("pipx", ("pipx", "upgrade", "extset"))

HTML = b"""<!DOCTYPE html><html><body>
<a href="../../packages/extset-0.1.0.tar.gz#sha256=aa">extset-0.1.0.tar.gz</a>
<a href="x">extset-0.2.0-py3-none-any.whl</a>
<a href="x" data-yanked="broken">extset-0.9.0-py3-none-any.whl</a>
<a href="x">extset-1.0.0rc1-py3-none-any.whl</a>
<a href="x">other_project-5.0.0-py3-none-any.whl</a>
<a href="x">Extset-0.1.5.zip</a>
</body></html>"""


def test_a_pep_503_page_gives_the_newest_release_not_yanked_nor_pre_release() -> None:
    assert sorted(files(HTML)) == ["0.1.0", "0.1.5", "0.2.0", "1.0.0rc1"]  # no yanked one


def test_a_pep_691_document_gives_the_same() -> None:
    doc = {
        "files": [
            {"filename": "extset-0.2.0-py3-none-any.whl"},
            {"filename": "extset-0.3.0.tar.gz", "yanked": True},
            {"filename": "extset-0.1.0.tar.gz", "yanked": False},
        ]
    }
    assert sorted(files(json.dumps(doc).encode())) == ["0.1.0", "0.2.0"]


@pytest.mark.parametrize("url", ["/simple", "/simple/", "/root/pypi/+simple/"])
def test_an_index_with_only_the_simple_api_is_read(
    server: Server,  # noqa: F811
    url: str,
    tmp_path: Path,
) -> None:
    """EXT_INDEX_URL as pip's index-url is written: the Simple API's root."""
    from installer.updates.config import load_config

    server.routes[f"{url.rstrip('/')}/extset/"] = send(200, HTML)
    env = {"EXT_INDEX_URL": server.base + url}
    config = load_config(
        env, config_path=tmp_path / "none.toml", pip_files=(), npmrc=tmp_path / "x"
    )

    found = check_ext(config, PIPX, "0.1.0", OK)
    # the upgrade asks the index the check asked, not pip's own (helper-40)
    assert (found.status, found.latest, found.hint) == (
        "update-available",
        "0.2.0",
        f"pipx upgrade --pip-args '--index-url {server.base}{url.rstrip('/')}' extset",
    )


def test_an_index_without_extset_is_said_as_that_not_as_the_network(server: Server) -> None:  # noqa: F811
    found = check_ext(
        UpdateConfig(index=server.base, index_source="EXT_INDEX_URL"), PIPX, "0.1.0", OK
    )

    assert (found.status, found.detail, found.unanswered) == (
        "not-configured",
        "not on the index of EXT_INDEX_URL",
        False,
    )
    # helper-73: the fix, in doctor and update --check, said to set EXT_INDEX_URL, as set
    from installer.render.updates import lines
    from installer.updates.check import Report
    from installer.updates.findings import doctor_findings

    another = "if extset is published on another index, name that index in EXT_INDEX_URL"
    report = Report((found,), PIPX, checked_at=0.0)
    assert lines(report) == [f"ext: not on the index of EXT_INDEX_URL; {another}"]
    assert [f.fix for f in doctor_findings(report) if f.id == "update.ext"] == [another]


@pytest.mark.parametrize("body", [b"<html>no links</html>", b"\xff\xfe garbage", b"{}"])
def test_an_answer_with_nothing_readable_is_not_sent_to_the_network(
    server: Server,  # noqa: F811
    body: bytes,
) -> None:
    server.routes["/pypi/extset/json"] = send(500, b"")
    server.routes["/extset/"] = send(200, body)

    found = check_ext(
        UpdateConfig(index=server.base, index_source="EXT_INDEX_URL"), PIPX, "0.1.0", OK
    )

    assert (found.status, found.unanswered, found.fix) == ("unavailable", False, None)
    assert found.detail == "the index of EXT_INDEX_URL lists no release of extset ext can read"


def test_an_index_that_does_not_answer_is_asked_once() -> None:
    from installer.updates.fetch import Limits

    dead = "http://127.0.0.1:9/simple/"  # nothing listens there
    assert latest_on_index(dead, Limits(timeout=0.5)) == IndexAnswer(None, False)
    found = check_ext(UpdateConfig(index=dead, index_source="EXT_INDEX_URL"), PIPX, "0.1.0", OK)
    assert (found.status, found.unanswered) == ("unavailable", True)


@pytest.mark.parametrize(
    ("method", "hint"),
    [
        (InstallMethod("pip", ("py", "-m", "pip", "install", "-U", "extset")),
         "py -m pip install -U --index-url http://i/simple extset"),
        (InstallMethod("uv", ("uv", "pip", "install", "--python", "py", "-U", "extset")),
         "uv pip install --python py -U --index-url http://i/simple extset"),
        (PIPX, "pipx upgrade --pip-args '--index-url http://i/simple' extset"),
        (InstallMethod("uv-tool", ("uv", "tool", "upgrade", "extset")),
         "uv tool upgrade --index-url http://i/simple extset"),
        (InstallMethod("homebrew", ("brew", "upgrade", "extset")), "brew upgrade extset"),
        (InstallMethod("editable", None), None),
    ],
)  # fmt: skip
def test_an_upgrade_asks_the_index_the_check_asked(method: InstallMethod, hint: str) -> None:
    from installer.updates.method import with_index

    assert with_index(method, "http://i/simple").hint == hint


@pytest.mark.parametrize(
    "url",
    [
        "http://alice:SECRET@i/simple",
        "http://__token__:SECRET@i/simple",
        "https://SECRET@pypi.fury.io/me/",  # a token as the user name (Gemfury's form)
        "https://i/simple?token=SECRET",  # or in the query (helper-49)
    ],
)
def test_an_index_url_holding_a_credential_is_named_by_its_variable_never_printed(
    url: str,
) -> None:
    """helper-46: the hint (printed, cached, in --json and every notice) carried
    `--index-url http://alice:SECRET@…`; helper-50: left out, the hint asked another index
    without a word (uv reads no pip setting: PyPI). The variable it came from goes in its
    place, for the shell to expand; from a file, there is no hint, and the detail says why."""
    from installer.updates.method import with_index

    uv_tool = InstallMethod("uv-tool", ("uv", "tool", "upgrade", "extset"), "a uv tool")
    by_env = with_index(uv_tool, url, "PIP_INDEX_URL")
    assert by_env.hint == 'uv tool upgrade --index-url "$PIP_INDEX_URL" extset'
    assert with_index(PIPX, url, "EXT_INDEX_URL").hint == (
        'pipx upgrade --pip-args "--index-url $EXT_INDEX_URL" extset'
    )
    by_file = with_index(uv_tool, url, "/home/me/.config/pip/pip.conf")
    assert by_file.hint is None
    assert by_file.by_hand == (
        "`uv tool upgrade extset` with --index-url and the index in "
        "/home/me/.config/pip/pip.conf (it holds a credential, which ext does not print)"
    )
    assert "SECRET" not in str(by_env) + str(by_file) + str(with_index(PIPX, url))


def test_a_hint_naming_the_variable_runs_in_a_shell_as_the_index_it_holds(
    tmp_path: Path,
) -> None:
    """The hint pasted into sh gives the command the URL itself, whatever it holds."""
    import subprocess

    from installer.updates.method import with_index

    uv = InstallMethod("uv-tool", (str(tmp_path / "uv"), "tool", "upgrade", "extset"))
    (tmp_path / "uv").write_text('#!/bin/sh\nprintf "%s\\n" "$@"\n')
    (tmp_path / "uv").chmod(0o755)
    url = "https://u:p w'$x@i/simple?t=1"
    hint = with_index(uv, url, "PIP_INDEX_URL").hint
    assert hint is not None
    ran = subprocess.run(
        ["sh", "-c", hint], env={"PIP_INDEX_URL": url}, capture_output=True, text=True, check=True
    )
    assert ran.stdout.splitlines() == ["tool", "upgrade", "--index-url", url, "extset"]


def test_uv_is_told_the_index_pip_is_configured_with_as_uv_reads_no_pip_config(
    server: Server,  # noqa: F811
) -> None:
    """helper-49: the index came from pip's settings, which uv does not read: `uv tool
    upgrade extset` would have asked PyPI."""
    server.routes["/pypi/extset/json"] = send(200, b'{"info": {"version": "0.2.0"}}')
    uv_tool = InstallMethod("uv-tool", ("uv", "tool", "upgrade", "extset"))
    config = UpdateConfig(index=server.base, index_source="PIP_INDEX_URL")

    assert check_ext(config, uv_tool, "0.1.0", OK).hint == (
        f"uv tool upgrade --index-url {server.base} extset"
    )
    assert check_ext(config, PIPX, "0.1.0", OK).hint == "pipx upgrade extset"  # pip reads it
    secret = server.base.replace("http://", "http://__token__:SECRET@")
    config = UpdateConfig(index=secret, index_source="PIP_INDEX_URL")
    found = check_ext(config, uv_tool, "0.1.0", OK)
    assert found.hint == 'uv tool upgrade --index-url "$PIP_INDEX_URL" extset'
    assert "SECRET" not in str(found)
    # from a file: no hint, and the detail says what to add (helper-56: it said "the way you
    # installed it", which for uv asks PyPI)
    config = UpdateConfig(index=secret, index_source="/etc/pip.conf")
    found = check_ext(config, uv_tool, "0.1.0", OK)
    assert found.hint is None and "SECRET" not in str(found)
    assert found.detail == (
        "upgrade it by `uv tool upgrade extset` with --index-url and the index in "
        "/etc/pip.conf (it holds a credential, which ext does not print)"
    )
