"""How much a project's hooks and the approvals store may hold: the same caps on pi's side.

They keep every pi session's start flat (it reads the hook files and the store each
time) and a hostile repository from making `ext consent` or pi swallow gigabytes.
extensions/project-hooks/files.ts holds the same numbers; tests/consent-store-vectors.json
names them for both test suites.
"""

from __future__ import annotations

from installer.ground.jsondepth import MAX_NESTING, too_deep

__all__ = ["MAX_NESTING", "too_deep"]  # a hook file's and the store's depth, as any JSON's

MAX_SOURCE_BYTES = 256 * 1024  # one hook file: Claude Code's settings are a few KiB
MAX_CONFIG_BYTES = 64 * 1024  # the canonical config one approval records
MAX_APPROVALS = 256  # projects in the store
MAX_STORE_BYTES = 8 * 1024 * 1024  # the store file
