"""A record's actions as a hash chain: each checkpoint also holds the digest of every action
before it, so an edit, a swap, an insertion or a removal of an action is caught even where the
state it leads to happens to be the same (two independent moves swapped)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ..core.actions import ACTION_ADAPTER, Action
from .model import Checkpoint

# The digest before the first action.
START = "0" * 16


def chained(digest: str, action: Action) -> str:
    """The digest after ``action``, following ``digest``."""
    data = digest.encode("ascii") + b"\n" + ACTION_ADAPTER.dump_json(action)
    return hashlib.sha256(data).hexdigest()[:16]


class ActionChain:
    """The running digest of the actions applied so far."""

    def __init__(self, digest: str = START) -> None:
        self.digest = digest

    def add(self, action: Action) -> str:
        self.digest = chained(self.digest, action)
        return self.digest

    @classmethod
    def after(cls, actions: Sequence[Action], checkpoints: Sequence[Checkpoint], n: int) -> ActionChain:
        """The chain after the first ``n`` of ``actions``: from the last checkpoint at or before
        ``n`` that holds a digest (the record's word for everything before it), else from the
        first action."""
        base, digest = 0, START
        for cp in checkpoints:
            if cp.actions <= n and cp.digest is not None:
                base, digest = cp.actions, cp.digest
        chain = cls(digest)
        for action in actions[base:n]:
            chain.add(action)
        return chain
