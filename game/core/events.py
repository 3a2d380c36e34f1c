"""What happened, returned by the engine for animation, logs and scenario triggers."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .hexgrid import Hex


class _Event(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)


class Moved(_Event):
    kind: Literal["moved"] = "moved"
    unit: str
    path: tuple[Hex, ...]
    forced: bool = False
    # The move stopped short of where it was ordered because something came into view.
    interrupted: bool = False


class Attacked(_Event):
    kind: Literal["attacked"] = "attacked"
    unit: str
    target: str
    attacker_losses: int
    defender_losses: int
    # "melee", "fire" (missiles) or "blast" (area weapon)
    mode: str = "melee"
    surprise: bool = False
    pincer: bool = False
    # Cavalry that rode the last hexes over open ground into the blow.
    charge: bool = False


class Destroyed(_Event):
    kind: Literal["destroyed"] = "destroyed"
    unit: str
    side: str
    at: Hex


class SoulsReleased(_Event):
    kind: Literal["souls_released"] = "souls_released"
    at: Hex
    count: int


class Routed(_Event):
    kind: Literal["routed"] = "routed"
    unit: str
    side: str


class Fled(_Event):
    kind: Literal["fled"] = "fled"
    unit: str
    path: tuple[Hex, ...]
    # Men cut down as it ran, hemmed in on two sides (they lie as souls where it stood).
    stragglers: int = 0


class Rallied(_Event):
    kind: Literal["rallied"] = "rallied"
    unit: str


class MoraleChanged(_Event):
    kind: Literal["morale_changed"] = "morale_changed"
    unit: str
    delta: int
    reason: str  # an English msgid, e.g. "Pincer", "Friends routed nearby"


class Rested(_Event):
    kind: Literal["rested"] = "rested"
    unit: str


class SoulsCaptured(_Event):
    """Souls bagged into ``side``'s pouch: from the field and from routed soul formations."""

    kind: Literal["souls_captured"] = "souls_captured"
    unit: str
    side: str
    count: int
    bagged_units: tuple[str, ...] = ()


class SoulsDrifted(_Event):
    """Wandering souls that rejoined a formation of their host (``into``) or faded (``into`` None)."""

    kind: Literal["souls_drifted"] = "souls_drifted"
    at: Hex
    count: int
    into: str | None


class Revealed(_Event):
    kind: Literal["revealed"] = "revealed"
    unit: str
    by: str | None = None


class SkillUsed(_Event):
    kind: Literal["skill_used"] = "skill_used"
    unit: str
    # None: a skill of the troop type itself (the decapitation squad's raid without Geng Gong).
    hero: str | None = None
    skill: str
    target: str | None = None
    at: Hex | None = None
    affected: tuple[str, ...] = ()
    # For a skill that can fail (a raid): whether it succeeded.
    succeeded: bool | None = None


class DuelChallenged(_Event):
    kind: Literal["duel_challenged"] = "duel_challenged"
    challenger: str
    target: str


class DuelRound(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    challenger_score: int
    target_score: int


class DuelFought(_Event):
    kind: Literal["duel_fought"] = "duel_fought"
    challenger: str
    target: str
    challenger_hero: str
    target_hero: str
    rounds: tuple[DuelRound, ...]
    # Hero ids wounded by the duel (one or both).
    wounded: tuple[str, ...]
    # A duel lasts several exchanges: the rounds won so far by the challenger's and the target's
    # hero (here the challenger is the one who pressed this exchange), and whether it goes on.
    tally: tuple[int, int] = (0, 0)
    goes_on: bool = False


class DuelBegun(_Event):
    """A challenge accepted: the two heroes are in single combat until it is decided."""

    kind: Literal["duel_begun"] = "duel_begun"
    challenger: str
    target: str


class DuelBroken(_Event):
    """A duel broken off undecided (a side let it lapse, or a hero's men broke or were lost)."""

    kind: Literal["duel_broken"] = "duel_broken"
    unit: str
    opponent: str | None = None


class OfficerSlain(_Event):
    """A named enemy officer cut down by a hero's blow (Yue Fei's officer kills)."""

    kind: Literal["officer_slain"] = "officer_slain"
    unit: str  # the formation that lost him
    by: str
    rank: str  # an officer rank id (game.core.officers.RANKS)
    name: str  # an English msgid from the scenario file


class DuelRefused(_Event):
    kind: Literal["duel_refused"] = "duel_refused"
    challenger: str
    target: str


class HeroWounded(_Event):
    kind: Literal["hero_wounded"] = "hero_wounded"
    hero: str
    unit: str
    side: str


class Narration(_Event):
    kind: Literal["narration"] = "narration"
    text: str  # an English msgid from the scenario file
    speaker: str | None = None  # a hero id


class ObjectiveChanged(_Event):
    kind: Literal["objective_changed"] = "objective_changed"
    objective: str
    status: str


class Reinforced(_Event):
    kind: Literal["reinforced"] = "reinforced"
    units: tuple[str, ...]
    side: str


class GroupReleased(_Event):
    kind: Literal["group_released"] = "group_released"
    group: str
    side: str


class GatesOpened(_Event):
    kind: Literal["gates_opened"] = "gates_opened"
    side: str
    to: str


class SidesAllied(_Event):
    """Two sides fight side by side from now on (a scenario event)."""

    kind: Literal["sides_allied"] = "sides_allied"
    side: str
    ally: str


class SideJoined(_Event):
    """A neutral side was attacked and now fights the attacker."""

    kind: Literal["side_joined"] = "side_joined"
    side: str
    against: str


class BaggageDropped(_Event):
    kind: Literal["baggage_dropped"] = "baggage_dropped"
    at: tuple[Hex, ...]


class Looted(_Event):
    kind: Literal["looted"] = "looted"
    unit: str
    at: Hex


class TurnEnded(_Event):
    kind: Literal["turn_ended"] = "turn_ended"
    side: str
    next_side: str
    turn: int


class GameOver(_Event):
    kind: Literal["game_over"] = "game_over"
    winner: str | None
    reason: str


Event = Annotated[
    Moved
    | Attacked
    | Destroyed
    | SoulsReleased
    | Routed
    | Fled
    | Rallied
    | MoraleChanged
    | Rested
    | SoulsCaptured
    | SoulsDrifted
    | Revealed
    | SkillUsed
    | DuelChallenged
    | DuelFought
    | DuelRefused
    | DuelBegun
    | DuelBroken
    | OfficerSlain
    | HeroWounded
    | Narration
    | ObjectiveChanged
    | Reinforced
    | GroupReleased
    | GatesOpened
    | SidesAllied
    | SideJoined
    | BaggageDropped
    | Looted
    | TurnEnded
    | GameOver,
    Field(discriminator="kind"),
]
