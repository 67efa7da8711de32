"""Ask an index or registry for a latest version: bounded in time and size, silent on failure."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from installer.ground.records import NamedTuple
from installer.updates.config import DIST, registry_json_url

TIMEOUT = 3.0
MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Per-request time budget (seconds) and response body cap (bytes)."""

    timeout: float = TIMEOUT
    max_bytes: int = MAX_BYTES


DEFAULT_LIMITS = Limits()


class Fetched(NamedTuple):
    """What a GET got: the status (None: no answer at all, in time or ever) and a 200's body
    (None for any other status, or one past the size cap)."""

    status: int | None
    body: bytes | None = None


def fetch(
    url: str,
    limits: Limits = DEFAULT_LIMITS,
    accept: str = "application/json",
    token: str | None = None,
) -> Fetched:
    """GET `url` within `limits` (with `token` as a bearer, as npm sends a registry's
    _authToken), telling no answer from an answer ext cannot use."""
    return _within_deadline(url, limits, accept, token)


def fetch_json(
    url: str, limits: Limits = DEFAULT_LIMITS, accept: str = "application/json"
) -> object | None:
    """GET `url` and parse its JSON; None on any failure (status, size, time, encoding, syntax)."""
    body = _within_deadline(url, limits, accept, None).body
    if body is None:
        return None
    import json

    try:
        data: object = json.loads(body)
    except ValueError:  # includes UnicodeDecodeError
        return None
    return data


def _within_deadline(url: str, limits: Limits, accept: str, token: str | None) -> Fetched:
    """The answer, or none once `limits.timeout` has passed in all: connect, headers and body.

    httpx's timeouts bound each socket read, so a server that sends its header a byte a
    second never ends a request. The request runs in a daemon thread instead and is
    abandoned at the deadline (it dies with the process, having written nothing).
    """
    import threading

    box: list[Fetched] = []

    def work() -> None:
        try:
            box.append(_fetch_bytes(url, limits, accept, token))
        except Exception:  # an update check must never break or trace the command it rides on
            box.append(Fetched(None))

    worker = threading.Thread(target=work, name="ext-update-fetch", daemon=True)
    worker.start()
    worker.join(limits.timeout)
    return box[0] if box else Fetched(None)


def _fetch_bytes(url: str, limits: Limits, accept: str, token: str | None) -> Fetched:
    import httpx

    from installer import __version__

    deadline = time.monotonic() + limits.timeout
    headers = {"Accept": accept, "User-Agent": f"extset/{__version__}"}
    if token:  # httpx drops it on a redirect to another origin, as npm does
        headers["Authorization"] = f"Bearer {token}"
    with (
        httpx.Client(timeout=limits.timeout, follow_redirects=True, headers=headers) as client,
        client.stream("GET", url) as resp,
    ):
        status = resp.status_code
        if status != 200:
            return Fetched(status)
        length = resp.headers.get("content-length", "")
        if length.isdigit() and int(length) > limits.max_bytes:
            return Fetched(status)
        body = bytearray()
        for chunk in resp.iter_bytes():  # decoded bytes, so a compressed bomb is capped too
            body += chunk
            if len(body) > limits.max_bytes:
                return Fetched(status)
            if time.monotonic() > deadline:
                return Fetched(None)
        return Fetched(status, bytes(body))


class Releases(NamedTuple):
    """What a registry or an installer says is published: the latest, and every version;
    or why it says nothing (NOT_ON_INDEX, UNREACHED, UNREADABLE, or a registry's refusal)."""

    latest: str | None
    versions: tuple[str, ...] = ()
    # "not-on-index", "unreached", "unreadable", or "npm:E401" (the code npm's registry gave)
    none_because: str | None = None


def releases_from_registry(
    registry: str, package: str, limits: Limits = DEFAULT_LIMITS, token: str | None = None
) -> Releases | None:
    """`dist-tags.latest` and the versions from an npm-style registry's package document;
    None when the registry gave no answer, and why it gave none ext can use (helper-40: a
    401 was said as a network fault)."""
    got = fetch(registry_json_url(registry, package), limits, _NPM_ABBREVIATED, token)
    if got.status is None:
        return None
    if got.status == 404:
        return NOT_ON_INDEX
    if got.status != 200 or got.body is None:
        return Releases(None, (), f"http:{got.status}")
    import json

    try:
        data = json.loads(got.body)
    except ValueError:
        return UNREADABLE
    if not isinstance(data, dict):
        return UNREADABLE
    tags = data.get("dist-tags")
    latest = _semver_text(tags.get("latest") if isinstance(tags, dict) else None)
    versions = data.get("versions")
    names = tuple(v for v in versions if _semver_text(v)) if isinstance(versions, dict) else ()
    return Releases(latest, names)


# npm's abbreviated package document: the versions without their READMEs, a tenth the size.
_NPM_ABBREVIATED = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8"


# npm retries a failed fetch twice, 10 s and then up to 60 s apart: offline, that outlives the
# time ext allows, so the answer was "timed out" after it. Once, a second later, it says itself.
_NPM_RETRY_ONCE = (
    "--fetch-retries=1",
    "--fetch-retry-mintimeout=1000",
    "--fetch-retry-maxtimeout=2000",
)


def ask_npm(package: str, env: Mapping[str, str], timeout: float) -> Releases | None:
    """What npm itself says is published, from the registry npm is configured with (its own
    default when the user set none): `npm view PACKAGE dist-tags.latest versions --json`;
    NOT_ON_INDEX when the registry has no such package (E404), UNREACHED when npm got no
    answer (offline: a network error, or it retries past the time allowed), the registry's
    refusal when it gave one (`npm:E401`), UNREADABLE when npm said what ext cannot read; None
    with no npm to ask."""
    import json

    args = ["view", package, "dist-tags.latest", "versions", "--json", *_NPM_RETRY_ONCE]
    done = run_npm(args, env, timeout)
    if done is None:
        return None
    if done.timed_out or done.returncode != 0:
        return _npm_failed(done)
    try:
        data = json.loads(done.stdout) if done.stdout else None
    except ValueError:
        return UNREADABLE
    if not isinstance(data, dict):
        return UNREADABLE
    versions = data.get("versions")
    listed = [versions] if isinstance(versions, str) else versions
    names = tuple(v for v in listed if _semver_text(v)) if isinstance(listed, list) else ()
    return Releases(_semver_text(data.get("dist-tags.latest")), names)


def _npm_failed(done: Completed) -> Releases:
    """Why `npm view` gave no releases: the registry's answer (E404: no such package), or
    none (ENOTFOUND, ECONNREFUSED, ETIMEDOUT…, or npm outlived its time)."""
    import re

    found = re.search(r'"code": "(E\d{3})"|code (E\d{3})\b', done.stdout + done.stderr)
    code = found and (found.group(1) or found.group(2))
    if done.timed_out or code is None:
        return UNREACHED
    return NOT_ON_INDEX if code == "E404" else Releases(None, (), f"npm:{code}")


def run_npm(args: list[str], env: Mapping[str, str], timeout: float) -> Completed | None:
    """How the user's npm (on the user's PATH) ended, run so it leaves nothing behind: no
    debug log (`--logs-max=0`), no update-notifier stamp, its cache in a temp folder that is
    removed after (npm makes `~/.npm` for its cache even when it logs nothing), and no Node
    compile cache in the temp folder (npm 10 turns it on). None when there is no npm, or it
    cannot start."""
    import tempfile

    from installer.ground.which import which
    from installer.host.pi import no_compile_cache

    npm = which("npm", path=env.get("PATH", ""))
    if npm is None:
        return None
    quiet = no_compile_cache({**env, "npm_config_update_notifier": "false"})
    with tempfile.TemporaryDirectory(prefix="extset-npm-", ignore_cleanup_errors=True) as cache:
        flags = [f"--cache={cache}", "--logs-max=0", "--no-update-notifier"]
        return completed([npm, *args, *flags], quiet, timeout, cwd=cache)


# Releases of nothing: the installer answered, and the index has no such distribution.
NOT_ON_INDEX = Releases(None, (), "not-on-index")
# Releases of nothing: the installer has an index but got no answer from it (offline).
UNREACHED = Releases(None, (), "unreached")
# Releases of nothing: the installer answered in a way ext cannot read.
UNREADABLE = Releases(None, (), "unreadable")


def ask_pip(
    python: str, env: Mapping[str, str], timeout: float, dist: str = DIST
) -> Releases | None:
    """What pip itself would install, from the index pip is configured with (its own default
    when the user set none): `python -m pip index versions extset`; NOT_ON_INDEX when pip
    reached its index and found no extset there; UNREACHED when it could not reach it."""
    import re

    if env.get("PIP_NO_INDEX", "").strip().lower() in ("1", "true", "yes", "on"):
        return None  # pip is told to use no index: there is none to ask, nothing is missing
    # One retry, not pip's five (backing off to 4 s): offline they outlived the time allowed.
    # Its `Retrying … connection` line is what tells an index unreached from one without ext.
    # -P, and a folder of its own: `-m pip` in the folder ext runs in imported a `pip/` of that
    # folder first (helper-69: a cloned repository's ran).
    argv = [python, "-P", "-m", "pip", "index", "versions", dist, "--disable-pip-version-check"]
    argv += ["--retries", "1"]
    import tempfile

    with tempfile.TemporaryDirectory(prefix="extset-pip-", ignore_cleanup_errors=True) as here:
        done = completed(argv, _without_rustc(env), timeout, cwd=here)
    if done is None:
        return None
    if done.timed_out:  # offline, pip retries each index past the time allowed
        return UNREACHED
    found = re.search(r"^Available versions:\s*(.+)$", done.stdout, re.MULTILINE)
    if found is None:
        # pip says this alike of an index it could not read; then it also said it retried.
        missing = f"No matching distribution found for {dist}" in done.stderr
        if "Retrying" in done.stderr and "connection" in done.stderr:  # its index, unreached
            return UNREACHED
        return NOT_ON_INDEX if missing and "Retrying" not in done.stderr else None
    listed = tuple(v for v in (p.strip() for p in found.group(1).split(",")) if _semver_text(v))
    latest = None
    for version in listed:
        if latest is None or compare(latest, version):
            latest = version
    return Releases(latest, listed)


def _without_rustc(env: Mapping[str, str]) -> dict[str, str]:
    """env with no PATH entry that holds `rustc`: pip runs `rustc --version` for its user
    agent when it finds one, and rustup's rustc writes `~/.rustup/settings.toml` in a home
    that has none (a read-only check must write nothing), after up to half a second."""
    import os

    if "PATH" not in env:
        return dict(env)
    dirs = env["PATH"].split(os.pathsep)
    kept = [d for d in dirs if not (d and os.path.exists(f"{d}/rustc"))]
    return {**env, "PATH": os.pathsep.join(kept)}


def ask_uv(
    python: str, env: Mapping[str, str], timeout: float, dist: str = DIST
) -> Releases | None:
    """What uv itself would install (a uv tool's venv has no pip), from the index uv is
    configured with: `uv pip compile` of `dist` alone, for the tool's Python; NOT_ON_INDEX
    when uv found no such package there."""
    import re

    from installer.ground.which import which

    uv = which("uv", path=env.get("PATH", ""))  # the user's uv, on the user's PATH
    if uv is None:
        return None
    argv = [uv, "pip", "compile", "-", "--no-deps", "--no-header", "--no-annotate", "--quiet"]
    import tempfile

    # a folder of its own: uv reads the working folder's uv.toml and pyproject.toml
    with tempfile.TemporaryDirectory(prefix="extset-uv-", ignore_cleanup_errors=True) as here:
        argv += ["--python", python]
        done = completed(argv, env, timeout, stdin=f"{dist}\n", cwd=here)
    if done is None:
        return None
    if done.timed_out:
        return UNREACHED
    if done.returncode != 0:
        missing = f"{dist} was not found in the package registry" in done.stderr
        return NOT_ON_INDEX if missing else None
    found = re.search(rf"^{re.escape(dist)}==(\S+)\s*$", done.stdout, re.MULTILINE | re.IGNORECASE)
    latest = found.group(1) if found and _semver_text(found.group(1)) else None
    return Releases(latest, (latest,)) if latest else None


class Completed(NamedTuple):
    """How a command ended: its exit code and what it printed, or that it outlived its time."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False


def completed(
    argv: list[str],
    env: Mapping[str, str],
    timeout: float,
    stdin: str | None = None,
    cwd: str | None = None,
) -> Completed | None:
    """How a command ended (`timed_out` once it outlives `timeout`: killed), or None when it
    cannot start. `cwd`: a folder of ext's, where no project's config is read (npm reads the
    working folder's `.npmrc`: helper-69)."""
    import subprocess

    from installer.ground.which import for_children

    try:
        done = subprocess.run(
            argv,
            env=for_children(env),  # npm's `#!/usr/bin/env node` too (helper-77)
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            **({"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}),
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Completed(-1, "", "", timed_out=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return Completed(done.returncode, done.stdout, done.stderr)


def compare(current: str | None, latest: str | None) -> bool | None:
    """True when `latest` is newer than `current`; None when either is not semver."""
    from installer.host.versions import newer

    return newer(latest, current)


def _semver_text(value: object) -> str | None:
    """Strict semver only: a PEP 440 spelling such as `1.0` or `1.0rc1` has no semver
    ordering we could trust, so it is ignored rather than guessed at."""
    from installer.host.versions import parse_version

    return value.strip() if isinstance(value, str) and parse_version(value) is not None else None
