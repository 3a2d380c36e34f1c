"""Melee combat: the forecast and the resolution are one computation.

``exchange`` turns two dice rolls into casualties. ``forecast`` calls it at the lowest,
middle and highest rolls; ``resolve`` calls it with rolls drawn from the RNG. Nothing else
computes casualties, so what the player is shown is exactly what can happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from .board import Board
from .duel import WATCH_PERCENT, watching
from .hexgrid import opposite, ring_of_six
from .morale import VICTORY_MORALE, best_aura, is_death_ground, loss_morale
from .msgid import N_
from .rng import Rng
from .rules import Ruleset
from .sides import are_allied
from .skill_marks import DOWNHILL_MODIFIER, LANE_CHARGE, attack_shock, downhill, skill_modifiers
from .state import Formation, GameState

# Share of a formation's fighting strength that turns into enemy casualties in one attack.
COMBAT_SCALE = 0.06
# Bounds of the random factor applied to each side's blows.
ROLL_LOW = 0.8
ROLL_HIGH = 1.2
# A host cannot bring every man to bear on one hex front: men beyond this count a quarter.
FRONTAGE = 3000
DEPTH_WEIGHT = 0.25

# Percent bonuses (power) and morale shocks of the manoeuvres (README "How to play").
FLANK_BONUS = 15
# The name of the flanking modifier (a msgid: combat forecasts and the log show it).
FLANKING_MODIFIER = N_("Flanking")
MAX_FLANKERS = 3
PINCER_BONUS = 40
PINCER_SHOCK = 15
CHARGE_BONUS = 60
CHARGE_SHOCK = 10
CHARGE_RUN = 2  # hexes of open ground crossed in the move before the blow
SURPRISE_BONUS = 50
SURPRISE_SHOCK = 20
ROUTED_BONUS = 60
DEATH_GROUND_BONUS = 25
ROUT_SAMPLES = 20

Mode = Literal["melee", "fire", "blast"]
Who = Literal["attacker", "defender"]


class Modifier(NamedTuple):
    """One named effect on a side's blows or toughness, shown in the forecast. A named tuple:
    the general weighs thousands of attacks a turn, and a tuple is made cheaply and hashed and
    compared (as part of the set-up its forecast is kept by) without a call into Python."""

    name: str  # an English msgid, e.g. "Terrain", "Leadership"
    percent: int
    applies_to: Who
    kind: Literal["power", "defence"]


class CombatSetup(NamedTuple):
    """Everything about an attack that does not depend on the dice. A named tuple, as
    ``Modifier`` is: the general makes one for every attack it weighs and keeps forecasts by it."""

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
    mode: Mode = "melee"
    pincer: bool = False
    surprise: bool = False
    charge: bool = False
    # Morale the defender loses from the shock of the attack itself (pincer, surprise, charge).
    shock: int = 0
    # The defender's morale above its rout threshold before the blow, for the rout chance.
    defender_morale_margin: int = 100
    defender_men_for_morale: int = 1
    # Morale a hero's skill takes from the defender after the blow (Yue Fei's officer kills);
    # applied by game.core.skills, counted here so the rout chance tells the truth.
    skill_shock: int = 0


@dataclass(frozen=True)
class Forecast:
    setup: CombatSetup
    # (lowest, expected, highest) casualties.
    defender_losses: tuple[int, int, int]
    attacker_losses: tuple[int, int, int]
    # Chance in percent that the defender routs (or is destroyed) from this attack.
    rout_chance: int = 0

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


_SUMS: tuple[tuple[Who, Literal["power", "defence"]], ...] = (
    ("attacker", "power"),
    ("attacker", "defence"),
    ("defender", "power"),
    ("defender", "defence"),
)


def _factor(total: int) -> float:
    """The multiplier of a side's summed percents (never below a tenth)."""
    return max(0.1, 1.0 + total / 100.0)


def _side_modifiers(
    state: GameState, board: Board, rules: Ruleset, f: Formation, who: Who, mods: list[Modifier]
) -> None:
    """Modifiers that belong to one formation whatever it fights: leadership, aura, fatigue, experience."""
    if f.hero is not None:
        mods.append(Modifier("Leadership", rules.heroes[f.hero].leadership, who, "power"))
    else:
        aura = best_aura(state, rules, f)
        if aura:
            mods.append(Modifier("Commander nearby", aura, who, "power"))
    if f.fatigue >= 10:
        mods.append(Modifier("Fatigue", -min(50, f.fatigue // 2), who, "power"))
    if f.experience:
        mods.append(Modifier("Experience", min(20, 2 * f.experience), who, "power"))
    terrain = board.terrain_at(f.pos)
    if terrain.defence:
        mods.append(Modifier("Terrain", terrain.defence, who, "defence"))
    for name, percent, kind in skill_modifiers(state, rules, f):
        mods.append(Modifier(name, percent, who, kind))


@dataclass(frozen=True)
class DefenderHalf:
    """What an attack's set-up takes from the defender and the field round it alone, whoever
    strikes it from wherever: the general weighs one defender from several hexes."""

    modifiers: tuple[Modifier, ...]
    death_ground: bool


def defender_half(state: GameState, board: Board, rules: Ruleset, defender: Formation) -> DefenderHalf:
    mods: list[Modifier] = []
    _side_modifiers(state, board, rules, defender, "defender", mods)
    death_ground = not defender.routed and is_death_ground(state, board, rules, defender)
    return DefenderHalf(tuple(mods), death_ground)


def setup_attack(
    state: GameState,
    board: Board,
    rules: Ruleset,
    attacker: Formation,
    defender: Formation,
    mode: Mode = "melee",
    half: DefenderHalf | None = None,
) -> CombatSetup:
    """``half``: ``defender_half`` of ``defender`` on this same state, if already worked out."""
    att_type = rules.units[attacker.type]
    def_type = rules.units[defender.type]
    if half is None:
        half = defender_half(state, board, rules, defender)
    mods: list[Modifier] = []
    _side_modifiers(state, board, rules, attacker, "attacker", mods)
    mods.extend(half.modifiers)
    shock = 0
    pincer = False
    surprise = attacker.hidden
    charge = False
    if surprise:
        mods.append(Modifier("Surprise", SURPRISE_BONUS, "attacker", "power"))
        shock += SURPRISE_SHOCK
    if mode == "melee":
        flankers, pincer = flank_and_pincer(state, attacker, defender)
        if flankers:
            mods.append(Modifier(FLANKING_MODIFIER, FLANK_BONUS * min(flankers, MAX_FLANKERS), "attacker", "power"))
        if pincer:
            mods.append(Modifier("Pincer", PINCER_BONUS, "attacker", "power"))
            shock += PINCER_SHOCK
        # Cavalry with a run-up, or a formation charging down a lane its friends opened.
        run_up = "charge" in att_type.abilities and attacker.charge_run >= CHARGE_RUN
        if run_up or LANE_CHARGE in attacker.effects:
            charge = True
            mods.append(Modifier("Charge", CHARGE_BONUS, "attacker", "power"))
            shock += CHARGE_SHOCK
        down = downhill(board, rules, attacker, defender)
        if down is not None:
            charge = True
            mods.append(Modifier(DOWNHILL_MODIFIER, down.power, "attacker", "power"))
            shock += down.shock
    if watching(state, attacker, defender):
        # Both armies watch the heroes' single combat: nobody near it fights with a will.
        mods.append(Modifier("Watching the duel", WATCH_PERCENT, "attacker", "power"))
        mods.append(Modifier("Watching the duel", WATCH_PERCENT, "defender", "power"))
    if defender.routed:
        mods.append(Modifier("Caught routing", ROUTED_BONUS, "attacker", "power"))
    elif half.death_ground:
        mods.append(Modifier("Death ground", DEATH_GROUND_BONUS, "defender", "power"))
    mods = [m for m in mods if m.percent != 0]
    # The four sums of percents (power and defence of each side), in one pass over the modifiers.
    totals = dict.fromkeys(_SUMS, 0)
    for m in mods:
        totals[m.applies_to, m.kind] += m.percent
    if mode == "melee":
        att_power = att_type.melee
    elif mode == "fire":
        att_power = att_type.ranged
    else:
        att_power = att_type.area_power
    retaliation = mode == "melee" and not defender.routed and not surprise
    threshold = def_type.rout_threshold
    return CombatSetup(
        attacker=attacker.id,
        defender=defender.id,
        attacker_men=attacker.men,
        defender_men=defender.men,
        attacker_power=att_power * _factor(totals["attacker", "power"]),
        defender_power=def_type.melee * _factor(totals["defender", "power"]),
        attacker_toughness=att_type.defence * _factor(totals["attacker", "defence"]),
        defender_toughness=def_type.defence * _factor(totals["defender", "defence"]),
        retaliation=retaliation,
        modifiers=tuple(mods),
        mode=mode,
        pincer=pincer,
        surprise=surprise,
        charge=charge,
        shock=shock,
        defender_morale_margin=defender.morale - threshold,
        defender_men_for_morale=defender.men,
        skill_shock=attack_shock(rules, attacker, mode),
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


def defender_morale_loss(setup: CombatSetup, defender_losses: int) -> int:
    """Morale the defender loses from an attack: its share of men lost, plus the shock."""
    return loss_morale(defender_losses, setup.defender_men_for_morale) + setup.shock


def rout_chance(setup: CombatSetup) -> int:
    """Percent of the attacker's rolls (sampled evenly) after which the defender routs or dies.

    The rolls that break it are the highest ones: a higher roll kills no fewer and leaves no
    more to strike back, so the defender loses no less morale (its share of men lost grows, and
    the heart it takes from giving more than it took can only go), and every step of that
    arithmetic keeps the order. So the lowest breaking roll is found by halving, in five
    exchanges rather than twenty (the general forecasts thousands of blows a turn)."""
    if setup.defender_morale_margin < 0:
        return 100
    lo, hi = 0, ROUT_SAMPLES  # the lowest breaking sample is in lo..hi (hi: none breaks)
    while lo < hi:
        mid = (lo + hi) // 2
        if _breaks(setup, mid):
            hi = mid
        else:
            lo = mid + 1
    return round(100 * (ROUT_SAMPLES - lo) / ROUT_SAMPLES)


def _breaks(setup: CombatSetup, sample: int) -> bool:
    """Whether the defender routs or dies after the attacker's ``sample``-th roll of ``ROUT_SAMPLES``."""
    roll = ROLL_LOW + (ROLL_HIGH - ROLL_LOW) * (sample + 0.5) / ROUT_SAMPLES
    taken, lost = exchange(setup, roll, 1.0)
    morale_lost = defender_morale_loss(setup, lost) + setup.skill_shock
    if taken > lost:
        morale_lost -= VICTORY_MORALE  # a defender that gave more than it took takes heart
    return lost >= setup.defender_men or morale_lost > setup.defender_morale_margin


def forecast_from(setup: CombatSetup) -> Forecast:
    mid = (ROLL_LOW + ROLL_HIGH) / 2
    lo_att, hi_def = exchange(setup, ROLL_HIGH, ROLL_LOW)  # best case for the attacker
    hi_att, lo_def = exchange(setup, ROLL_LOW, ROLL_HIGH)  # worst case for the attacker
    exp_att, exp_def = exchange(setup, mid, mid)
    return Forecast(setup, (lo_def, exp_def, hi_def), (lo_att, exp_att, hi_att), rout_chance(setup))


def flank_and_pincer(state: GameState, attacker: Formation, defender: Formation) -> tuple[int, bool]:
    """Formed friends of the attacker next to the defender (the attacker excluded), and whether
    one of them stands on the hex opposite the attacker: the pincer."""
    behind = opposite(defender.pos, attacker.pos)
    around = set(ring_of_six(defender.pos))
    flankers = 0
    pincer = False
    for f in state.formations.values():
        if f.pos not in around or f.id == attacker.id or f.routed or f.men <= 0:
            continue
        if not are_allied(state, f.side, attacker.side):
            continue
        flankers += 1
        if f.pos == behind:
            pincer = True
    return flankers, pincer


def roll_exchange(setup: CombatSetup, rng: Rng) -> tuple[int, int]:
    """Resolve an attack with the dice: the attacker's roll is drawn first."""
    attacker_roll = rng.uniform(ROLL_LOW, ROLL_HIGH)
    defender_roll = rng.uniform(ROLL_LOW, ROLL_HIGH)
    return exchange(setup, attacker_roll, defender_roll)
