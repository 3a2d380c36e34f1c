"""``reinforce``: formations arrive during the battle, each on the nearest free hex of its place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import vision
from ..event_kind import ActionSpec, References, Spec
from ..events import Event, Reinforced
from ..hexgrid import Hex
from ..msgid import N_
from ..offsets import parse_offset
from ..placement import nearest_free, placement_area
from ..scenario import FormationSpec, Scenario
from ..sides import closed_hexes
from ..state import GameState

if TYPE_CHECKING:
    from ..table import Table


class ReinforcementSpec(Spec):
    """A formation that arrives during the battle, placed on the nearest free hex of ``at``."""

    id: str = Field(min_length=1)
    type: str
    men: int = Field(ge=1)
    max_men: int | None = Field(None, ge=1)
    hero: str | None = None
    at: str = Field(min_length=1)
    hidden: bool = False
    group: str | None = None

    def check(self, refs: References, f: str) -> None:
        units = refs.rules.units
        if self.type not in units:
            refs.fail(f"{f}.type", f"unknown unit type {self.type!r}")
        elif self.hidden and "ambush" not in units[self.type].abilities:
            refs.fail(f"{f}.hidden", f"{self.type} has no ambush ability and cannot arrive hidden")
        refs.hero(f"{f}.hero", self.hero)
        if self.max_men is not None and self.max_men < self.men:
            refs.fail(f"{f}.max_men", "must be at least men")
        offset = parse_offset(self.at)
        if offset is None:
            refs.region(f"{f}.at", self.at)
        elif refs.board.at_offset(*offset) not in refs.board:
            refs.fail(f"{f}.at", f"{self.at!r} is outside the map")


def fielded(scenario: Scenario, state: GameState) -> dict[str, int]:
    """Formation id -> the men it took the field with, for those deployed at the start and those
    whose reinforcement event has fired. One missing from the state now is gone; one not yet
    arrived is not here."""
    out = {spec.id: spec.men for spec in scenario.formations}
    fired = set(state.fired_events)
    for spec in scenario.events:
        if spec.id in fired:
            for action in spec.actions:
                if isinstance(action, Reinforce):
                    out.update((r.id, r.men) for r in action.formations)
    return out


class Reinforce(ActionSpec, names={"side": "side"}, tells=Reinforced, told=N_("Reinforcements reach {side}")):
    kind: Literal["reinforce"] = "reinforce"
    side: str
    formations: tuple[ReinforcementSpec, ...] = Field(min_length=1)

    def check(self, refs: References) -> None:
        super().check(refs)
        for k, r in enumerate(self.formations):
            r.check(refs, f"formations[{k}]")

    def run(self, table: Table) -> list[Event]:
        state, board = table.state, table.board
        taken = set(state.occupancy())
        closed = closed_hexes(state, board, self.side)
        placed: list[str] = []
        for r in self.formations:
            found = placement_area(board, r.at)
            if r.id in state.formations or found is None:
                continue
            move_class = table.rules.units[r.type].move_class

            def ok(h: Hex, move_class: str = move_class) -> bool:
                return h not in taken and h not in closed and board.move_cost(h, move_class) is not None

            pos = nearest_free(board, *found, ok)
            if pos is None:
                continue  # no room anywhere: the column never arrives
            self._arrive(table, r, pos)
            taken.add(pos)
            placed.append(r.id)
        if not placed:
            return []
        vision.refresh_explored(state, board, table.rules, self.side)
        return [Reinforced(units=tuple(placed), side=self.side)]

    def _arrive(self, table: Table, r: ReinforcementSpec, pos: Hex) -> None:
        # The campaign rules read the scenario's reinforcements, so they load after this module.
        from .. import campaign

        state = table.state
        hero = r.hero if r.hero not in state.wounded_heroes else None
        spec = FormationSpec(
            id=r.id, side=self.side, type=r.type, men=r.men, max_men=r.max_men, hero=hero, pos=pos, hidden=r.hidden,
            group=r.group,
        )  # fmt: skip
        f = vision.new_formation(spec, table.rules)
        if table.settings.roster is not None:
            campaign.carry_in(f, campaign.carry_key(r.hero, r.id), table.settings.roster)
        state.formations[f.id] = f
        state.men_entered += f.men


KIND = Reinforce
