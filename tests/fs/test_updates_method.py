"""Install-method detection on prefixes and dist-info folders built under tmp."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from installer.updates.hostmethod import detect_host_method, npm_global_prefix
from installer.updates.method import (
    InstallFacts,
    InstallMethod,
    current_install_facts,
    detect_install_method,
    set_hint,
)
from tests.helpers import build_tree

PY = "/opt/py/bin/python3"
PKG = "@mariozechner/pi-coding-agent"


def facts(
    prefix: Path,
    *,
    installer: str | None = "pip",
    direct_url: Mapping[str, object] | None = None,
    env: dict[str, str] | None = None,
    venv: bool = True,
    stdlib: Path | None = None,
    user_site: Path | None = None,
    dist_info: Path | None = None,
) -> InstallFacts:
    """Facts for an extset installed under `prefix`, writing its dist-info files."""
    site = prefix / "lib" / "python3.11" / "site-packages"
    dist_info = dist_info or site / "extset-0.1.0.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text("Name: extset\nVersion: 0.1.0\n")
    if installer is not None:
        (dist_info / "INSTALLER").write_text(installer + "\n")
    if direct_url is not None:
        (dist_info / "direct_url.json").write_text(json.dumps(direct_url))
    return InstallFacts(
        prefix=prefix,
        dist_info=dist_info,
        python=PY,
        env=env or {},
        base_prefix=Path("/usr") if venv else prefix,
        stdlib=stdlib,
        user_site=user_site,
    )


def test_editable_git_checkout_pulls(tmp_path: Path) -> None:
    checkout = build_tree(tmp_path / "src" / "extset", {".git/HEAD": "ref: refs/heads/main\n"})
    url = {"url": checkout.as_uri(), "dir_info": {"editable": True}}
    method = detect_install_method(facts(tmp_path / "venv", direct_url=url))
    assert method == InstallMethod(
        "editable", ("git", "-C", str(checkout), "pull"), f"editable {checkout}"
    )
    assert method.hint == f"git -C {checkout} pull"


def test_editable_wins_over_pipx(tmp_path: Path) -> None:
    checkout = build_tree(tmp_path / "co", {".git": None})
    prefix = build_tree(tmp_path / "pipx" / "venvs" / "extset", {"pipx_metadata.json": "{}"})
    url = {"url": checkout.as_uri(), "dir_info": {"editable": True}}
    assert detect_install_method(facts(prefix, direct_url=url)).name == "editable"


def test_editable_without_git_has_no_command(tmp_path: Path) -> None:
    checkout = build_tree(tmp_path / "co", {"pyproject.toml": ""})
    url = {"url": checkout.as_uri(), "dir_info": {"editable": True}}
    method = detect_install_method(facts(tmp_path / "venv", direct_url=url))
    assert (method.name, method.command) == ("editable", None)


def test_pipx(tmp_path: Path) -> None:
    prefix = build_tree(tmp_path / "pipx" / "venvs" / "extset", {"pipx_metadata.json": "{}"})
    assert detect_install_method(facts(prefix)).hint == "pipx upgrade extset"


def test_uv_tool(tmp_path: Path) -> None:
    prefix = build_tree(tmp_path / "uv" / "tools" / "extset", {"uv-receipt.toml": "[tool]\n"})
    assert detect_install_method(facts(prefix, installer="uv")).hint == "uv tool upgrade extset"


@pytest.mark.parametrize("root", ["opt/homebrew", "home/linuxbrew/.linuxbrew"])
def test_homebrew_cellar(tmp_path: Path, root: str) -> None:
    prefix = tmp_path / root / "Cellar" / "extset" / "0.1.0" / "libexec"
    method = detect_install_method(facts(prefix))
    assert (method.name, method.hint) == ("homebrew", "brew upgrade extset")


def test_homebrew_prefix_from_env(tmp_path: Path) -> None:
    brew = tmp_path / "usr" / "local"
    prefix = brew / "Cellar" / "extset" / "0.1.0" / "libexec"
    method = detect_install_method(facts(prefix, env={"HOMEBREW_PREFIX": str(brew)}))
    assert method.hint == "brew upgrade extset"


def test_homebrew_prefix_with_brew_binary(tmp_path: Path) -> None:
    brew = build_tree(tmp_path / "usr" / "local", {"bin/brew": "#!/bin/sh\n"})
    prefix = brew / "Cellar" / "extset" / "0.1.0" / "libexec"
    assert detect_install_method(facts(prefix)).name == "homebrew"


def test_cellar_without_homebrew_is_not_homebrew(tmp_path: Path) -> None:
    prefix = tmp_path / "Cellar" / "extset" / "0.1.0" / "libexec"
    assert detect_install_method(facts(prefix)).name == "pip"


def test_plain_pip_in_a_venv(tmp_path: Path) -> None:
    method = detect_install_method(facts(tmp_path / "venv"))
    assert method.command == (PY, "-m", "pip", "install", "-U", "extset")
    assert method.hint == f"{PY} -m pip install -U extset"


def test_pip_user_install(tmp_path: Path) -> None:
    user_site = tmp_path / "home" / ".local" / "lib" / "python3.11" / "site-packages"
    dist_info = user_site / "extset-0.1.0.dist-info"
    found = facts(Path("/usr"), venv=False, user_site=user_site, dist_info=dist_info)
    assert detect_install_method(found).command == (
        PY,
        "-m",
        "pip",
        "install",
        "--user",
        "-U",
        "extset",
    )


def test_externally_managed_has_no_command(tmp_path: Path) -> None:
    stdlib = build_tree(tmp_path / "usr" / "lib" / "python3.11", {"EXTERNALLY-MANAGED": "[x]\n"})
    found = facts(tmp_path / "usr", venv=False, stdlib=stdlib)
    method = detect_install_method(found)
    assert (method.name, method.command) == ("externally-managed", None)


def test_externally_managed_marker_does_not_bind_a_venv(tmp_path: Path) -> None:
    stdlib = build_tree(tmp_path / "usr" / "lib" / "python3.11", {"EXTERNALLY-MANAGED": "[x]\n"})
    assert detect_install_method(facts(tmp_path / "venv", stdlib=stdlib)).name == "pip"


def test_uv_pip(tmp_path: Path) -> None:
    method = detect_install_method(facts(tmp_path / "venv", installer="uv"))
    assert method.command == ("uv", "pip", "install", "--python", PY, "-U", "extset")


@pytest.mark.parametrize("installer", ["conda", None])
def test_other_installers_have_no_command(tmp_path: Path, installer: str | None) -> None:
    method = detect_install_method(facts(tmp_path / "venv", installer=installer))
    assert (method.name, method.command) == ("unknown", None)


def test_vcs_install_is_not_swapped_for_the_index_build(tmp_path: Path) -> None:
    url = {"url": "https://git.example.invalid/extset.git", "vcs_info": {"vcs": "git"}}
    method = detect_install_method(facts(tmp_path / "venv", direct_url=url))
    assert (method.name, method.command) == ("direct-url", None)


def test_vcs_install_under_pipx_upgrades_with_pipx(tmp_path: Path) -> None:
    prefix = build_tree(tmp_path / "pipx" / "venvs" / "extset", {"pipx_metadata.json": "{}"})
    url = {"url": "https://git.example.invalid/extset.git", "vcs_info": {"vcs": "git"}}
    assert detect_install_method(facts(prefix, direct_url=url)).name == "pipx"


def test_broken_direct_url_is_ignored(tmp_path: Path) -> None:
    found = facts(tmp_path / "venv")
    assert found.dist_info is not None
    (found.dist_info / "direct_url.json").write_text("{not json")
    assert detect_install_method(found).name == "pip"


def test_no_dist_info_is_unknown(tmp_path: Path) -> None:
    found = InstallFacts(prefix=tmp_path, dist_info=None, python=PY, env={})
    assert detect_install_method(found).command is None


def test_running_interpreter_is_detected_without_error() -> None:
    assert isinstance(detect_install_method(current_install_facts()), InstallMethod)


def pi_under(root: Path) -> Path:
    return (
        build_tree(
            root, {f"node_modules/{PKG}/dist/cli.js": "", f"node_modules/{PKG}/package.json": "{}"}
        )
        / "node_modules"
        / PKG
        / "dist"
        / "cli.js"
    )


def test_host_in_homebrew_cellar(tmp_path: Path) -> None:
    keg = (
        tmp_path / "opt" / "homebrew" / "Cellar" / "pi-coding-agent" / "0.73.1" / "libexec" / "lib"
    )
    method = detect_host_method(pi_under(keg), PKG, {}, None)
    assert method.hint == "brew upgrade pi-coding-agent"


def test_host_under_npm_global_prefix(tmp_path: Path) -> None:
    prefix = tmp_path / "npm-global"
    method = detect_host_method(pi_under(prefix / "lib"), PKG, {}, prefix)
    assert method.command == ("npm", "install", "-g", f"{PKG}@latest")


def test_host_under_homebrew_node_global_is_npm_not_brew(tmp_path: Path) -> None:
    brew = build_tree(tmp_path / "opt" / "homebrew", {"bin/npm": ""})
    method = detect_host_method(pi_under(brew / "lib"), PKG, {}, None)
    assert method.name == "npm-global"


def test_host_under_global_layout_without_known_prefix(tmp_path: Path) -> None:
    nvm = build_tree(tmp_path / "nvm" / "versions" / "node" / "v22.0.0", {"bin/npm": ""})
    assert detect_host_method(pi_under(nvm / "lib"), PKG, {}, None).name == "npm-global"


def test_host_in_a_local_node_modules(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    method = detect_host_method(pi_under(project), PKG, {}, tmp_path / "npm-global")
    assert method.command == ("npm", "--prefix", str(project), "install", f"{PKG}@latest")


def test_host_elsewhere_has_no_command(tmp_path: Path) -> None:
    binary = build_tree(tmp_path, {"bin/pi": ""}) / "bin" / "pi"
    assert detect_host_method(binary, PKG, {}, None).command is None
    assert detect_host_method(None, PKG, {}, None).command is None


def test_npm_prefix_from_env_needs_no_subprocess(tmp_path: Path) -> None:
    assert npm_global_prefix({"npm_config_prefix": str(tmp_path)}) == tmp_path
    assert npm_global_prefix({}) is None


def test_set_hint_pulls_then_installs(tmp_path: Path) -> None:
    assert set_hint(tmp_path / "my set") == f"git -C '{tmp_path}/my set' pull && ext install"


def test_npm_prefix_asks_the_npm_of_the_environment_it_is_given(tmp_path: Path) -> None:
    npm = build_tree(tmp_path / "bin", {"npm": f"#!/bin/sh\necho {tmp_path / 'their-npm'}\n"})
    (npm / "npm").chmod(0o755)
    env = {"PATH": str(npm)}  # check_host passes the env it was given: the npm on its PATH

    assert npm_global_prefix(env, run=True) == tmp_path / "their-npm"


@pytest.mark.parametrize(
    ("method", "line"),
    [
        (
            InstallMethod("editable", ("git", "-C", "/src/extset", "pull"), "editable /src/extset"),
            "installed as an editable checkout (git -C /src/extset pull)",
        ),
        (
            InstallMethod("editable", None, "editable /src/extset"),
            "installed as an editable checkout, /src/extset",
        ),
        (
            InstallMethod("pipx", ("pipx", "upgrade", "extset")),
            "installed by pipx (pipx upgrade extset)",
        ),
        (
            InstallMethod("uv-tool", ("uv", "tool", "upgrade", "extset")),
            "installed as a uv tool (uv tool upgrade extset)",
        ),
        (
            InstallMethod("pip", ("pip", "install", "-U", "extset"), "pip --user"),
            "installed by pip --user (pip install -U extset)",
        ),
        (InstallMethod("direct-url", None, "installed from file:///x"), "installed from file:///x"),
        (
            InstallMethod("unknown", None, "install method not detected"),
            "install method not detected",
        ),
        (
            InstallMethod("externally-managed", None, "an externally managed Python"),
            "installed into an externally managed Python",
        ),
    ],
)
def test_doctor_says_how_ext_was_installed_in_words(method: InstallMethod, line: str) -> None:
    from installer.updates.check import Report
    from installer.updates.config import load_config
    from installer.updates.findings import doctor_findings

    report = Report(results=(), method=method, checked_at=0.0, config=load_config())
    [found] = [f for f in doctor_findings(report) if f.id == "update.method"]
    assert found.message == line
