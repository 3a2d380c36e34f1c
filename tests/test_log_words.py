"""The battle log's words (``narration.event_line``, shared by the battle, the hotseat report and
the replay viewer): formations by their battle names, whatever happened to them, in English
that agrees with singular and plural names and numbers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import FIXTURE_GRID, Unit, make_scenario

from game.core.engine import Engine
from game.core.events import Attacked, Destroyed, Event, Moved, Narration, Revealed, Routed, SoulsCaptured
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.core.state import Formation
from game.ui.hero_orders import SkillButtons
from game.ui.narration import event_line
from game.view.names import formation_names, side_name

pytestmark = pytest.mark.usefixtures("english")

UNITS = [
    Unit("a_horse", "a", "warrior", 500, (5, 1), hero="xiang_yu"),
    Unit("a_foot", "a", "han_soldier", 3000, (2, 0)),
    Unit("b_levy", "b", "soul_levy", 9000, (2, 6)),
    Unit("b_levy_2", "b", "soul_levy", 9000, (3, 6)),
    Unit("b_levy_3", "b", "soul_levy", 9000, (4, 6)),
    Unit("b_rider", "b", "soul_rider", 1500, (7, 5)),
]


@pytest.fixture
def say(rules: Ruleset) -> Callable[[Event], str | None]:
    scenario = make_scenario(rules, FIXTURE_GRID, UNITS)
    engine = Engine(scenario, rules, 1)
    names = formation_names(rules, scenario)

    def line(ev: Event) -> str | None:
        return event_line(ev, engine.state, rules, scenario, names, lambda s: side_name(scenario, s))

    return line


def test_a_destroyed_formation_is_named_even_when_gone(say: Callable[[Event], str | None]) -> None:
    assert say(Destroyed(unit="b_levy_3", side="b", at=Hex(0, 0))) == "Soul levy 3 perished"


def test_moves_name_the_formation_and_say_why_one_stopped_short(say: Callable[[Event], str | None]) -> None:
    path = (Hex(0, 0), Hex(1, 0))
    assert say(Moved(unit="a_foot", path=path)) == "Han soldiers moved"
    assert say(Moved(unit="a_foot", path=path, forced=True)) == "Han soldiers force-marched"
    stopped = say(Moved(unit="a_horse", path=path, interrupted=True))
    assert stopped == "Xiang Yu · Hegemon's warriors halted: an enemy came into view"


def test_fights_routs_and_hidden_enemies_are_told_by_name(say: Callable[[Event], str | None]) -> None:
    hit = Attacked(unit="b_rider", target="a_foot", attacker_losses=120, defender_losses=1500)
    assert say(hit) == "Soul riders attacked Han soldiers: the defenders lost 1,500, the attackers 120"
    shot = Attacked(unit="a_foot", target="b_levy_2", attacker_losses=0, defender_losses=30, mode="fire")
    assert say(shot) == "Han soldiers shot at Soul levy 2: the defenders lost 30"
    assert say(Routed(unit="b_levy", side="b")) == "Soul levy 1 broke and fled!"
    assert say(Revealed(unit="b_rider")) == "Soul riders came out of hiding"


def test_numbers_take_the_right_plural(say: Callable[[Event], str | None]) -> None:
    assert say(SoulsCaptured(unit="a_foot", side="a", count=1)) == "Han soldiers bagged 1 soul into the pouch"
    assert say(SoulsCaptured(unit="a_foot", side="a", count=2500)) == "Han soldiers bagged 2,500 souls into the pouch"


def test_words_heard_carry_their_speakers_name(say: Callable[[Event], str | None]) -> None:
    assert say(Narration(text="Ride!", speaker="xiang_yu")) == "Xiang Yu: Ride!"
    assert say(Narration(text="Dusk falls.")) == "Dusk falls."


def test_a_skill_waiting_one_turn_says_turn(rules: Ruleset) -> None:
    skill = next(s for s in rules.skills.values() if s.cooldown and not s.passive)
    buttons = SkillButtons(None, rules, lambda: None)  # type: ignore[arg-type, return-value]  # none is needed to name a skill
    f = Formation(id="x", side="a", type="warrior", men=1, max_men=1, morale=50, pos=Hex(0, 0))
    f.cooldowns[skill.id] = 1
    assert buttons._skill_label(f, skill).endswith("(1 turn)")
    assert "Ready again in 1 turn." in buttons._skill_tip(f, skill)
    f.cooldowns[skill.id] = 2
    assert buttons._skill_label(f, skill).endswith("(2 turns)")
