"""Campaigns: a campaign's progress from battle to battle, its decisions and the camp's economy.

A campaign is an ordered list of scenarios played by one side. Between battles its formations
keep their losses, experience and upgrades; heroes carry on; the souls bagged become soul coins
(魂币) that replenish men, raise new formations and buy upgrades at the camp.

What the army carries and how it enters and leaves a battle is game.core.roster; the
campaign's data (battles, offers, decisions, endings) is game.core.campaign_spec.

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
from typing import Final, Literal

from pydantic import Field

from .campaign_spec import CampaignSpec, DecisionSpec, EndingSpec, StrictModel, UnitOffer, UpgradeSpec
from .roster import CarriedFormation, Roster, carry_in, carry_key, entered_formations, harvest
from .rules import MAX_EXPERIENCE, Ruleset
from .scenario import Scenario
from .state import GameState

# Scenario events and campaign runs still reach the entry of carried formations and the
# campaign's data through this module.
__all__ = [
    "CampaignSpec",
    "BattleResult",
    "CampError",
    "CampaignProgress",
    "PROGRESS_FORMAT",
    "PROGRESS_VERSION",
    "after_battle",
    "buy_upgrade",
    "carry_in",
    "carry_key",
    "coins_for",
    "decide",
    "earned_ending",
    "ending_of",
    "new_progress",
    "pending_decision",
    "recruit",
    "recruit_cost",
    "replenish",
    "replenish_quote",
    "upgrade_allowed",
    "won_battle",
]

PROGRESS_FORMAT: Final = "qiankun-campaign"
PROGRESS_VERSION = 1


class CampError(ValueError):
    """A camp order that cannot be carried out (the progress is left as it was)."""


# -- progress and the camp ----------------------------------------------------------------------


class BattleResult(StrictModel):
    scenario_id: str = Field(max_length=100)
    won: bool
    turns: int = Field(ge=0, le=10_000)
    souls: int = Field(ge=0, le=100_000_000)
    coins: int = Field(ge=0, le=10_000_000)
    # Objective id -> its status when the battle ended (None: fought before they were kept).
    objectives: dict[str, str] | None = Field(None, max_length=100)


class CampaignProgress(StrictModel):
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
    """The ending a finished campaign closes with (None while it goes on, or if it has none):
    the one a course taken chose, else the one how the battles went earned (``ending_rules``),
    else the campaign's own. An ending since taken out of the game is told as the one that
    replaced it."""
    if not progress.finished(spec):
        return None
    chosen = progress.ending or earned_ending(progress, spec)
    return spec.endings.get(spec.retired_endings.get(chosen, chosen))


def earned_ending(progress: CampaignProgress, spec: CampaignSpec) -> str:
    """The ending of a campaign run to its course: the first of ``ending_rules`` whose battle's
    last victory had every objective it names done; the campaign's own ending when none holds,
    or when that victory was won before the progress kept objectives."""
    for rule in spec.ending_rules:
        won = [r for r in progress.results if r.won and r.scenario_id == rule.battle]
        if not won or won[-1].objectives is None:
            return spec.ending
        statuses = won[-1].objectives
        if all(statuses.get(o) == "done" for o in rule.done):
            return rule.ending
    return spec.ending


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
        objectives=dict(state.objectives),
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
