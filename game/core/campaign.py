"""Campaigns: what an army carries from one battle to the next, and the camp's economy.

A campaign is an ordered list of scenarios played by one side. Between battles its formations
keep their losses, experience and upgrades; heroes carry on; the souls bagged become soul coins
(魂币) that replenish men, raise new formations and buy upgrades at the camp.

A formation is carried by its *key*: the id of the hero who leads it, or its own id when no hero
does (a hero always leads the same formation through a campaign). A scenario's men are the
story's strength; a carried formation enters with the same share of them that it kept (a
formation wiped out regathers three in ten around its hero, and half of a standing formation's
losses were only wounded and return). Formations raised at the camp enter in
the scenario's ``muster`` region.

A campaign may put decisions to the player at the camp (a counsel with two or more courses,
each saying what follows): once the war aim is met with battles still ahead, or once a named
battle is won. The course taken is kept in the progress; one may end the campaign early, with
an ending of its own, or pay soul coins. A campaign that runs its course ends with its default
ending.

The carried roster is part of the game settings, so a campaign battle replays exactly like any
other. Everything here is pure: the camp's choices are functions from one progress to the next,
and an illegal purchase raises ``CampError`` and changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from . import vision
from .board import Board
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
PROGRESS_FORMAT: Final = "qiankun-campaign"
PROGRESS_VERSION = 1


class CampError(ValueError):
    """A camp order that cannot be carried out (the progress is left as it was)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- campaign data (loaded and validated by game.content.campaigns) ---------------------------


class UnitOffer(_Strict):
    """What a unit type costs the campaign's side at the camp."""

    # Soul coins per hundred men, to replenish or to raise.
    cost: int = Field(ge=1, le=1000)
    # Men in a formation raised at the camp; 0: this type cannot be raised, only replenished.
    recruit: int = Field(0, ge=0, le=100_000)


UpgradeKind = Literal["experience", "ammo", "charges"]


class UpgradeSpec(_Strict):
    id: str
    name: str
    description: str
    kind: UpgradeKind
    amount: int = Field(ge=1, le=20)
    cost: int = Field(ge=1, le=10_000)
    # Whether a formation may buy it again (drill: until its experience is full).
    repeatable: bool = False


class DecisionOption(_Strict):
    """One course a camp decision offers."""

    id: str = Field(min_length=1, max_length=80)
    # The button, and what follows from taking it (both shown before the choice).
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    # An ending id: taking this course ends the campaign there.
    ending: str | None = None
    # Soul coins paid into the war chest.
    coins: int = Field(0, ge=0, le=10_000_000)


class DecisionSpec(_Strict):
    """A choice put to the player at the camp."""

    id: str = Field(min_length=1, max_length=80)
    # When it is offered: "aim_met" (at the first camp where the souls bagged reach the war aim
    # with battles still ahead), or ``after`` a scenario id (once that battle is won).
    when: Literal["aim_met"] | None = None
    after: str | None = None
    # The hero who gives the counsel (a heroes.toml id), its heading and its words.
    speaker: str | None = None
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    options: tuple[DecisionOption, ...] = Field(min_length=2, max_length=4)
    # The course the chronicle took: what a computer-played campaign chooses.
    chronicle: str

    @model_validator(mode="after")
    def _one_occasion(self) -> DecisionSpec:
        if (self.when is None) == (self.after is None):
            raise ValueError("give exactly one of `when` and `after`")
        if len({o.id for o in self.options}) != len(self.options):
            raise ValueError("option ids must be unique")
        if self.option(self.chronicle) is None:
            raise ValueError(f"chronicle: no option {self.chronicle!r}")
        return self

    def option(self, option_id: str) -> DecisionOption | None:
        return next((o for o in self.options if o.id == option_id), None)


class LastWord(_Strict):
    """Words quoted at the very end of an ending (a letter, a note), with who wrote them."""

    title: str = Field(min_length=1)
    text: str = Field(min_length=1)


class EndingSpec(_Strict):
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    last_word: LastWord | None = None


class CampaignDebriefing(_Strict):
    """A battle's victory told as the campaign goes on from it (its scenario's own text is for
    the battle fought alone)."""

    debriefing_victory: str = Field(min_length=1)


class CampaignSpec(_Strict):
    id: str
    title: str
    description: str = ""
    side: str
    scenarios: tuple[str, ...] = Field(min_length=1)
    souls_per_coin: int = Field(100, ge=1, le=100_000)
    # The war aim in souls bagged over the whole campaign (0: none).
    souls_aim: int = Field(0, ge=0, le=100_000_000)
    units: dict[str, UnitOffer] = Field(default_factory=dict)
    upgrades: tuple[str, ...] = ()
    # The script of the Chinese names the campaign's story uses (A simplified, B traditional).
    names: Literal["zh_CN", "zh_TW"] = "zh_CN"
    decisions: tuple[DecisionSpec, ...] = ()
    endings: dict[str, EndingSpec] = Field(default_factory=dict)
    # The ending once every battle is won and no course taken chose another ("": none).
    ending: str = ""
    # Scenario id -> its victory as this campaign tells it.
    debriefings: dict[str, CampaignDebriefing] = Field(default_factory=dict)

    def decision(self, decision_id: str) -> DecisionSpec | None:
        return next((d for d in self.decisions if d.id == decision_id), None)


# -- what is carried ----------------------------------------------------------------------------


class CarriedFormation(_Strict):
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


class Roster(_Strict):
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


# -- progress and the camp ----------------------------------------------------------------------


class BattleResult(_Strict):
    scenario_id: str = Field(max_length=100)
    won: bool
    turns: int = Field(ge=0, le=10_000)
    souls: int = Field(ge=0, le=100_000_000)
    coins: int = Field(ge=0, le=10_000_000)


class CampaignProgress(_Strict):
    """A campaign in progress: saved after every battle and every camp order."""

    format: Literal["qiankun-campaign"] = PROGRESS_FORMAT
    format_version: int = PROGRESS_VERSION
    campaign_id: str = Field(max_length=100)
    difficulty: Literal["easy", "normal", "hard"] = "normal"
    # Index of the next battle in the campaign's list; its length once the campaign is won.
    stage: int = Field(0, ge=0, le=1000)
    # Battles fought at this stage (a defeat can be retried; each try gets its own seed).
    attempts: int = Field(0, ge=0, le=1_000_000)
    coins: int = Field(0, ge=0, le=10_000_000)
    seed: int = Field(ge=0, le=(1 << 62))
    roster: Roster
    results: list[BattleResult] = Field(default_factory=list, max_length=10_000)
    # Decisions taken at the camp: decision id -> the option chosen (older files have none).
    decisions: dict[str, str] = Field(default_factory=dict, max_length=100)
    # The ending a decision chose (None: the campaign runs its course).
    ending: str | None = Field(None, max_length=100)

    def finished(self, spec: CampaignSpec) -> bool:
        """Over: an ending was chosen, or every battle is won and nothing is left to decide."""
        if self.ending is not None:
            return True
        return self.stage >= len(spec.scenarios) and pending_decision(self, spec) is None

    def souls_bagged(self) -> int:
        """Souls bagged in the battles won (a lost battle is fought again, its souls are not kept)."""
        return sum(r.souls for r in self.results if r.won)

    def battle_seed(self) -> int:
        return (self.seed * 1_000_003 + self.stage * 1009 + self.attempts) % (1 << 62)


def new_progress(spec: CampaignSpec, seed: int, difficulty: str = "normal") -> CampaignProgress:
    return CampaignProgress(
        campaign_id=spec.id,
        difficulty=difficulty,
        seed=seed,
        roster=Roster(side=spec.side),
    )


def won_battle(progress: CampaignProgress, scenario_id: str) -> bool:
    return any(r.won and r.scenario_id == scenario_id for r in progress.results)


def pending_decision(progress: CampaignProgress, spec: CampaignSpec) -> DecisionSpec | None:
    """The decision the camp puts to the player now (None: none is waiting). Until it is taken
    the army cannot march on."""
    if progress.ending is not None:
        return None
    for d in spec.decisions:
        if d.id in progress.decisions:
            continue
        if d.when == "aim_met":
            ahead = progress.stage < len(spec.scenarios)
            if ahead and spec.souls_aim and progress.souls_bagged() >= spec.souls_aim:
                return d
        elif d.after is not None and won_battle(progress, d.after):
            return d
    return None


def decide(progress: CampaignProgress, spec: CampaignSpec, decision_id: str, option_id: str) -> CampaignProgress:
    """Take a course of the decision waiting at the camp: it is kept in the progress, pays its
    coins and, if it says so, ends the campaign."""
    waiting = pending_decision(progress, spec)
    if waiting is None or waiting.id != decision_id:
        raise CampError(f"no decision {decision_id!r} is waiting")
    option = waiting.option(option_id)
    if option is None:
        raise CampError(f"{decision_id!r} offers no {option_id!r}")
    return progress.model_copy(
        update={
            "decisions": {**progress.decisions, decision_id: option_id},
            "coins": min(10_000_000, progress.coins + option.coins),
            "ending": option.ending if option.ending is not None else progress.ending,
        }
    )


def ending_of(progress: CampaignProgress, spec: CampaignSpec) -> EndingSpec | None:
    """The ending a finished campaign closes with (None while it goes on, or if it has none)."""
    if not progress.finished(spec):
        return None
    return spec.endings.get(progress.ending or spec.ending)


def coins_for(souls: int, spec: CampaignSpec) -> int:
    return souls // spec.souls_per_coin


def after_battle(
    progress: CampaignProgress,
    spec: CampaignSpec,
    scenario: Scenario,
    state: GameState,
) -> CampaignProgress:
    """The progress once a battle of the current stage has ended. A victory carries the army on
    and turns its bagged souls into coins; a defeat changes nothing but the count of tries."""
    side = state.side(spec.side)
    won = state.winner == spec.side
    coins = coins_for(side.pouch, spec) if won else 0
    result = BattleResult(
        scenario_id=spec.scenarios[progress.stage],
        won=won,
        turns=state.turn,
        souls=side.pouch,
        coins=coins,
    )
    if not won:
        return progress.model_copy(update={"attempts": progress.attempts + 1, "results": [*progress.results, result]})
    return progress.model_copy(
        update={
            "stage": progress.stage + 1,
            "attempts": 0,
            "coins": progress.coins + coins,
            "roster": harvest(progress.roster, entered_formations(scenario, state, progress.roster), state),
            "results": [*progress.results, result],
        }
    )


def _cost(men: int, per_hundred: int) -> int:
    return math.ceil(men * per_hundred / 100)


def _offer(spec: CampaignSpec, unit_type: str) -> UnitOffer:
    offer = spec.units.get(unit_type)
    if offer is None:
        raise CampError(f"the camp has no {unit_type} to offer")
    return offer


def replenish_quote(progress: CampaignProgress, spec: CampaignSpec, key: str) -> tuple[int, int]:
    """(men, coins): the most men the coins at hand bring the formation back up by, and their cost."""
    carried = progress.roster.get(key)
    if carried is None:
        raise CampError(f"no formation {key!r} in the army")
    offer = _offer(spec, carried.type)
    missing = carried.max_men - carried.men
    affordable = progress.coins * 100 // offer.cost
    men = min(missing, affordable)
    return men, _cost(men, offer.cost)


def replenish(progress: CampaignProgress, spec: CampaignSpec, key: str) -> CampaignProgress:
    men, cost = replenish_quote(progress, spec, key)
    if men <= 0:
        raise CampError("already at full strength" if progress.coins else "not enough soul coins")
    roster = _with(progress.roster, key, lambda c: c.model_copy(update={"men": c.men + men}))
    return progress.model_copy(update={"coins": progress.coins - cost, "roster": roster})


def recruit_cost(spec: CampaignSpec, unit_type: str) -> int:
    offer = _offer(spec, unit_type)
    if offer.recruit <= 0:
        raise CampError(f"{unit_type} cannot be raised at the camp")
    return _cost(offer.recruit, offer.cost)


def recruit(progress: CampaignProgress, spec: CampaignSpec, unit_type: str) -> CampaignProgress:
    cost = recruit_cost(spec, unit_type)
    if cost > progress.coins:
        raise CampError("not enough soul coins")
    n = 1 + sum(1 for c in progress.roster.formations if c.raised and c.type == unit_type)
    while progress.roster.get(f"{unit_type}_raised_{n}") is not None:
        n += 1
    men = spec.units[unit_type].recruit
    new = CarriedFormation(key=f"{unit_type}_raised_{n}", type=unit_type, men=men, max_men=men, raised=True)
    roster = progress.roster.model_copy(update={"formations": [*progress.roster.formations, new]})
    return progress.model_copy(update={"coins": progress.coins - cost, "roster": roster})


def upgrade_allowed(carried: CarriedFormation, upgrade: UpgradeSpec, rules: Ruleset) -> str | None:
    """Why ``carried`` cannot take ``upgrade`` (None: it can)."""
    utype = rules.units.get(carried.type)
    if upgrade.id in carried.upgrades and not upgrade.repeatable:
        return "already bought"
    if upgrade.kind == "experience" and carried.experience >= MAX_EXPERIENCE:
        return "already seasoned to the full"
    if upgrade.kind == "ammo" and (utype is None or utype.ammo is None):
        return "it shoots no missiles"
    if upgrade.kind == "charges" and (utype is None or not utype.area_charges):
        return "it carries no palm thunder"
    return None


def buy_upgrade(
    progress: CampaignProgress,
    spec: CampaignSpec,
    key: str,
    upgrade: UpgradeSpec,
    rules: Ruleset,
) -> CampaignProgress:
    carried = progress.roster.get(key)
    if carried is None:
        raise CampError(f"no formation {key!r} in the army")
    if upgrade.id not in spec.upgrades:
        raise CampError(f"the camp has no {upgrade.id} to offer")
    why = upgrade_allowed(carried, upgrade, rules)
    if why is not None:
        raise CampError(why)
    if upgrade.cost > progress.coins:
        raise CampError("not enough soul coins")

    def bought(c: CarriedFormation) -> CarriedFormation:
        update: dict[str, object] = {"upgrades": [*c.upgrades, upgrade.id]}
        if upgrade.kind == "experience":
            update["experience"] = min(MAX_EXPERIENCE, c.experience + upgrade.amount)
        elif upgrade.kind == "ammo":
            update["extra_ammo"] = min(99, c.extra_ammo + upgrade.amount)
        else:
            update["extra_charges"] = min(9, c.extra_charges + upgrade.amount)
        return c.model_copy(update=update)

    roster = _with(progress.roster, key, bought)
    return progress.model_copy(update={"coins": progress.coins - upgrade.cost, "roster": roster})


def _with(roster: Roster, key: str, change: Callable[[CarriedFormation], CarriedFormation]) -> Roster:
    return roster.model_copy(update={"formations": [change(c) if c.key == key else c for c in roster.formations]})
