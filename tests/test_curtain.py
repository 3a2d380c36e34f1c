"""The hotseat curtain needs a deliberate act: input queued before it appeared, a double-click,
Enter pressed twice and a held key do not pass it; a fresh press and release once it is up do.
Times are the events' own timestamps, relative to when the curtain opened."""

from __future__ import annotations

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_scenario, pass_curtain

from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.record.match import Match
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.deliberate import ARM_MS
from game.ui.handover import HandoverScene

pytestmark = pytest.mark.usefixtures("english")

STRIP = ("." * 20,) * 5
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (3, 2)),
    Unit("b_levy", "b", "soul_levy", 9000, (16, 2)),  # out of a's sight: the hidden formation
]


def key(kind: int, k: int, at: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=k, mod=0, unicode="", scancode=0, timestamp=at)


def mouse(kind: int, pos: tuple[int, int], at: int) -> pygame.event.Event:
    return pygame.event.Event(kind, pos=pos, button=1, touch=False, timestamp=at)


def curtain_of_b(app: App, rules: Ruleset) -> tuple[BattleScene, HandoverScene]:
    """A hotseat battle after a's turn ended by a click on End turn: b's curtain is up."""
    scenario = make_scenario(rules, STRIP, UNITS, turn_limit=5)
    app.go("battle", match=Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "human", "b": "human"}))
    pass_curtain(app)
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.session.viewer == "a"
    end = battle.panels.end_turn_button.rect.center
    now = pygame.time.get_ticks()
    frame(app, mouse(pygame.MOUSEBUTTONDOWN, end, now), mouse(pygame.MOUSEBUTTONUP, end, now + 40))
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "b"
    return battle, curtain


def still_behind(app: App, battle: BattleScene, curtain: HandoverScene) -> None:
    assert app.scene is curtain and battle.session.viewer == "b"
    frame(app)
    assert "b_levy" not in battle.session.seen_ids("a")
    # Nothing of the battle on screen: not b's colour nor a's, only the curtain's chip.
    a_colour = battle.rules.factions[battle.state.side("a").faction].colour
    assert pygame.mask.from_threshold(app.screen, a_colour, (1, 1, 1, 255)).count() == 0


def test_the_second_click_of_a_double_click_on_end_turn_does_not_pass_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    ready = curtain.ready.rect.center
    t = curtain.act.opened_at
    frame(app, mouse(pygame.MOUSEBUTTONDOWN, ready, t + 60), mouse(pygame.MOUSEBUTTONUP, ready, t + 110))
    still_behind(app, battle, curtain)


def test_enter_twice_within_150_ms_does_not_pass_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    t = curtain.act.opened_at
    for at in (t + 10, t + 150):
        frame(app, key(pygame.KEYDOWN, pygame.K_RETURN, at), key(pygame.KEYUP, pygame.K_RETURN, at + 30))
    still_behind(app, battle, curtain)


def test_input_queued_before_it_appeared_does_not_pass_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    t = curtain.act.opened_at
    frame(
        app,
        key(pygame.KEYDOWN, pygame.K_SPACE, t - 20),
        key(pygame.KEYUP, pygame.K_SPACE, t - 5),
        key(pygame.KEYDOWN, pygame.K_KP_ENTER, t - 3),
    )
    frame(app, key(pygame.KEYUP, pygame.K_KP_ENTER, t + ARM_MS + 200))  # let go late: still no fresh press
    still_behind(app, battle, curtain)


def test_a_held_key_and_its_repeats_do_not_pass_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    t = curtain.act.opened_at
    frame(app, key(pygame.KEYDOWN, pygame.K_RETURN, t + 5))
    for n in range(1, 30):  # the key's auto-repeat, well past the time the curtain is armed
        frame(app, key(pygame.KEYDOWN, pygame.K_RETURN, t + 5 + 50 * n))
    frame(app, key(pygame.KEYUP, pygame.K_RETURN, t + 1600))
    still_behind(app, battle, curtain)
    # A key held down when the curtain opened counts as held too.
    held = type(curtain.act)(t, held=[pygame.K_SPACE])
    curtain.act = held
    frame(app, key(pygame.KEYDOWN, pygame.K_SPACE, t + ARM_MS + 10), key(pygame.KEYUP, pygame.K_SPACE, t + ARM_MS + 50))
    still_behind(app, battle, curtain)


def test_a_press_held_across_the_arming_does_not_pass_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    ready = curtain.ready.rect.center
    t = curtain.act.opened_at
    frame(app, mouse(pygame.MOUSEBUTTONDOWN, ready, t + 100))
    frame(app, mouse(pygame.MOUSEBUTTONUP, ready, t + ARM_MS + 100))
    still_behind(app, battle, curtain)


def test_a_fresh_press_and_release_once_it_is_up_passes_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    t = curtain.act.opened_at
    frame(app, key(pygame.KEYDOWN, pygame.K_RETURN, t + 20), key(pygame.KEYUP, pygame.K_RETURN, t + 60))
    assert app.scene is curtain
    frame(app, key(pygame.KEYDOWN, pygame.K_RETURN, t + ARM_MS + 1))
    assert app.scene is curtain  # pressed, not yet let go
    frame(app, key(pygame.KEYUP, pygame.K_RETURN, t + ARM_MS + 90))
    on_top: object = app.scene  # the screen has changed since the checks above
    assert on_top is battle and battle.session.viewer == "b"


def test_a_deliberate_click_on_ready_passes_it(app: App, rules: Ruleset) -> None:
    battle, curtain = curtain_of_b(app, rules)
    ready = curtain.ready.rect.center
    t = curtain.act.armed_at
    frame(app, mouse(pygame.MOUSEBUTTONDOWN, ready, t + 5), mouse(pygame.MOUSEBUTTONUP, ready, t + 70))
    assert app.scene is battle and battle.session.viewer == "b"
