"""ext makes nothing that another user could write: the agent dir, its folders and files, the
state and cache files, a new set. Under `umask 000` (or 002) they were made 777 and 666, and
doctor then warned that anyone who can write there can add an extension that runs as you.

The process's umask gains 022 for ext's own run; a host ext starts in its place (`ext launch`)
gets the person's own umask back."""

from __future__ import annotations

import os

_GIVEN: list[int] = []  # the umask ext was started with, once capped


def cap() -> None:
    """Take group and other write out of every mode this run creates with."""
    given = os.umask(0o022)
    os.umask(given | 0o022)
    if not _GIVEN:  # a second run in one process (a test's) keeps the first, the person's
        _GIVEN.append(given)


def give_back() -> None:
    """The umask ext was started with, for a program that takes this process over."""
    if _GIVEN:
        os.umask(_GIVEN[0])
