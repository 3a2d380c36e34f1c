"""Melee combat: the forecast and the resolution are one computation.

``exchange`` turns two dice rolls into casualties. ``forecast`` calls it at the lowest,
middle and highest rolls; ``resolve`` calls it with rolls drawn from the RNG. Nothing else
computes casualties, so what the player is shown is exactly what can happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .board import Board
from .rng import Rng
from .rules import Ruleset
from .state import Formation, GameState

# Share of a formation's fighting strength that turns into enemy casualties in one attack.
COMBAT_SCALE = 0.06
# Bounds of the random factor applied to each side's blows.
ROLL_LOW = 0.8
ROLL_HIGH = 1.2
# A host cannot bring every man to bear on one hex front: men beyond this count a quarter.
FRONTAGE = 3000
DEPTH_WEIGHT = 0.25


@dataclass(frozen=True)
class Modifier:
    """One named effect on a side's blows or toughness, shown in the forecast."""

    name: str  # an English msgid, e.g. "Terrain", "Leadership"
    percent: int
    applies_to: Literal["attacker", "defender"]
    kind: Literal["power", "defence"]


@dataclass(frozen=True)
class CombatSetup:
    """Everything about an attack that does not depend on the dice."""

    attacker: str
    defender: str
    attacker_men: int
    defender_men: int
    attacker_power: float  # per engaged man, all power modifiers applied
    defender_power: float
    attacker_toughness: float  # per man, all defence modifiers applied
    defender_toughness: float
    retaliation: bool
    modifiers: tuple[Modifier, ...]


@dataclass(frozen=True)
class Forecast:
    setup: CombatSetup
    # (lowest, expected, highest) casualties.
    defender_losses: tuple[int, int, int]
    attacker_losses: tuple[int, int, int]

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return self.setup.modifiers

    @property
    def destroys_defender(self) -> bool:
        return self.defender_losses[0] >= self.setup.defender_men


def engaged_men(men: int) -> float:
    """Men that can fight on one front: all up to FRONTAGE, a quarter of the rest."""
    if men <= FRONTAGE:
        return float(men)
    return FRONTAGE + (men - FRONTAGE) * DEPTH_WEIGHT


def _percent_factor(mods: list[Modifier], who: str, kind: str) -> float:
    total = sum(m.percent for m in mods if m.applies_to == who and m.kind == kind)
    return max(0.1, 1.0 + total / 100.0)


def setup_attack(
    state: GameState, board: Board, rules: Ruleset, attacker: Formation, defender: Formation
) -> CombatSetup:
    att_type = rules.units[attacker.type]
    def_type = rules.units[defender.type]
    mods: list[Modifier] = []
    if attacker.hero is not None:
        mods.append(Modifier("Leadership", rules.heroes[attacker.hero].leadership, "attacker", "power"))
    if defender.hero is not None:
        mods.append(Modifier("Leadership", rules.heroes[defender.hero].leadership, "defender", "power"))
    def_terrain = board.terrain_at(defender.pos)
    if def_terrain.defence:
        mods.append(Modifier("Terrain", def_terrain.defence, "defender", "defence"))
    att_terrain = board.terrain_at(attacker.pos)
    if att_terrain.defence:
        mods.append(Modifier("Terrain", att_terrain.defence, "attacker", "defence"))
    mods = [m for m in mods if m.percent != 0]
    return CombatSetup(
        attacker=attacker.id,
        defender=defender.id,
        attacker_men=attacker.men,
        defender_men=defender.men,
        attacker_power=att_type.melee * _percent_factor(mods, "attacker", "power"),
        defender_power=def_type.melee * _percent_factor(mods, "defender", "power"),
        attacker_toughness=att_type.defence * _percent_factor(mods, "attacker", "defence"),
        defender_toughness=def_type.defence * _percent_factor(mods, "defender", "defence"),
        retaliation=True,
        modifiers=tuple(mods),
    )


def _losses(men: int, power: float, roll: float, toughness: float, cap: int) -> int:
    raw = COMBAT_SCALE * engaged_men(men) * power * roll / toughness
    return min(cap, int(raw + 0.5))


def exchange(setup: CombatSetup, attacker_roll: float, defender_roll: float) -> tuple[int, int]:
    """(attacker losses, defender losses) for the given rolls.

    The defender strikes back with the men it has left after the attacker's blow.
    """
    defender_losses = _losses(
        setup.attacker_men,
        setup.attacker_power,
        attacker_roll,
        setup.defender_toughness,
        setup.defender_men,
    )
    survivors = setup.defender_men - defender_losses
    attacker_losses = 0
    if setup.retaliation and survivors > 0:
        attacker_losses = _losses(
            survivors,
            setup.defender_power,
            defender_roll,
            setup.attacker_toughness,
            setup.attacker_men,
        )
    return attacker_losses, defender_losses


def forecast_from(setup: CombatSetup) -> Forecast:
    mid = (ROLL_LOW + ROLL_HIGH) / 2
    lo_att, hi_def = exchange(setup, ROLL_HIGH, ROLL_LOW)  # best case for the attacker
    hi_att, lo_def = exchange(setup, ROLL_LOW, ROLL_HIGH)  # worst case for the attacker
    exp_att, exp_def = exchange(setup, mid, mid)
    return Forecast(setup, (lo_def, exp_def, hi_def), (lo_att, exp_att, hi_att))


def roll_exchange(setup: CombatSetup, rng: Rng) -> tuple[int, int]:
    """Resolve an attack with the dice: the attacker's roll is drawn first."""
    attacker_roll = rng.uniform(ROLL_LOW, ROLL_HIGH)
    defender_roll = rng.uniform(ROLL_LOW, ROLL_HIGH)
    return exchange(setup, attacker_roll, defender_roll)
