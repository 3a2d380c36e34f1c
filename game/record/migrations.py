"""Older save formats brought up to the current one, one step at a time, on the raw JSON dict.

Each step takes a dict of format N and returns one of format N+1; a new format adds one step to
``STEPS`` (and a folder of real saves to tests/saves_corpus/). Steps never touch the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import SaveError
from .model import FORMAT_VERSION
from .state_digest import LAST_FORMAT_WITH_COMMANDERS

Step = Callable[[dict[str, Any]], dict[str, Any]]
OLDEST_VERSION = 1


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Format 2 adds an optional snapshot of the state. A format-1 save has none, so it loads
    by re-running its actions, exactly as format 1 did."""
    if "snapshot" in data:
        raise SaveError("a format-1 save cannot hold a snapshot")
    return {**data, "format_version": 2}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Format 3 adds the content the game was made with, and the digest of the actions to every
    checkpoint. A format-2 save has neither: it loads as long as the game's own content is still
    the content it was made with, and its checkpoints vouch for the state alone (``migrate``
    notes the format it was begun in)."""
    if "content" in data:
        raise SaveError("a format-2 save cannot carry its content")
    checkpoints = data.get("checkpoints")
    if isinstance(checkpoints, list) and any(isinstance(cp, dict) and "digest" in cp for cp in checkpoints):
        raise SaveError("a format-2 save cannot hold digests of its actions")
    return {**data, "format_version": 3}


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Format 4 keeps who commands each side in ``seats``, out of the settings and the state. A
    format-3 save's states held its commanders, so its hashes include them: ``legacy`` keeps
    them, and its checkpoints and snapshot verify as they are."""
    for key in ("seats", "legacy"):
        if key in data:
            raise SaveError(f"a format-3 save cannot hold {key}")
    settings = data.get("settings")
    if not isinstance(settings, dict):
        return {**data, "format_version": 4}  # validation says what is wrong with it
    commanders = settings.get("controllers", {})
    seats = {side: {"commander": who} for side, who in commanders.items()} if isinstance(commanders, dict) else {}
    return {
        **data,
        "format_version": 4,
        "settings": {k: v for k, v in settings.items() if k != "controllers"},
        "seats": seats,
        "legacy": {"format": 3, "commanders": commanders},
    }


def _v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """Format 5 lets a seat hold the digest of its pass phrase (``seal``), and is the format of
    every save since reloads are recorded, so a build that knows neither refuses such a save as
    newer instead of misreading it. A format-4 save is a format-5 save without seals."""
    seats = data.get("seats")
    if isinstance(seats, dict) and any(isinstance(seat, dict) and "seal" in seat for seat in seats.values()):
        raise SaveError("a format-4 save cannot hold pass phrases")
    return {**data, "format_version": 5}


STEPS: dict[int, Step] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5}


def migrate(data: dict[str, Any], name: str) -> dict[str, Any]:
    """``data`` (a save of any format this game reads, its version already checked to be a
    whole number no newer than ours) in the current format."""
    version = began = data["format_version"]
    if version < OLDEST_VERSION:
        raise SaveError(f"{name}: format {version} is older than any this game reads (oldest {OLDEST_VERSION})")
    while version < FORMAT_VERSION:
        try:
            data = STEPS[version](data)
        except SaveError as exc:
            raise SaveError(f"{name}: damaged save: {exc}") from None
        version += 1
        assert data["format_version"] == version, f"migration from format {version - 1} is wrong"
    if began <= LAST_FORMAT_WITH_COMMANDERS:
        # The format it was begun in decides which of its checkpoints must chain the actions:
        # a save cannot claim to be older than it is without the chain check saying so.
        data = {**data, "legacy": {**data["legacy"], "format": began}}
    return data
