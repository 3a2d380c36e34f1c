"""Motion on the map: marches slide along their road, blows lunge, any speed or none; input
during an animation ends it at once and is not lost; the game is the same with motion or not."""

from __future__ import annotations

import pygame
import pytest
from conftest import SUITE_SAVES, Unit, frame, loaded_for, make_scenario, open_field

from game.core.actions import EndTurn, Move
from game.core.engine import GameSettings
from game.core.events import Moved
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record.match import Match
from game.settings import update_settings
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.motion import HEX_SECONDS, Glide, Motion

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (1, 2)),
    Unit("a_more", "a", "han_soldier", 3000, (1, 4)),
    Unit("b_levy", "b", "soul_levy", 1500, (6, 2)),
]


def battle(app: App, rules: Ruleset) -> BattleScene:
    return open_field(app, rules, FIELD, UNITS)


def test_a_glide_passes_every_hex_of_its_road_in_order() -> None:
    glide = Glide([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], duration=1.0)
    assert glide.at() == (0.0, 0.0)
    glide.age = 0.25
    assert glide.at() == (5.0, 0.0)
    glide.age = 0.75
    assert glide.at() == (10.0, 5.0)
    glide.age = 1.0
    assert glide.at() == (10.0, 10.0) and glide.done


def test_a_lunge_goes_out_and_comes_back() -> None:
    lunge = Glide([(0.0, 0.0), (10.0, 0.0)], duration=1.0, lunge=True)
    lunge.age = 0.5
    assert 3.0 < lunge.at()[0] <= 4.0
    lunge.age = 1.0
    assert abs(lunge.at()[0]) < 1e-9


def test_instant_shows_no_motion(rules: Ruleset) -> None:
    from game.ui.geometry import MapGeometry

    loaded = loaded_for(make_scenario(rules, FIELD, UNITS))
    motion = Motion(MapGeometry(loaded.layout, 8, 6))
    moved = Moved(unit="a_foot", path=(Hex(0, 2), Hex(1, 2), Hex(2, 2)))
    motion.play([moved], "instant", lambda u: None)
    assert not motion.active
    motion.play([moved], "slow", lambda u: None)
    assert motion.active and motion.glides["a_foot"].duration == pytest.approx(2 * HEX_SECONDS["slow"])


def test_a_march_is_drawn_along_its_road_until_it_arrives(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, own_speed="slow")
    scene = battle(app, rules)
    start = scene.geometry.centre(scene.state.formations["a_foot"].pos)
    assert scene.submit(Move(unit="a_foot", to=Hex(0, 1)))
    assert scene.animating() and "a_foot" in scene.overlays().token_at
    assert scene.overlays().token_at["a_foot"] == pytest.approx(start)
    frame(app, dt=0.1)
    assert scene.overlays().token_at["a_foot"] != pytest.approx(start)
    for _ in range(20):
        frame(app, dt=0.1)
    assert "a_foot" not in scene.overlays().token_at


def test_a_key_during_a_march_ends_it_and_still_does_its_job(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, own_speed="slow")
    scene = battle(app, rules)
    assert scene.submit(Move(unit="a_foot", to=Hex(0, 1)))
    assert scene.motion.active
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e", scancode=0))
    assert "a_foot" not in scene.motion.glides  # shown at its end at once
    assert scene.state.active_side.id == "b"  # and the key did its job: the turn ended


def test_the_computer_waits_for_the_last_move_to_be_shown(app: App, rules: Ruleset, own_settings: None) -> None:
    scene = battle(app, rules)
    assert scene.submit(EndTurn())
    assert scene.computer.to_move()
    actions = len(scene.match.record.actions)
    scene.motion.glides["a_foot"] = Glide([(0.0, 0.0), (1.0, 1.0)], duration=10.0)
    for _ in range(3):
        scene.computer.update(0.0)
    assert len(scene.match.record.actions) == actions and not scene.computer.worker.busy


def test_motion_changes_nothing_in_the_game(app: App, rules: Ruleset, own_settings: None) -> None:
    hashes = []
    for speed in ("slow", "instant"):
        update_settings(SUITE_SAVES, own_speed=speed)
        scene = battle(app, rules)
        for action in (Move(unit="a_foot", to=Hex(0, 1)), Move(unit="a_more", to=Hex(2, 3))):
            assert scene.submit(action)
            frame(app, dt=0.05)
        hashes.append(state_hash(scene.state))
    assert hashes[0] == hashes[1]


def test_volleys_thunder_routs_and_souls_have_their_own_motion(rules: Ruleset, app: App) -> None:
    from game.core.events import Attacked, Routed, SoulsCaptured
    from game.ui.camera import Camera
    from game.ui.geometry import MapGeometry
    from game.ui.motion import MISSILE, SOUL, THUNDER

    loaded = loaded_for(make_scenario(rules, FIELD, UNITS))
    geometry = MapGeometry(loaded.layout, 8, 6)
    motion = Motion(geometry)
    where = {"a": Hex(1, 2), "b": Hex(3, 2)}.get
    fire = Attacked(unit="a", target="b", attacker_losses=0, defender_losses=50, mode="fire")
    blast = Attacked(unit="a", target="b", attacker_losses=0, defender_losses=80, mode="blast")
    motion.play([fire, blast, Routed(unit="b", side="b"), SoulsCaptured(unit="a", side="a", count=40)], "normal", where)
    colours = [f.colour for f in motion.flights]
    assert colours.count(MISSILE) == 1 and colours.count(THUNDER) == 1 and colours.count(SOUL) == 6
    assert motion.glides["b"].shake and "a" not in motion.glides  # no lunge for shooting
    motion.tick(0.1)
    surface = pygame.Surface((800, 600))
    motion.draw(surface, Camera(geometry.pixel_size, (800, 600)))
    motion.tick(10.0)
    assert not motion.active


def test_the_pouch_counts_up_to_the_souls_bagged(app: App, rules: Ruleset, own_settings: None) -> None:
    from game.core.actions import Capture
    from game.core.souls import add_souls
    from game.i18n import format_men

    units = [Unit("a_ret", "a", "retainer", 2000, (1, 2)), Unit("b_far", "b", "soul_levy", 500, (7, 5))]
    scenario = make_scenario(rules, FIELD, units, turn_limit=6)
    scene = app.go("battle", match=Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "ai"}))
    assert isinstance(scene, BattleScene)
    add_souls(scene.state, scene.state.formations["a_ret"].pos, "b", 900)
    assert scene.submit(Capture(unit="a_ret"))
    real = scene.state.side("a").pouch
    assert real > 0 and scene.panels.hud.counting and scene.animating()
    assert f"Pouch {format_men(real)}" not in scene.panels.hud.side_label("a")  # it starts from the old count
    for _ in range(40):
        frame(app, dt=0.05)
    assert not scene.panels.hud.counting and f"Pouch {format_men(real)}" in scene.panels.hud.side_label("a")
