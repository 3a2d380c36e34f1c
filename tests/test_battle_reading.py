"""Reading the enemy on the battle screen: the card of any formation in sight, the enemies'
reach (H) and one enemy's own, and nothing of what the viewing side does not see."""

from __future__ import annotations

import pygame
import pytest
from conftest import Unit, frame, open_field

from game.core.rules import Ruleset
from game.record.seats import Commander
from game.ui.app import App
from game.ui.battle import BattleScene

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("..........",) * 8


def battle(app: App, rules: Ruleset, units: list[Unit], controllers: dict[str, Commander] | None = None) -> BattleScene:
    return open_field(app, rules, FIELD, units, controllers)


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (1, 3)),
    Unit("b_near", "b", "soul_levy", 1500, (3, 3)),
    Unit("b_far", "b", "soul_rider", 900, (9, 7)),
]


def test_hovering_an_enemy_in_sight_shows_its_card_and_an_unseen_one_shows_none(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, UNITS)
    view = scene.session.view()
    assert view.sees("b_near") and not view.sees("b_far")
    scene.hover = scene.state.formations["b_near"].pos
    frame(app)
    assert scene.panels.card_panel.rect.width > 0
    scene.hover = scene.state.formations["b_far"].pos
    frame(app)
    assert scene.panels.card_panel.rect.width == 0


def test_h_shades_what_the_enemies_in_sight_can_strike_and_a_click_shows_one_enemys_reach(
    app: App, rules: Ruleset
) -> None:
    scene = battle(app, rules, UNITS)
    assert scene.overlays().threat == frozenset()
    press(app, pygame.K_h)
    threat = scene.overlays().threat
    assert threat and threat == scene.session.view().threat.hexes
    scene.click_hex(scene.state.formations["b_near"].pos)
    assert scene.looked_at == "b_near"
    assert scene.overlays().enemy_reach == scene.session.view().enemy_reach("b_near")
    assert scene.overlays().enemy_reach
    scene.click_hex(scene.state.formations["b_far"].pos)  # unseen: nothing to look at
    assert scene.looked_at is None and scene.overlays().enemy_reach == frozenset()


def test_in_hotseat_the_card_and_the_reach_follow_the_player_at_the_screen(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, UNITS, controllers={"a": "human", "b": "human"})
    press(app, pygame.K_RETURN)  # the first hand-over
    assert scene.session.fog_side() == "a"
    assert scene.session.view().card("b_far") is None
    assert scene.session.view("b").card("b_far") is not None
