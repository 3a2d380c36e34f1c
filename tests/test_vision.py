"""Fog of war and ambush: sight, shared sight, hidden ambushers, moves that stop on what they
could not see, surprise attacks, explored ground, the AI's view and the fogged screen."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import EngineFactory, Unit, loaded_for, make_scenario

from game.ai.basic import BasicAI
from game.content.errors import ContentErrors
from game.content.scenarios import LoadedScenario, load_scenario, load_scenario_file
from game.core import vision
from game.core.actions import Action, Attack, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, Moved, Revealed
from game.core.hexgrid import Hex, distance
from game.core.movement import search_moves
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.paths import MAPS_DIR
from game.record.match import Match
from game.ui.app import App
from game.ui.battle import BattleScene

LINE = ("..............",)  # one row: axial (q, 0) is column q, so distances are plain
TWO_ROWS = ("........", "...h....")  # Hex(3, 1) is hills, next to Hex(3, 0) and Hex(4, 0)


def sees(eng: Engine, side: str, unit: str) -> bool:
    return vision.sees_formation(eng.state, eng.board, eng.rules, side, eng.state.formations[unit])


def visible(eng: Engine, side: str) -> frozenset[Hex]:
    return vision.visible_hexes(eng.state, eng.board, eng.rules, side)


# -- sight ------------------------------------------------------------------------------------


def test_sight_reaches_the_unit_types_vision_and_high_ground_adds_one(small_engine: EngineFactory) -> None:
    assert small_engine(LINE, []).rules.units["han_soldier"].vision == 4
    units = [Unit("han", "a", "han_soldier", 100, Hex(0, 0)), Unit("near", "b", "soul_levy", 100, Hex(4, 0))]
    eng = small_engine(LINE, [*units, Unit("far", "b", "soul_levy", 100, Hex(5, 0))])
    assert Hex(4, 0) in visible(eng, "a") and Hex(5, 0) not in visible(eng, "a")
    assert sees(eng, "a", "near") and not sees(eng, "a", "far")
    hill = small_engine(("h" + LINE[0][1:],), [*units, Unit("far", "b", "soul_levy", 100, Hex(5, 0))])
    assert sees(hill, "a", "far")
    assert Hex(6, 0) not in visible(hill, "a")


def test_forest_hides_what_lies_behind_it_but_not_itself(small_engine: EngineFactory) -> None:
    eng = small_engine(("..f...........",), [Unit("han", "a", "han_soldier", 100, Hex(0, 0))])
    seen = visible(eng, "a")
    assert Hex(2, 0) in seen
    assert Hex(3, 0) not in seen and Hex(4, 0) not in seen
    clear = small_engine(LINE, [Unit("han", "a", "han_soldier", 100, Hex(0, 0))])
    assert Hex(3, 0) in visible(clear, "a")


def test_allies_share_sight(rules: Ruleset) -> None:
    grid = ("." * 16,)
    sc = make_scenario(
        rules,
        grid,
        [
            Unit("han", "a", "han_soldier", 100, Hex(0, 0)),
            Unit("scout", "c", "han_soldier", 100, Hex(12, 0)),
            Unit("levy", "b", "soul_levy", 100, Hex(14, 0)),
        ],
        sides=(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("c", "yuqing", "player")),
    )
    lone = Engine(sc, rules, 1)
    assert not sees(lone, "a", "levy") and sees(lone, "c", "levy")
    sides = tuple(s.model_copy(update={"allies": ("c",)}) if s.id == "a" else s for s in sc.sides)
    allied = Engine(dataclasses.replace(sc, sides=sides), rules, 1)
    assert sees(allied, "a", "levy") and sees(allied, "c", "levy")
    assert visible(allied, "a") == visible(allied, "c")
    assert "14,0" in allied.state.side("a").explored


# -- ambush -----------------------------------------------------------------------------------


def test_a_hidden_ambusher_is_unseen_until_an_enemy_stands_next_to_it(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("....h.........",),
        [
            Unit("han", "a", "han_soldier", 100, Hex(0, 0)),
            Unit("amb", "b", "ambush_host", 500, Hex(4, 0), hidden=True),
        ],
    )
    assert Hex(4, 0) in visible(eng, "a")
    assert not sees(eng, "a", "amb")
    assert eng.attack_targets("han") == []
    eng.apply(Move(unit="han", to=Hex(2, 0)))  # two hexes away: still unseen
    assert not sees(eng, "a", "amb") and eng.state.formations["amb"].hidden
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    events = eng.apply(Move(unit="han", to=Hex(3, 0)))
    assert Revealed(unit="amb", by="han") in events
    assert not eng.state.formations["amb"].hidden and sees(eng, "a", "amb")


def test_a_move_past_a_hidden_ambusher_stops_next_to_it(small_engine: EngineFactory, rules: Ruleset) -> None:
    units = [
        Unit("han", "a", "han_soldier", 100, Hex(0, 0)),
        Unit("amb", "b", "ambush_host", 500, Hex(3, 1), hidden=True),
    ]
    eng = small_engine(TWO_ROWS, units)
    han = eng.state.formations["han"]
    # Knowing everything, the zone of control at Hex(3, 0) would end the march there.
    assert Hex(4, 0) not in search_moves(eng.state, eng.board, rules, han).destinations
    assert Hex(4, 0) in eng.moves("han").destinations
    events = eng.apply(Move(unit="han", to=Hex(4, 0)))
    moved = events[0]
    assert isinstance(moved, Moved) and moved.interrupted
    assert moved.path == (Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0))
    assert Revealed(unit="amb", by="han") in events
    assert han.pos == Hex(3, 0) and not eng.state.formations["amb"].hidden
    # Without the ambush the same order is carried out in full.
    open_ground = small_engine(TWO_ROWS, [units[0], dataclasses.replace(units[1], at=Hex(7, 1))])
    moved = open_ground.apply(Move(unit="han", to=Hex(4, 0)))[0]
    assert isinstance(moved, Moved) and not moved.interrupted and moved.path[-1] == Hex(4, 0)


def test_unseen_enemies_neither_block_nor_hold_a_zone_of_control(small_engine: EngineFactory, rules: Ruleset) -> None:
    eng = small_engine(
        ("........", "........"),
        [Unit("horse", "a", "warrior", 100, Hex(0, 0)), Unit("levy", "b", "soul_levy", 100, Hex(5, 1))],
    )
    horse = eng.state.formations["horse"]
    assert not sees(eng, "a", "levy")  # six hexes off; the riders see five
    full = search_moves(eng.state, eng.board, rules, horse)
    seen = eng.moves("horse")
    # Knowing everything, the levy's zone of control at Hex(5, 0) ends the ride and its hex is taken.
    assert Hex(5, 0) in full.destinations and Hex(7, 0) not in full.destinations
    assert Hex(5, 1) not in full.destinations
    assert Hex(7, 0) in seen.destinations and Hex(5, 1) in seen.destinations


def test_an_enemy_coming_into_view_stops_the_march(small_engine: EngineFactory) -> None:
    eng = small_engine(
        LINE, [Unit("han", "a", "han_soldier", 100, Hex(0, 0)), Unit("levy", "b", "soul_levy", 100, Hex(7, 0))]
    )
    assert not sees(eng, "a", "levy")
    events = eng.apply(Move(unit="han", to=Hex(4, 0)))
    moved = events[0]
    assert isinstance(moved, Moved) and moved.interrupted
    assert moved.path[-1] == Hex(3, 0)  # from there the levy, four hexes off, is in sight
    assert not any(isinstance(ev, Revealed) for ev in events)
    assert sees(eng, "a", "levy")


def test_a_formation_it_could_not_see_blocks_the_way(small_engine: EngineFactory) -> None:
    """Stepping onto an unseen formation's hex is impossible: the column halts before it."""
    eng = small_engine(
        ("..f.........",),
        [
            Unit("horse", "a", "warrior", 100, Hex(0, 0)),
            Unit("guard", "n", "fort_garrison", 100, Hex(3, 0)),
            Unit("levy", "b", "soul_levy", 100, Hex(11, 0)),
        ],
        sides=(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("n", "tangut", "neutral")),
    )
    assert not sees(eng, "a", "guard")
    assert Hex(4, 0) in eng.moves("horse").destinations
    moved = eng.apply(Move(unit="horse", to=Hex(4, 0)))[0]
    assert isinstance(moved, Moved) and moved.interrupted and moved.path[-1] == Hex(2, 0)
    assert eng.state.formations["horse"].pos == Hex(2, 0)


def test_a_march_that_sights_an_enemy_from_a_friends_hex_halts_past_it_with_the_enemy_in_view(
    small_engine: EngineFactory,
) -> None:
    eng = small_engine(
        LINE,
        [
            Unit("horse", "a", "warrior", 100, Hex(0, 0)),  # sees five hexes
            Unit("friend", "a", "sword_spirit", 100, Hex(3, 0)),  # sees four
            Unit("levy", "b", "soul_levy", 100, Hex(8, 0)),
        ],
    )
    assert not sees(eng, "a", "levy")
    # From the friend's hex the riders see the levy; they cannot halt there, and falling back
    # would lose the levy from view again, so they halt on the next free hex.
    moved = eng.apply(Move(unit="horse", to=Hex(6, 0)))[0]
    assert isinstance(moved, Moved) and moved.interrupted
    assert moved.path[-1] == Hex(4, 0) and eng.state.formations["horse"].pos == Hex(4, 0)
    assert sees(eng, "a", "levy")  # the log's "an enemy came into view" is true


def test_a_surprise_attack_out_of_hiding(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("hh......",),
        [
            Unit("han", "a", "han_soldier", 1000, Hex(2, 0)),
            Unit("amb", "b", "ambush_host", 3000, Hex(0, 0), hidden=True),
        ],
    )
    eng.apply(EndTurn())
    # The ambushers creep up through the hills: still hidden next to the enemy.
    eng.apply(Move(unit="amb", to=Hex(1, 0)))
    amb = eng.state.formations["amb"]
    assert amb.hidden and amb.pos == Hex(1, 0)
    fc = eng.forecast(Attack(unit="amb", target="han"))
    assert "Surprise" in [m.name for m in fc.modifiers]
    assert not fc.setup.retaliation and fc.attacker_losses == (0, 0, 0)
    han_morale = eng.state.formations["han"].morale
    events = eng.apply(Attack(unit="amb", target="han"))
    attacked = next(ev for ev in events if isinstance(ev, Attacked))
    assert attacked.surprise and attacked.attacker_losses == 0 and attacked.defender_losses > 0
    assert Revealed(unit="amb") in events and not amb.hidden
    assert eng.state.formations["han"].morale < han_morale


def test_ambushers_that_crept_up_are_found_when_the_enemy_turn_begins(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("hh......",),
        [
            Unit("han", "a", "han_soldier", 1000, Hex(2, 0)),
            Unit("amb", "b", "ambush_host", 300, Hex(0, 0), hidden=True),
        ],
    )
    eng.apply(EndTurn())
    eng.apply(Move(unit="amb", to=Hex(1, 0)))
    events = eng.apply(EndTurn())
    assert Revealed(unit="amb", by="han") in events
    assert not eng.state.formations["amb"].hidden


def test_hidden_formations_leaving_cover_are_seen(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("h.............",),
        [Unit("han", "a", "han_soldier", 100, Hex(6, 0)), Unit("amb", "b", "ambush_host", 300, Hex(0, 0), hidden=True)],
    )
    eng.apply(EndTurn())
    assert not sees(eng, "a", "amb")
    events = eng.apply(Move(unit="amb", to=Hex(2, 0)))
    assert Revealed(unit="amb") in events
    assert not eng.state.formations["amb"].hidden and sees(eng, "a", "amb")


# -- explored ground and the AI's view --------------------------------------------------------


def test_explored_ground_grows_stays_sorted_and_includes_the_way(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("." * 20,), [Unit("han", "a", "han_soldier", 100, Hex(0, 0)), Unit("levy", "b", "soul_levy", 100, Hex(19, 0))]
    )
    before = list(eng.state.side("a").explored)
    assert before == sorted(before) and set(before) == {f"{q},0" for q in range(5)}
    eng.apply(Move(unit="han", to=Hex(4, 0)))
    after = eng.state.side("a").explored
    assert after == sorted(after) and len(after) == len(set(after))
    assert set(before) < set(after) and "8,0" in after and "9,0" not in after
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    eng.apply(Move(unit="han", to=Hex(0, 0)))
    assert set(eng.state.side("a").explored) >= set(after)  # ground once seen stays explored


def test_side_view_holds_only_what_the_side_sees(small_engine: EngineFactory) -> None:
    eng = small_engine(
        ("............fh",),
        [
            Unit("han", "a", "han_soldier", 100, Hex(0, 0)),
            Unit("near", "b", "soul_levy", 100, Hex(3, 0)),
            Unit("far", "b", "soul_levy", 100, Hex(10, 0)),
            Unit("amb", "b", "ambush_host", 100, Hex(13, 0), hidden=True),
        ],
    )
    eng.state.field_souls = {"2,0": {"b": 50}, "9,0": {"b": 70}}
    before = state_hash(eng.state)
    view = vision.side_view(eng.state, eng.board, eng.rules, "a")
    assert sorted(view.formations) == ["han", "near"]
    assert view.field_souls == {"2,0": {"b": 50}}
    assert state_hash(eng.state) == before  # the real game is untouched
    enemy_view = vision.side_view(eng.state, eng.board, eng.rules, "b")
    assert sorted(enemy_view.formations) == ["amb", "far", "han", "near"]


def test_the_ai_does_not_go_for_an_enemy_it_cannot_see(small_engine: EngineFactory) -> None:
    def build(hidden: bool) -> Engine:
        return small_engine(
            ("h.............",),
            [
                Unit("han", "a", "han_soldier", 3000, Hex(2, 0)),
                Unit("amb", "b", "ambush_host", 100, Hex(0, 0), hidden=hidden),
                Unit("levy", "b", "soul_levy", 100, Hex(13, 0)),
            ],
        )

    # In plain sight the small ambush party is a gift, and the AI takes it.
    seen = BasicAI(build(False), "a").next_action()
    assert seen == Move(unit="han", to=Hex(1, 0)) or seen == Attack(unit="han", target="amb")
    eng = build(True)
    ai = BasicAI(eng, "a")
    action = ai.next_action()
    assert "amb" not in ai.engine.state.formations
    assert isinstance(action, Move) and distance(Hex(*action.to), Hex(0, 0)) > 1
    assert action.to[0] > 2  # it marches on towards where the enemy was deployed in the open
    eng.apply(action)  # legal in the real game


def test_ai_games_stay_deterministic_and_legal_in_the_fog(rules: Ruleset) -> None:
    sc = make_scenario(
        rules,
        ("..........", "...f..h...", "....hh....", "..........", ".........."),
        [
            Unit("han", "a", "han_soldier", 2000, (0, 0)),
            Unit("spirit", "a", "sword_spirit", 800, (0, 4)),
            Unit("amb", "b", "ambush_host", 1500, (4, 2), hidden=True),
            Unit("levy", "b", "soul_levy", 3000, (9, 2)),
        ],
        turn_limit=5,
    )
    settings = GameSettings()

    def run() -> list[str]:
        match = Match(loaded_for(sc), 5, settings, seats={"a": "ai", "b": "ai"})
        ais = {s.id: BasicAI(match.engine, s.id) for s in match.state.sides}
        kinds: set[str] = set()
        while not match.state.over:
            action = ais[match.state.active_side.id].next_action()
            assert action in match.engine.legal_actions()
            kinds.update(ev.kind for ev in match.apply(action))
        assert {"revealed", "attacked"} <= kinds  # the ambush was sprung and fought
        return [c.hash for c in match.record.checkpoints]

    assert run() == run()


# -- content ----------------------------------------------------------------------------------


def _scenario_copy(tmp_path: Path, extra_object: str) -> Path:
    """The A1 scenario copied beside a map with one more formation object."""
    tmx = (MAPS_DIR / "a1_valley_mouth.tmx").read_text(encoding="utf-8")
    tsx = (MAPS_DIR / "../assets/tiles/terrain.tsx").resolve()
    tmx = tmx.replace('source="../assets/tiles/terrain.tsx"', f'source="{tsx}"')
    tmx = tmx.replace("</objectgroup>\n</map>", f"{extra_object}\n </objectgroup>\n</map>")
    assert extra_object in tmx
    (tmp_path / "a1_valley_mouth.tmx").write_text(tmx, encoding="utf-8")
    toml = (MAPS_DIR / "a1_valley_mouth.toml").read_text(encoding="utf-8")
    path = tmp_path / "a1_valley_mouth.toml"
    path.write_text(toml, encoding="utf-8")
    return path


def _object_at(
    loaded: LoadedScenario, terrain_id: str, name: str, unit: str, hidden: str, group: str = ""
) -> tuple[str, Hex]:
    board = loaded.scenario.board
    taken = {f.pos for f in loaded.scenario.formations}
    h = next(h for h in sorted(board.hexes()) if board.terrain_at(h).id == terrain_id and h not in taken)
    x, y = loaded.layout.centre(*board.offset(h))
    group_xml = f'<property name="group" value="{group}"/>' if group else ""
    xml = (
        f'  <object id="900" name="{name}" class="formation" x="{x}" y="{y}"><properties>'
        f'<property name="side" value="hailing"/><property name="unit" value="{unit}"/>'
        f'<property name="men" type="int" value="2000"/>'
        f'<property name="hidden" type="bool" value="{hidden}"/>{group_xml}'
        "</properties><point/></object>"
    )
    return xml, h


def test_hidden_and_group_load_from_the_map(tmp_path: Path) -> None:
    xml, h = _object_at(load_scenario("a1_valley_mouth"), "forest", "lurkers", "ambush_host", "true", "pass_ambush")
    loaded = load_scenario_file(_scenario_copy(tmp_path, xml))
    spec = next(f for f in loaded.scenario.formations if f.id == "lurkers")
    assert spec.hidden and spec.group == "pass_ambush" and spec.pos == h


@pytest.mark.parametrize(
    ("terrain", "unit", "message"),
    [("plain", "ambush_host", "no cover"), ("forest", "soul_levy", "no ambush ability")],
)
def test_only_ambushers_on_cover_may_start_hidden(tmp_path: Path, terrain: str, unit: str, message: str) -> None:
    xml, _h = _object_at(load_scenario("a1_valley_mouth"), terrain, "lurkers", unit, "true")
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(_scenario_copy(tmp_path, xml))
    [err] = exc.value.errors
    assert (err.object, err.field) == ("lurkers", "hidden")
    assert err.file.endswith("a1_valley_mouth.tmx") and message in err.message


def test_cover_is_forest_hills_and_passes(rules: Ruleset) -> None:
    assert sorted(t for t, v in rules.terrain.items() if v.cover) == ["forest", "hills", "valley"]


# -- the screen ---------------------------------------------------------------------------------

SCREEN_FIELD = ("............", "............", "...h........", "............", "............")


def battle(rules: Ruleset, units: list[Unit], view_side: str | None = None) -> tuple[App, BattleScene]:
    scenario = make_scenario(rules, SCREEN_FIELD, units, turn_limit=5)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "ai"})
    app = App((1280, 800))
    scene = BattleScene(app, match, view_side=view_side)
    app.switch(scene)
    app.step([], 0.0)
    return app, scene


def banner_pixels(scene: BattleScene, h: Hex, colour: tuple[int, int, int]) -> int:
    import pygame

    x, y = scene.camera.to_screen(scene.geometry.centre(h))
    box = pygame.Rect(0, 0, 30, 30)
    box.center = (round(x), round(y))
    area = scene.app.screen.subsurface(box)
    return pygame.mask.from_threshold(area, colour, (1, 1, 1, 255)).count()


SCREEN_UNITS = [
    Unit("han", "a", "han_soldier", 1000, (0, 2)),
    Unit("near", "b", "soul_levy", 500, (3, 0)),  # four hexes from the Han soldiers: in sight
    Unit("far", "b", "soul_levy", 500, (11, 4)),
]


def test_the_screen_draws_only_what_the_human_side_sees(rules: Ruleset) -> None:
    from game.ui.board_view import FOG_UNEXPLORED

    app, scene = battle(rules, SCREEN_UNITS)
    near, far = (scene.state.formations[k].pos for k in ("near", "far"))
    hailing = rules.factions["hailing"].colour
    assert scene.session.fog_side() == "a" and scene.session.view().fog is not None
    assert banner_pixels(scene, near, hailing) > 0
    assert banner_pixels(scene, far, hailing) == 0
    x, y = scene.camera.to_screen(scene.geometry.centre(far))
    assert tuple(app.screen.get_at((round(x), round(y))))[:3] == FOG_UNEXPLORED[:3]
    _app, everything = battle(rules, SCREEN_UNITS, view_side="all")
    assert everything.session.view().fog is None and banner_pixels(everything, far, hailing) > 0


def test_enemy_moves_out_of_sight_are_neither_shown_nor_waited_for(rules: Ruleset) -> None:
    from game.ui.computer_turns import AI_STEP_DELAY

    _app, scene = battle(rules, SCREEN_UNITS)
    scene.submit(EndTurn())
    orders = iter([Move(unit="far", to=Hex(8, 4)), Move(unit="near", to=Hex(2, 0))])

    class Scripted:
        def next_action(self) -> Action:
            return next(orders)

    scene.computer.ais["b"] = Scripted()  # type: ignore[assignment]

    def ai_step() -> None:
        scene.computer.update(0.0)  # the computer is asked (it thinks in the background) ...
        assert scene.computer.worker.wait(2.0)
        scene.computer.update(0.0)  # ... and its answer is applied

    ai_step()
    assert scene.state.formations["far"].pos == Hex(8, 4)
    assert scene.last_move == [] and scene.computer.timer == 0.0
    ai_step()
    assert scene.last_move and scene.last_move[-1] == Hex(2, 0) and scene.computer.timer == AI_STEP_DELAY


def test_a_click_on_an_unseen_enemy_orders_a_march_into_it(rules: Ruleset) -> None:
    units = [*SCREEN_UNITS, Unit("amb", "b", "ambush_host", 300, (3, 2), hidden=True)]
    _app, scene = battle(rules, units)
    amb = scene.state.formations["amb"]
    scene.click_hex(scene.state.formations["han"].pos)
    assert scene.session.choice.move_map is not None and amb.pos in scene.session.choice.move_map.destinations
    scene.click_hex(amb.pos)
    assert scene.match.record.actions == [Move(unit="han", to=amb.pos)]
    assert distance(scene.state.formations["han"].pos, amb.pos) == 1 and not amb.hidden


def test_the_formations_a_side_sees_are_those_on_the_ground_it_sees_through_a_whole_battle() -> None:
    """``seen_formations`` (which asks of each formation whether one of the side's eyes sees its
    hex) against the rule written out: friends, the hidden from next door, the rest on a hex in
    the side's sight, at every action of two computer-played side-turns a side of A1."""
    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 5, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    generals = {s.id: BasicAI(match.engine, s.id) for s in match.state.sides}
    checked = 0
    for _ in range(4):
        for _ in range(60):
            eng = match.engine
            for side in (s.id for s in eng.state.sides):
                sight = visible(eng, side)
                friends = {f.pos for f in eng.state.formations.values() if f.side == side}
                expected = [
                    f.id
                    for f in (eng.state.formations[k] for k in sorted(eng.state.formations))
                    if f.side == side
                    or (f.hidden and any(distance(f.pos, h) == 1 for h in friends))
                    or (not f.hidden and f.pos in sight)
                ]
                assert [f.id for f in vision.seen_formations(eng.state, eng.board, eng.rules, side)] == expected
                checked += 1
            action = generals[eng.state.active_side.id].next_action()
            match.apply(action)
            if isinstance(action, EndTurn) or match.state.over:
                break
    assert checked > 50 and any(f.side != "coalition" for f in match.state.formations.values())
