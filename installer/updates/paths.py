"""ext's own files for updates: the user config file and the cache, and how they are written.

Kept apart from `config` and `cache` so a passive notice reads what it needs
without building their types: this runs on every interactive command.
"""

from __future__ import annotations

from pathlib import Path

from installer.ground.userdirs import config_file, user_dir


def user_config_path() -> Path:
    """ext's own config file: `<user config dir>/extset/config.toml`."""
    return config_file()


def default_cache_path() -> Path:
    """`<user cache dir>/extset/updates.json`."""
    return user_dir("cache") / "updates.json"


def read_user_config(path: Path | None = None) -> dict[str, object]:
    """The `[updates]` table of the user's config file; {} when absent or unreadable."""
    return read_user_config_said(path)[0]


def read_user_config_said(path: Path | None = None) -> tuple[dict[str, object], str | None]:
    """The `[updates]` table, and why a file that is there could not be read (else None)."""
    path = path or user_config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{path} cannot be read ({exc.strerror})"
    import tomllib

    try:
        table = tomllib.loads(raw.decode("utf-8")).get("updates", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return {}, f"{path} is not valid TOML ({exc})"
    if not isinstance(table, dict):
        return {}, f"{path}: [updates] is not a table"
    return table, None


def passive_checks_enabled(path: Path | None = None) -> bool:
    """False when the user's config says `[updates] check = false`; cheap when there is no file."""
    path = path or user_config_path()
    if not path.is_file():
        return True
    return read_user_config(path).get("check") is not False


def atomic_write(path: Path, text: str) -> None:
    """Write via a temp file in the same folder, fsync, then `os.replace`."""
    from installer.ground import atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, text)
