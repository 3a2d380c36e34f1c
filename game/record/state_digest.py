"""The hash a record's checkpoints and snapshot hold for a state, and the two rules that older
formats bend: whose commanders the hash includes, and which checkpoints chain the actions.

Until format 3 the state held who commanded each side, so every hash a save of format 3 or
older holds includes its commanders. Such a game keeps ``LegacyCheckpoints``: its hashes are
made and checked with those commanders put back where the state had them (byte for byte the
JSON it was hashed from), and a game taken over or played on from it goes on hashing them, so
one record never mixes two kinds of hash. A game begun in format 4 hashes the rules state alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from ..core.state import GameState, json_digest, state_hash
from .seats import Commander, default_commander

if TYPE_CHECKING:
    from .model import GameRecord

# The last format whose states held the commanders, and the first whose checkpoints all hold
# the digest of the actions before them (``action_chain``).
LAST_FORMAT_WITH_COMMANDERS = 3
FIRST_FORMAT_WITH_CHAIN = 3


class LegacyCheckpoints(BaseModel):
    """How a game begun in format 3 or older made its checkpoints."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    # The format it was begun in: before format 3 its checkpoints hold no digest of the actions.
    format: int = Field(ge=1, le=LAST_FORMAT_WITH_COMMANDERS)
    # Who commanded each side when it began, as its settings named them (a side not named: by
    # its role, ``default_commander``).
    commanders: dict[str, Commander] = Field(default_factory=dict)


def checkpoint_hash(state: GameState, legacy: LegacyCheckpoints | None) -> str:
    """The hash of ``state`` as a record's checkpoints and snapshot hold it."""
    if legacy is None:
        return state_hash(state)
    data = state.model_dump(mode="json")
    for side in data["sides"]:
        side["controller"] = legacy.commanders.get(side["id"], default_commander(side["role"]))
    return json_digest(data)


def unchained_checkpoint(record: GameRecord) -> str | None:
    """What breaks the chain rule, if anything: since format 3 every checkpoint holds the digest
    of the actions before it, so one without it has been stripped."""
    if record.legacy is not None and record.legacy.format < FIRST_FORMAT_WITH_CHAIN:
        return None
    for n, cp in enumerate(record.checkpoints, 1):
        if cp.digest is None:
            return (
                f"checkpoint {n} holds no digest of the actions before it, "
                f"which every checkpoint holds since format {FIRST_FORMAT_WITH_CHAIN}"
            )
    return None


def chain_vouches(record: GameRecord) -> bool:
    """Whether the action chain vouches for every action up to the last checkpoint: the last
    checkpoint holds its digest (the chain runs from the first action). False for a record of
    format 2 or older, whose checkpoints vouch for the state alone."""
    return not record.checkpoints or record.checkpoints[-1].digest is not None
