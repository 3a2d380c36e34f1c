"""What an army carries from one battle to the next, and how it enters and leaves a battle.

A formation is carried by its *key*: the id of the hero who leads it, or its own id when no hero
does (a hero always leads the same formation through a campaign). A scenario's men are the
story's strength; a carried formation enters with the same share of them that it kept (a
formation wiped out regathers three in ten around its hero, and half of a standing formation's
losses were only wounded and return). Formations raised at the camp enter in the scenario's
``muster`` region.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from . import vision
from .board import Board
from .campaign_spec import StrictModel
from .hexgrid import Hex
from .placement import nearest_free, placement_area
from .rules import MAX_EXPERIENCE, Ruleset
from .scenario import FormationSpec, Scenario
from .state import Formation, GameState

# Share of its scenario strength a formation wiped out in the last battle regathers around its
# hero. Less made a lost wing a lasting cripple: in computer-played campaigns the coalition's
# wings fall at the valley mouth, and at a tenth the Hegemon-King rode to Datong with fifty men.
STRAGGLERS = 0.3
# Share of a standing formation's losses in a battle that were only wounded and return to the
# ranks before the next (those of a formation wiped out were left on the field).
RECOVERY = 0.5
# Region of a scenario map where formations raised at the camp enter.
MUSTER_REGION = "muster"


class CarriedFormation(StrictModel):
    key: str = Field(min_length=1, max_length=80)
    type: str = Field(max_length=80)
    hero: str | None = Field(None, max_length=80)
    men: int = Field(ge=0, le=10_000_000)
    # Its full strength (the establishment the camp replenishes up to).
    max_men: int = Field(ge=1, le=10_000_000)
    experience: int = Field(0, ge=0, le=MAX_EXPERIENCE)
    # Upgrades bought at the camp (ids), and what they add at the start of every battle.
    upgrades: list[str] = Field(default_factory=list, max_length=50)
    extra_ammo: int = Field(0, ge=0, le=99)
    extra_charges: int = Field(0, ge=0, le=9)
    # Raised at the camp: it is in no scenario's order of battle and enters at the muster.
    raised: bool = False


class Roster(StrictModel):
    side: str = Field(max_length=80)
    formations: list[CarriedFormation] = Field(default_factory=list, max_length=500)

    def get(self, key: str) -> CarriedFormation | None:
        return next((c for c in self.formations if c.key == key), None)


def carry_key(hero: str | None, formation_id: str) -> str:
    return hero or formation_id


def takes_the_field(scenario: Scenario, carried: CarriedFormation) -> bool:
    """Whether ``carried`` fights in ``scenario``: raised at the camp (it enters at the muster),
    or named by a formation of the scenario's order of battle or of a reinforcement. One that
    does not (Guo Yaoshi after the valley) waits in the camp for a battle that has a place for it."""
    if carried.raised:
        return True
    keys = {carry_key(spec.hero, spec.id) for spec in scenario.formations}
    for event in scenario.events:
        for action in event.actions:
            if action.kind == "reinforce":  # by name: the scenario's kinds build on these rules
                keys.update(carry_key(r.hero, r.id) for r in action.formations)
    return carried.key in keys


def _entry_share(carried: CarriedFormation) -> float:
    """The share of its scenario strength a carried formation takes the field with."""
    return carried.men / carried.max_men if carried.men > 0 else STRAGGLERS


def carry_in(f: Formation, key: str, roster: Roster) -> None:
    """Give a formation entering the battle what its carried self brought: the share of men it
    kept, its experience and its upgrades. A formation the roster does not know enters as the
    scenario made it."""
    carried = roster.get(key)
    if carried is None or f.side != roster.side:
        return
    f.men = max(1, min(f.max_men, round(f.men * _entry_share(carried))))
    f.experience = carried.experience
    _apply_upgrades(f, carried)


def _apply_upgrades(f: Formation, carried: CarriedFormation) -> None:
    if f.ammo is not None:
        f.ammo += carried.extra_ammo
    if f.charges:
        f.charges += carried.extra_charges


def raised_formations(roster: Roster, rules: Ruleset) -> list[Formation]:
    """The formations raised at the camp, not yet placed (``pos`` is set by the engine)."""
    out: list[Formation] = []
    for c in roster.formations:
        if not c.raised or c.men <= 0 or c.type not in rules.units:
            continue
        spec = FormationSpec(id=c.key, side=roster.side, type=c.type, men=c.men, max_men=c.max_men, pos=Hex(0, 0))
        f = vision.new_formation(spec, rules)
        f.experience = c.experience
        _apply_upgrades(f, c)
        out.append(f)
    return out


def place_raised(formations: dict[str, Formation], board: Board, rules: Ruleset, roster: Roster) -> None:
    """Add the raised formations at the nearest free hexes of the muster region (or, on a map
    without one, around the side's first formation). One that finds no room stays in camp."""
    raised = raised_formations(roster, rules)
    if not raised:
        return
    found = placement_area(board, MUSTER_REGION)
    if found is None:
        own = sorted(f.pos for f in formations.values() if f.side == roster.side)
        if not own:
            return
        found = (frozenset({own[0]}), own[0])
    taken = {f.pos for f in formations.values()}
    for f in raised:
        if f.id in formations:
            continue
        move_class = rules.units[f.type].move_class

        def ok(h: Hex, move_class: str = move_class) -> bool:
            return h not in taken and board.move_cost(h, move_class) is not None

        pos = nearest_free(board, *found, ok)
        if pos is None:
            continue
        f.pos = pos
        formations[f.id] = f
        taken.add(pos)


@dataclass(frozen=True)
class Entered:
    """A formation of the campaign's side that took the field: what it carries if it falls
    (``fallen``, with no men) and the men it took the field with, counted on its carried
    establishment (``start_men``)."""

    fallen: CarriedFormation
    start_men: int


def entered_formations(scenario: Scenario, state: GameState, roster: Roster) -> dict[str, Entered]:
    """Formation id -> Entered, for every formation of the roster's side that took the field:
    those deployed at the start (raised ones included) and the reinforcements whose event fired."""
    side = roster.side

    def entered(fid: str, type_: str, hero: str | None, men: int, max_men: int | None) -> Entered:
        key = carry_key(hero, fid)
        full = max_men or men
        carried = roster.get(key)
        if carried is None:
            fallen = CarriedFormation(key=key, type=type_, hero=hero, men=0, max_men=full)
            return Entered(fallen, round(full * men / full))
        return Entered(
            carried.model_copy(update={"men": 0}), round(carried.max_men * _entry_share(carried) * men / full)
        )

    out = {s.id: entered(s.id, s.type, s.hero, s.men, s.max_men) for s in scenario.formations if s.side == side}
    out.update(
        {c.key: Entered(c.model_copy(update={"men": 0}), c.men) for c in roster.formations if c.raised and c.men}
    )
    fired = set(state.fired_events)
    for spec in scenario.events:
        if spec.id not in fired:
            continue
        for action in spec.actions:
            if action.kind == "reinforce" and action.side == side:
                out.update({r.id: entered(r.id, r.type, r.hero, r.men, r.max_men) for r in action.formations})
    return out


def harvest(roster: Roster, entered: dict[str, Entered], state: GameState) -> Roster:
    """The roster after a battle (``entered``: see ``entered_formations``). Those still standing
    keep their share of men, less the half of their losses who were only wounded and come back
    (``RECOVERY``), and their experience; those gone keep their hero and nothing else (they
    regather three in ten next time; a raised formation with no hero is struck off); those that
    never took the field (a column that had not arrived) are as they were."""
    out = {c.key: c for c in roster.formations}
    for fid, e in entered.items():
        key = e.fallen.key
        before = out.get(key) or e.fallen
        f = state.formations.get(fid)
        if f is None:
            out[key] = before.model_copy(update={"men": 0})
            continue
        standing = round(before.max_men * f.men / f.max_men)
        men = min(before.max_men, standing + round(RECOVERY * max(0, e.start_men - standing)))
        out[key] = before.model_copy(update={"men": men, "experience": min(MAX_EXPERIENCE, f.experience)})
    kept = [c for c in out.values() if not (c.raised and c.men == 0)]
    return Roster(side=roster.side, formations=sorted(kept, key=lambda c: (c.raised, c.key)))
