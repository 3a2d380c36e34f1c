"""What the battle screen shows before an order is given: palm thunder's range, the hexes it
would strike and its odds; capture's count; rest's gain; a duel's chances."""

from __future__ import annotations

import pytest
from conftest import Unit, frame, open_field

from game.core.actions import Blast
from game.core.hexgrid import distance, neighbours
from game.core.rules import Ruleset
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.hero_orders import duel_odds_line

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6


def field_battle(app: App, rules: Ruleset, units: list[Unit]) -> BattleScene:
    return open_field(app, rules, FIELD, units)


def test_palm_thunder_shows_its_range_the_struck_hexes_and_odds_that_hold(app: App, rules: Ruleset) -> None:
    units = [
        Unit("a_bows", "a", "crossbowman", 800, (1, 2)),
        Unit("b_one", "b", "soul_levy", 900, (3, 2)),
        Unit("b_two", "b", "soul_levy", 900, (3, 3)),
    ]
    scene = field_battle(app, rules, units)
    bows = scene.state.formations["a_bows"]
    scene.session.selected = "a_bows"
    scene._after_change([])
    scene.give_order("thunder")
    assert scene.session.choice.aiming_thunder
    at = scene.state.formations["b_one"].pos
    scene.hover = at
    ov = scene.overlays()
    assert ov.reachable == frozenset(
        h for h in scene.match.loaded.scenario.board.terrain if 1 <= distance(bows.pos, h) <= 2
    )
    assert at in ov.targets and ov.targets <= {at, *neighbours(at)}
    odds = dict(scene.session.thunder_forecast(scene.hover))
    struck = {fid for fid, f in scene.state.formations.items() if f.side == "b" and f.pos in {at, *neighbours(at)}}
    assert set(odds) == struck
    before = {fid: scene.state.formations[fid].men for fid in odds}
    frame(app)  # the preview box is drawn without error
    assert scene.submit(Blast(unit="a_bows", at=at))
    for fid, forecast in odds.items():
        lost = before[fid] - (scene.state.formations[fid].men if fid in scene.state.formations else 0)
        low, _mid, high = forecast.defender_losses
        assert low <= lost <= high


def test_the_orders_bar_tells_what_capture_and_rest_would_do(app: App, rules: Ruleset) -> None:
    from game.core.souls import add_souls

    units = [Unit("a_ret", "a", "retainer", 2000, (1, 2)), Unit("b_far", "b", "soul_levy", 500, (7, 5))]
    scene = field_battle(app, rules, units)
    add_souls(scene.state, scene.state.formations["a_ret"].pos, "b", 321)
    scene.session.selected = "a_ret"
    scene._after_change([])
    capture_tip = scene.panels.orders.buttons["capture"].tool_tip_text
    rest_tip = scene.panels.orders.buttons["rest"].tool_tip_text
    assert capture_tip is not None and rest_tip is not None
    assert "bag 321 souls" in capture_tip and "ends the formation's turn" in capture_tip
    assert "fatigue" in rest_tip


def test_a_duels_chances_are_told_in_words(rules: Ruleset) -> None:
    line = duel_odds_line(rules, "xiang_yu", "han_xin")
    numbers = [int(part.rstrip("%,")) for part in line.split() if part.rstrip("%,").isdigit()]
    assert len(numbers) == 3 and 98 <= sum(numbers) <= 102


def test_in_the_smallest_window_a_forecast_keeps_its_buttons_clear(rules: Ruleset) -> None:
    """A tall forecast in an 800x560 window: the view buttons under it give way (its Cancel and
    Attack stay clickable) and no card of the target covers it; cancelled, they come back."""
    from game.ui.app import App

    app = App((800, 560))
    units = [
        Unit("a_yue", "a", "zhenguo_rider", 1300, (3, 3), hero="yue_fei"),
        Unit("a_b", "a", "zhenguo_rider", 1000, (5, 3)),
        Unit("b_x", "b", "jurchen_veteran", 2000, (4, 3)),
        Unit("b_y", "b", "jurchen_veteran", 2000, (4, 2)),
    ]
    battle = open_field(app, rules, ("........",) * 7, units)
    battle.click_hex(battle.state.formations["a_yue"].pos)
    battle.click_hex(battle.state.formations["b_x"].pos)
    frame(app)
    frame(app)
    panel = battle.panels.hud.panel_rect
    assert battle.panels.hud.forecast is not None
    for button in (battle.panels.threat_toggle.button, battle.panels.legend.button):
        assert button is not None and (not button.visible or not panel.colliderect(button.rect))
    assert battle.panels.card_panel.rect.width == 0  # no card over the forecast
    battle.cancel()
    frame(app)
    assert battle.panels.threat_toggle.button is not None and battle.panels.legend.button is not None
    assert battle.panels.threat_toggle.button.visible and battle.panels.legend.button.visible
