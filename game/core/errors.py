"""The engine's typed error for actions the rules do not allow."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow. ``reason`` is a stable code, the message explains."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
