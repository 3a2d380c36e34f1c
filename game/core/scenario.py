"""A scenario: the board, the sides and the formations a battle starts with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .board import Board
from .hexgrid import Hex
from .state import Role


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class SideSpec(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    faction: str
    role: Role
    name: str
    # Sides this one fights beside.
    allies: tuple[str, ...] = ()
    # Groups of this side's formations that hold still until an event releases them.
    held_groups: tuple[str, ...] = ()
    # A region whose fortress hexes are this side's gates: shut to every other side until an
    # ``open_gates`` event.
    gates: str | None = None


class FormationSpec(_Strict):
    id: str
    side: str
    type: str
    men: int = Field(ge=1)
    max_men: int | None = Field(None, ge=1)
    hero: str | None = None
    pos: Hex
    # Starts hidden in ambush (the unit type needs the ambush ability and the hex cover).
    hidden: bool = False
    # Morale at the start when it is not the unit type's full morale (a host already shaken).
    morale: int | None = Field(None, ge=0, le=100)
    group: str | None = None


class ObjectiveSpec(_Strict):
    """One line of the objectives panel; scenario events change its status."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    text: str
    side: str | None = None  # whose objective (None: the player side)
    bonus: bool = False
    # A tally the panel shows beside the text: men of these formations struck down so far, out
    # of ``tally_of`` (see ``game.core.tallies``).
    tally: tuple[str, ...] = ()
    tally_of: int = Field(0, ge=0)
    # Whose feat the tally is: only men struck down in fighting by these formations (ids) or
    # unit types count (see ``game.core.tallies``). Empty: every man of ``tally`` fallen counts.
    tally_by: tuple[str, ...] = ()


class SideObjective(_Strict):
    """An objective of a side other than the player's, written for that side alone. The scenario's
    events track the player side's objectives; one of these, ``against`` an objective of the
    other side, is its reverse: done when that one fails, failed when it is done (open until
    then, or always when it names none)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    text: str = Field(min_length=1)
    against: str | None = None
    bonus: bool = False


class SideEnding(_Strict):
    """A side's own debriefing of an ending a scenario event decides."""

    event: str
    text: str = Field(min_length=1)


class SideTexts(_Strict):
    """What one side other than the player's reads ([[side_texts]]): its own briefing (its plan,
    its strength, what it knows of the enemy), objectives and debriefings. The scenario's own
    texts are the player side's."""

    side: str
    briefing: str = Field(min_length=1)
    debriefing_victory: str = Field(min_length=1)
    debriefing_defeat: str = Field(min_length=1)
    debriefings: tuple[SideEnding, ...] = ()
    objectives: tuple[SideObjective, ...] = Field(min_length=1)


class OfficerSpec(_Strict):
    """A named officer of a formation (謀克, 猛安, 萬戶): a hero whose blows fell officers cuts
    them down one by one, in the order the scenario lists them."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    unit: str
    rank: Literal["mouke", "mengan", "wanhu"]
    name: str


class HoldSpec(_Strict):
    """Formations of ``side`` that must keep ``region`` (a defile to shut) rather than chase."""

    side: str
    region: str
    units: tuple[str, ...] = ()  # empty: every formation of the side
    # An event whose firing ends the need to hold (the trap the front protected is sprung): a
    # hard general then lets these formations fight where they will.
    until: str | None = None
    # With ``until_all``, every general lets them go then, not only a hard one (a set piece the
    # chronicle times by that event).
    until_all: bool = False
    # The hold starts only once this event has fired (a second post after the first).
    after: str | None = None
    # A march order: until they stand on the post they strike at nothing on the way.
    march: bool = False
    # A forced march: the order drives them past their pace (further, at a fatigue cost) while
    # they still can, until they stand on the post.
    forced: bool = False

    @model_validator(mode="after")
    def _forced_is_a_march(self) -> HoldSpec:
        if self.forced and not self.march:
            raise ValueError("forced = true is a kind of march order: set march = true too")
        return self


class ReserveSpec(_Strict):
    """Formations of ``side`` kept out of the fight for a blow at the right moment (the
    Hegemon-King's charge): from the moment ``after`` fires (None: from the start) until any of
    the events ``until`` fires. While in reserve they wait out of the enemy's reach, and a front they were
    told to hold no longer binds them; once released they strike."""

    side: str
    units: tuple[str, ...] = Field(min_length=1)
    after: str | None = None
    until: tuple[str, ...] = Field(min_length=1)


class AiHints(_Strict):
    """Optional ``[ai]`` table of a scenario: what the computer generals should know of the map.

    ``palace_region``: the Hailing palace; its side turns back when an enemy threatens it.
    ``refuge_region``: the fort a losing Jin army flees toward, or where a Hailing host makes
    once ``retreat_event`` has fired (its prince has ordered the retreat after a lost battle).
    ``pass_region``: a pass the Jin army means to force: while it is winning, its formations mass
    on it behind the vanguard and strike first at whoever holds it. ``rear_guard``: formations that
    stand and die to buy time. ``feint``: formations that fall back toward hidden friends to draw
    pursuers into an ambush. ``hold``: fronts a side must keep. ``charge``: formations that ride
    into the enemy host whatever the odds, cutting down its officers (Yue Fei at the Tangut
    border), until they are locked in single combat. ``follow``: formations that ride close
    behind the charge (two hexes off the nearest charging friend) and strike where it pays.
    ``reserve``: formations saved for one blow. ``sweepers``: soul-catchers that sweep behind
    the army.
    """

    palace_region: str | None = None
    palace_alarm: int = Field(3, ge=0, le=20)  # hexes from the palace at which an enemy threatens it
    # An event that raises the palace alarm as the scenario tells it (the guard's riders bring
    # word), whether or not the host itself sees the raiders.
    palace_alarm_event: str | None = None
    refuge_region: str | None = None
    retreat_event: str | None = None
    pass_region: str | None = None
    rear_guard: tuple[str, ...] = ()
    feint: tuple[str, ...] = ()
    # Where the feigned rout runs: away from the pursuers' rear, drawing them on past the
    # ambush (without it, the feint falls back on the hidden friends).
    feint_region: str | None = None
    hold: tuple[HoldSpec, ...] = ()
    charge: tuple[str, ...] = ()
    follow: tuple[str, ...] = ()
    reserve: tuple[ReserveSpec, ...] = ()
    # Soul-catchers that follow the army to sweep the field: they make for routed enemy soul
    # formations and souls lying on the field, and keep out of standing fights.
    sweepers: tuple[str, ...] = ()
    # Formations the computer lets open a lane for a charge (Han Xin's order before Datong);
    # elsewhere it leaves that order to a player.
    lane: tuple[str, ...] = ()


class DuelRules(_Strict):
    """Optional ``[duel]`` table of a scenario: how single combat is decided in this battle
    (``game.core.duel``), where the story fought it otherwise than the game's own rule.

    ``clash``: exchange scores closer than this trade blows (both heroes land one). ``close``: a
    duel won by at most this many blows wounds both heroes (at most 3, so that four blows to none
    wounds only the loser). ``fought_out``: a duel still under way when the last turn ends is
    fought to its end then, before the turn limit decides the battle. Absent, the game's own rule
    holds: a record made before its scenario set the table carries the scenario file without it,
    and so replays by the rule it was played by.
    """

    clash: int = Field(8, ge=1, le=80)
    close: int = Field(1, ge=0, le=3)
    fought_out: bool = False


# What decides the game when the last turn ends: a side id wins outright, "draw", or
# "attrition": the side that destroyed the larger share of its enemies' starting men wins.
TurnLimitOutcome = str

OUTCOME_ATTRITION: Literal["attrition"] = "attrition"
OUTCOME_DRAW: Literal["draw"] = "draw"


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    campaign: str | None
    sides: tuple[SideSpec, ...]
    turn_limit: int
    turn_limit_outcome: TurnLimitOutcome
    objectives: tuple[str, ...]
    briefing: str
    board: Board
    formations: tuple[FormationSpec, ...]
    # Where the map came from, for messages and screenshots.
    map_file: str = ""
    objective_specs: tuple[ObjectiveSpec, ...] = ()
    # Scenario events (``game.core.scenario_events.EventSpec``), checked after every action.
    events: tuple[Any, ...] = ()
    # Hints for the computer generals (the ``[ai]`` table).
    ai: AiHints = AiHints()
    debriefing_victory: str = ""
    debriefing_defeat: str = ""
    # Named officers of formations (``OfficerSpec``), in the order they are cut down.
    officers: tuple[OfficerSpec, ...] = ()
    # Debriefings for endings a scenario event decides: event id -> text, over the two above.
    debriefings: tuple[tuple[str, str], ...] = ()
    # The texts of sides other than the player's, written for them (``SideTexts``).
    side_texts: tuple[SideTexts, ...] = ()
    # How this battle's duels are decided (the ``[duel]`` table).
    duel: DuelRules = DuelRules()

    def side_ids(self) -> list[str]:
        return [s.id for s in self.sides]

    def default_player_side(self) -> str:
        for s in self.sides:
            if s.role == "player":
                return s.id
        return self.sides[0].id
