"""The one error every save problem ends in (its own module so migrations can raise it too)."""

from __future__ import annotations


class SaveError(Exception):
    """A save that cannot be written or read; the message is one line for the player."""
