"""Older save formats brought up to the current one, one step at a time, on the raw JSON dict.

Each step takes a dict of format N and returns one of format N+1; a new format adds one step to
``STEPS`` (and a folder of real saves to tests/saves_corpus/). Steps never touch the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import SaveError
from .model import FORMAT_VERSION

Step = Callable[[dict[str, Any]], dict[str, Any]]
OLDEST_VERSION = 1


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Format 2 adds an optional snapshot of the state. A format-1 save has none, so it loads
    by re-running its actions, exactly as format 1 did."""
    if "snapshot" in data:
        raise SaveError("a format-1 save cannot hold a snapshot")
    return {**data, "format_version": 2}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Format 3 adds the content the game was made with. A format-2 save has none: it loads as
    long as the game's own content is still the content it was made with."""
    if "content" in data:
        raise SaveError("a format-2 save cannot carry its content")
    return {**data, "format_version": 3}


STEPS: dict[int, Step] = {1: _v1_to_v2, 2: _v2_to_v3}


def migrate(data: dict[str, Any], name: str) -> dict[str, Any]:
    """``data`` (a save of any format this game reads, its version already checked to be a
    whole number no newer than ours) in the current format."""
    version = data["format_version"]
    if version < OLDEST_VERSION:
        raise SaveError(f"{name}: format {version} is older than any this game reads (oldest {OLDEST_VERSION})")
    while version < FORMAT_VERSION:
        try:
            data = STEPS[version](data)
        except SaveError as exc:
            raise SaveError(f"{name}: damaged save: {exc}") from None
        version += 1
        assert data["format_version"] == version, f"migration from format {version - 1} is wrong"
    return data
