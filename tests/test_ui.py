"""The screens driven headless through ``App.step`` with synthetic mouse and key events.

Clicks land at screen pixels computed from the map geometry and the camera, button presses go
through pygame_gui (its events are fed back in the next step), and every check looks at the
engine state, the record or the rendered frame.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame
import pytest
from conftest import (
    Unit,
    current,
    frame,
    loaded_for,
    make_scenario,
    open_field,
    pass_curtain,
    root_elements,
    saves_folder_at,
)
from pygame_gui.elements import UIDropDownMenu, UILabel
from pygame_gui.elements.ui_drop_down_menu import UIExpandedDropDownState

from game.content.scenarios import load_scenario
from game.core.actions import Attack, EndTurn, Move
from game.core.engine import GameSettings
from game.core.hexgrid import Hex, distance
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record import saves
from game.record.match import Match, new_match
from game.record.seats import Commander
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.computer_turns import AI_STEP_DELAY
from game.ui.dialog import DialogScene
from game.ui.handover import HandoverScene
from game.ui.menu import MenuScene
from game.ui.quick_battle import QuickBattleScene
from game.ui.result import ResultScene
from game.ui.saves_screen import SaveScreen
from game.ui.scene import Scene
from game.ui.seal_setup import SealSetupScene

SIZE = (1280, 800)
HANDOVER_BG = (16, 17, 20)
A1 = "a1_valley_mouth"

FIELD = ("........",) * 6  # 8 x 6 hexes of open plain


# -- fixtures and helpers -------------------------------------------------------------------


# The screens are checked in English (their own tests switch language where it matters).
pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def saves_dir(app: App, tmp_path: Path) -> Path:
    """Quicksaves and saved records go to a temporary folder."""
    folder = tmp_path / "saves"
    app.saves = saves_folder_at(folder)
    return folder


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    pos = (int(pos[0]), int(pos[1]))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False),
    )


def click_deliberately(app: App, curtain: HandoverScene) -> None:
    """Click the curtain's ready button once the curtain is armed."""
    pos = curtain.ready.rect.center
    at = curtain.act.armed_at
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False, timestamp=at),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False, timestamp=at + 80),
    )


def press(app: App, key: int, mod: int = 0, dt: float = 0.0) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0), dt=dt)


def hex_on_screen(scene: BattleScene, h: Hex, centre_camera: bool = False) -> tuple[int, int]:
    """The screen pixel of a hex centre, checked to be a click on the map (not on the HUD)."""
    if centre_camera:
        scene.camera.centre_on(scene.geometry.centre(h))
    x, y = scene.camera.to_screen(scene.geometry.centre(h))
    pos = (round(x), round(y))
    w, h_ = scene.app.size
    assert 0 <= pos[0] < w and 0 <= pos[1] < h_, f"{h} is off screen at {pos}"
    assert not scene.panels.hud.covers(pos) and not scene.panels.end_turn_button.rect.collidepoint(pos)
    assert scene.geometry.hex_at(*scene.camera.to_map(pos)) == h
    return pos


def click_hex(app: App, h: Hex, centre_camera: bool = False) -> None:
    scene = app.scene
    assert isinstance(scene, BattleScene)
    click(app, hex_on_screen(scene, h, centre_camera))


def colour_count(surface: pygame.Surface, colour: pygame.typing.ColorLike, rect: pygame.Rect | None = None) -> int:
    area = surface.subsurface(rect) if rect is not None else surface
    return pygame.mask.from_threshold(area, colour, (1, 1, 1, 255)).count()


def labels(scene: Scene | None) -> list[str]:
    return [e.text for e in root_elements(scene) if isinstance(e, UILabel)]


def destinations(scene: BattleScene) -> frozenset[Hex]:
    """Where the selected formation can move."""
    move_map = scene.session.choice.move_map
    assert move_map is not None
    return move_map.destinations


def field_match(
    rules: Ruleset, units: list[Unit], seed: int = 3, controllers: dict[str, Commander] | None = None
) -> Match:
    scenario = make_scenario(rules, FIELD, units, turn_limit=5)
    return Match(loaded_for(scenario), seed, GameSettings(), seats=controllers or {"a": "human", "b": "ai"})


FIELD_UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (2, 2)),
    Unit("a_guard", "a", "retainer", 800, (1, 4)),
    Unit("b_levy", "b", "soul_levy", 1500, (3, 2)),
    Unit("b_rear", "b", "soul_levy", 1500, (5, 0)),  # in sight of a_foot: no surprises in the fog
]


@pytest.fixture
def field(app: App, rules: Ruleset) -> BattleScene:
    """A battle on open ground: side a (human) against side b (computer), a_foot next to b_levy."""
    scene = app.go("battle", match=field_match(rules, FIELD_UNITS))
    assert isinstance(scene, BattleScene)
    assert app.scene is scene
    frame(app)
    return scene


# -- menu, hotseat and hand-over ------------------------------------------------------------


def choose(app: App, dropdown: UIDropDownMenu, option: str) -> None:
    click(app, dropdown.rect.center)
    expanded = dropdown.current_state
    assert isinstance(expanded, UIExpandedDropDownState)
    assert expanded.options_selection_list is not None
    items = expanded.options_selection_list.item_list
    button = next(i["button_element"] for i in items if i["text"] == option)
    click(app, button.rect.center)


def assert_board_hidden(app: App, battle: BattleScene, hidden_side: str) -> None:
    screen = app.screen
    w, h = screen.get_size()
    faction = battle.rules.factions[battle.state.side(hidden_side).faction]
    assert colour_count(screen, faction.colour) == 0
    # Above the side's colour chip and below the buttons (ready; watch what was seen) there is
    # nothing but the backdrop.
    for band in (pygame.Rect(0, 0, w, h // 2 - 210), pygame.Rect(0, h // 2 + 130, w, h - h // 2 - 130)):
        assert colour_count(screen, HANDOVER_BG, band) == band.w * band.h


def assert_board_shown(app: App, battle: BattleScene) -> None:
    screen = app.screen
    w, h = screen.get_size()
    band = pygame.Rect(0, 0, w, h // 2 - 210)
    assert colour_count(screen, HANDOVER_BG, band) < band.w * band.h // 2
    # The viewer's own banners; the enemy's may well be out of sight in the fog of war.
    assert battle.session.viewer is not None
    faction = battle.rules.factions[battle.state.side(battle.session.viewer).faction]
    assert colour_count(screen, faction.colour) > 0, f"no banner of {battle.session.viewer} on screen"


def test_menu_starts_a_hotseat_battle_behind_hand_over_screens(app: App) -> None:
    app.switch(QuickBattleScene(app))
    frame(app)
    menu = current(app, QuickBattleScene)
    assert menu.controllers == {"coalition": "human", "hailing": "ai"}
    choose(app, menu.side_menus["hailing"], "Human")
    assert menu.controllers == {"coalition": "human", "hailing": "human"}

    click(app, menu.start_button.rect.center)
    seals = app.scene  # first each side may set a pass phrase; these two set none
    assert isinstance(seals, SealSetupScene) and list(seals.entries) == ["coalition", "hailing"]
    click(app, seals.start_button.rect.center)
    handover = app.scene
    assert isinstance(handover, HandoverScene) and handover.side_id == "coalition"
    assert handover.phrase is None
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene) and handover.session is battle.session
    assert battle.match.loaded.scenario.id == A1 and battle.session.is_hotseat()
    assert battle.match.record.actions == []
    frame(app)
    assert_board_hidden(app, battle, "hailing")
    assert "Yuqing Palace coalition" in labels(handover)

    click(app, handover.ready.rect.center)  # too soon after it opened: a double-click's second click
    assert app.scene is handover
    click_deliberately(app, handover)
    on_top: object = app.scene  # the curtain has gone since the check above
    assert on_top is battle and battle.session.viewer == "coalition"
    frame(app)
    assert_board_shown(app, battle)

    # The End turn button: the turn passes to the other human, behind a hand-over screen.
    click(app, battle.panels.end_turn_button.rect.center)
    assert battle.match.record.actions == [EndTurn()]
    assert battle.state.active_side.id == "hailing"
    handover = app.scene
    assert isinstance(handover, HandoverScene) and handover.side_id == "hailing"
    for _ in range(3):  # waiting does not reveal anything
        frame(app, dt=0.5)
        assert_board_hidden(app, battle, "coalition")
    pass_curtain(app)
    back: object = app.scene
    assert back is battle and battle.session.viewer == "hailing"
    # First what his formations saw of the coalition's turn (nothing: it only ended its turn),
    # then Wanyan Liang's words open his first turn; Enter closes each.
    assert battle.narration.active
    assert battle.narration.queue[0][0].startswith("While you waited, your formations saw nothing")
    press(app, pygame.K_RETURN)
    assert battle.narration.queue[0][1] == "wanyan_liang"
    press(app, pygame.K_RETURN)
    assert not battle.narration.active
    frame(app)
    assert_board_shown(app, battle)

    # The E key ends the turn too; turn 2 begins with the first side, again behind the screen.
    press(app, pygame.K_e)
    assert battle.match.record.actions == [EndTurn(), EndTurn()]
    assert battle.state.turn == 2 and battle.state.active_side.id == "coalition"
    assert current(app, HandoverScene).side_id == "coalition"


def test_menu_start_against_the_computer_has_no_hand_over(app: App) -> None:
    app.switch(QuickBattleScene(app))
    frame(app)
    press(app, pygame.K_RETURN)
    scene = app.scene
    assert isinstance(scene, BattleScene) and not scene.session.is_hotseat()
    assert not scene.match.seats.is_human("hailing")
    assert scene.session.human_to_move() and scene.state.active_side.id == "coalition"


# -- selecting, moving, attacking -----------------------------------------------------------


def test_click_selects_and_shows_where_it_can_move(app: App, field: BattleScene) -> None:
    guard = field.state.formations["a_guard"]
    before = app.screen.copy()
    click_hex(app, guard.pos)
    assert field.session.selected == "a_guard"
    reachable = destinations(field)
    assert reachable and guard.pos not in reachable
    frame(app)
    # Reachable hexes are lightened on screen; the others are left as they were.
    occupied = set(field.state.occupancy())
    for h in reachable - occupied:
        pos = hex_on_screen(field, h)
        assert sum(app.screen.get_at(pos)[:3]) > sum(before.get_at(pos)[:3]), h
    outside = [h for h in field.match.loaded.scenario.board.terrain if h not in reachable and h not in occupied]
    for h in outside[:5]:
        pos = hex_on_screen(field, h)
        assert app.screen.get_at(pos) == before.get_at(pos), h

    # A second click on the same formation drops the selection; clicking it again picks it up.
    click_hex(app, guard.pos)
    assert field.session.selected is None and field.session.choice.move_map is None
    click_hex(app, guard.pos)
    assert field.session.selected == "a_guard"


def test_click_on_a_reachable_hex_moves(app: App, field: BattleScene) -> None:
    guard = field.state.formations["a_guard"]
    start = guard.pos
    click_hex(app, start)
    board = field.match.loaded.scenario.board
    unreachable = next(h for h in board.terrain if h not in destinations(field) and h not in field.state.occupancy())
    click_hex(app, unreachable)
    assert field.match.record.actions == [] and field.session.selected == "a_guard"

    target = max(destinations(field) - {start}, key=lambda h: (distance(start, h), h.q, h.r))
    click_hex(app, target)
    assert field.match.record.actions == [Move(unit="a_guard", to=target)]
    moved = field.state.formations["a_guard"]
    assert moved.pos == target and moved.moved
    assert field.session.choice.move_map is None  # it cannot move again this turn
    assert field.last_move[0] == start and field.last_move[-1] == target


def test_attack_shows_the_forecast_and_confirming_attacks(app: App, field: BattleScene) -> None:
    state = field.state
    foot, levy = state.formations["a_foot"], state.formations["b_levy"]
    click_hex(app, foot.pos)
    assert levy.pos in field.overlays().targets
    click_hex(app, levy.pos)
    assert field.session.choice.pending_attack == Attack(unit="a_foot", target="b_levy")
    forecast = field.panels.hud.forecast
    assert forecast is not None and forecast.setup.defender == "b_levy"
    assert field.panels.hud.confirm_button.visible and field.panels.hud.cancel_button.visible
    frame(app)
    assert field.panels.hud.panel_rect.contains(field.panels.hud.confirm_button.rect)
    assert field.match.record.actions == [] and state.formations["b_levy"].men == 1500

    # Esc drops the forecast, not the selection.
    press(app, pygame.K_ESCAPE)
    assert field.session.choice.pending_attack is None and field.session.selected == "a_foot"
    assert not field.panels.hud.confirm_button.visible

    click_hex(app, levy.pos)
    frame(app)
    click(app, field.panels.hud.confirm_button.rect.center)
    assert field.match.record.actions == [Attack(unit="a_foot", target="b_levy")]
    after = field.state.formations.get("b_levy")
    assert after is None or after.men < 1500
    assert field.state.formations["a_foot"].acted
    assert field.session.choice.pending_attack is None and not field.panels.hud.confirm_button.visible
    assert any("attacked" in line for line in field.log.lines)


def test_no_orders_while_the_computer_moves(app: App, field: BattleScene) -> None:
    press(app, pygame.K_e)
    assert field.state.active_side.id == "b"
    assert not field.panels.end_turn_button.is_enabled
    count = len(field.match.record.actions)
    foot = field.state.formations["a_foot"]
    click_hex(app, foot.pos)
    press(app, pygame.K_e)
    assert field.session.selected is None
    # Only the computer's own moves (it thinks in the background) are played meanwhile.
    later = field.match.record.actions[count:]
    assert all(getattr(a, "unit", None) != "a_foot" for a in later) and EndTurn() not in later[:-1]
    assert len(later) <= 1 and field.state.active_side.id == "b"


# -- the computer's turn --------------------------------------------------------------------


def test_the_computer_plays_move_by_move(app: App) -> None:
    scene = app.go("battle", match=new_match(A1, {"coalition": "human", "hailing": "ai"}, seed=5))
    assert isinstance(scene, BattleScene)
    frame(app)
    record = scene.match.record
    press(app, pygame.K_e)
    assert record.actions[0] == EndTurn()
    assert scene.state.active_side.id == "hailing"
    # The computer waits while the narration that opens its turn is read.
    assert scene.narration.active
    frame(app, dt=AI_STEP_DELAY * 4)
    assert len(record.actions) == 1
    press(app, pygame.K_RETURN)

    counts = [len(record.actions)]
    for _ in range(2000):
        if scene.state.active_side.id != "hailing":
            break
        frame(app, dt=AI_STEP_DELAY / 4)
        counts.append(len(record.actions))
    else:
        raise AssertionError("the computer never ended its turn")
    steps = [b - a for a, b in zip(counts, counts[1:], strict=False)]
    ai_actions = record.actions[1:]
    assert len(ai_actions) >= 3 and ai_actions[-1] == EndTurn()
    assert any(isinstance(a, Move | Attack) for a in ai_actions)
    assert max(steps) == 1  # one action per frame at most
    assert steps.count(0) >= 2 * (len(ai_actions) - 1)  # with a pause between two actions

    assert app.scene is scene and scene.state.active_side.id == "coalition" and scene.state.turn == 2
    assert scene.panels.end_turn_button.is_enabled and scene.session.human_to_move()
    assert scene.narration.active  # turn 2 opens with news from the front (and the retainers come up)
    while scene.narration.active:
        press(app, pygame.K_RETURN)

    # Space: the computer's next turn is played without pauses, as fast as it decides.
    press(app, pygame.K_SPACE)
    assert scene.computer.fast
    press(app, pygame.K_e)
    for _ in range(2000):
        if scene.state.active_side.id == "coalition":
            break
        frame(app)  # dt 0: no pause would ever run out
    assert scene.state.active_side.id == "coalition" and scene.state.turn == 3
    assert record.actions[-1] == EndTurn()


# -- saving and loading ---------------------------------------------------------------------


def _move_any(app: App, scene: BattleScene, skip: set[str]) -> str:
    """Select an own formation by clicking it and move it one hex by clicking; returns its id."""
    side = scene.state.active_side.id
    for f in sorted(scene.state.formations_of(side), key=lambda f: f.id):
        if f.id in skip:
            continue
        click_hex(app, f.pos, centre_camera=True)
        assert scene.session.selected == f.id
        near = sorted(h for h in destinations(scene) if distance(f.pos, h) == 1)
        if near:
            before = len(scene.match.record.actions)
            click_hex(app, near[0], centre_camera=True)
            assert len(scene.match.record.actions) == before + 1
            assert scene.state.formations[f.id].pos == near[0]
            return f.id
        click_hex(app, f.pos)  # deselect and try the next one
    raise AssertionError("no formation can move")


def test_quicksave_and_quickload(app: App, saves_dir: Path) -> None:
    scene = app.go("battle", match=new_match(A1, {"coalition": "human", "hailing": "ai"}, seed=2))
    assert isinstance(scene, BattleScene)
    frame(app)

    press(app, pygame.K_F9)  # nothing saved yet: a message, and the battle goes on
    assert app.scene is scene and scene.log.lines[-1].startswith("Cannot load")

    first = _move_any(app, scene, set())
    saved_hash = state_hash(scene.state)
    press(app, pygame.K_F5)
    quicksave = saves_dir / "quicksave.json"
    assert quicksave.is_file() and scene.log.lines[-1] == "Game saved"
    stored = saves.load_record(quicksave)
    assert stored.actions == scene.match.record.actions and len(stored.actions) == 1

    second = _move_any(app, scene, {first})
    assert len(scene.match.record.actions) == 2

    # A move not yet saved: F9 asks first, and keeping on playing keeps it.
    press(app, pygame.K_F9)
    assert current(app, DialogScene).title == "Load the quicksave?"
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene and len(scene.match.record.actions) == 2
    press(app, pygame.K_F9)
    press(app, pygame.K_RETURN)  # load the quicksave
    loaded = app.scene
    assert isinstance(loaded, BattleScene) and loaded is not scene
    assert len(loaded.match.record.actions) == 1 and state_hash(loaded.state) == saved_hash
    assert not loaded.state.formations[second].moved

    # The menu's save screen loads the same quicksave.
    app.switch(MenuScene(app))
    frame(app)
    click(app, current(app, MenuScene).replay_button.rect.center)
    selected = current(app, SaveScreen).selected
    assert selected is not None and selected.stem == "quicksave"
    click(app, current(app, SaveScreen).load_button.rect.center)
    assert state_hash(current(app, BattleScene).state) == saved_hash

    # A damaged quicksave is refused with a message and left as it is.
    quicksave.write_bytes(b"\x00\x01 not a save")
    battle = app.scene
    press(app, pygame.K_F9)
    assert app.scene is battle and battle.log.lines[-1].startswith("Cannot load")
    assert quicksave.read_bytes() == b"\x00\x01 not a save"


# -- the end of the battle ------------------------------------------------------------------


def test_the_last_blow_shows_the_result(app: App, rules: Ruleset, saves_dir: Path) -> None:
    units = [Unit("a_foot", "a", "han_soldier", 3000, (2, 2)), Unit("b_last", "b", "soul_levy", 20, (3, 2))]
    scene = app.go("battle", match=field_match(rules, units, seed=8))
    assert isinstance(scene, BattleScene)
    frame(app)
    click_hex(app, scene.state.formations["a_foot"].pos)
    click_hex(app, scene.state.formations["b_last"].pos)
    assert scene.panels.hud.forecast is not None and scene.panels.hud.forecast.destroys_defender
    press(app, pygame.K_RETURN)

    result = app.scene
    assert isinstance(result, ResultScene)
    assert scene.state.over and scene.state.winner == "a" and scene.state.end_reason == "annihilation"
    assert scene.match.record.actions == [Attack(unit="a_foot", target="b_last")]
    frame(app)
    texts = labels(result)
    # One human: the victory is theirs, and the reason names the side wiped out and the turn.
    assert "Victory" in texts
    assert "Turn 1: the b has no formations left on the field." in texts

    click(app, result.save_button.rect.center)
    [path] = [p for p in saves_dir.glob("*.json") if not p.name.startswith("autosave-")]
    assert result.note is not None and result.note.text.startswith("Saved as")
    assert saves.load_record(path).actions == scene.match.record.actions

    click(app, result.menu_button.rect.center)
    current(app, MenuScene)


def test_loading_a_finished_game_shows_its_result(app: App, rules: Ruleset, saves_dir: Path) -> None:
    """A save of a finished battle opens on the result, not on a board where nobody can move."""
    settings = GameSettings(max_turns=1)
    match = Match(load_scenario(A1), 4, settings, seats={"coalition": "human", "hailing": "ai"})
    while not match.state.over:
        match.apply(EndTurn())
    match.save(saves_dir / "quicksave.json")
    app.switch(MenuScene(app))
    frame(app)
    click(app, current(app, MenuScene).replay_button.rect.center)
    click(app, current(app, SaveScreen).load_button.rect.center)
    result = current(app, ResultScene)
    assert result.match.state.over and result.match.record.actions == match.record.actions


def test_screen_texts_fit_their_labels(app: App, rules: Ruleset) -> None:
    """pygame_gui warns when a label is too small for its text: then the text is cut off."""
    finished = field_match(
        rules, [Unit("a_foot", "a", "han_soldier", 3000, (2, 2)), Unit("b_x", "b", "soul_levy", 20, (3, 2))]
    )
    finished.apply(Attack(unit="a_foot", target="b_x"))
    assert finished.state.over
    hotseat = new_match(A1, {"coalition": "human", "hailing": "human"}, seed=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scenes = [
            MenuScene(app),
            QuickBattleScene(app),
            QuickBattleScene(app, two_players=True),
            HandoverScene(app, BattleScene(app, hotseat, show_handover=False).session, "coalition"),
            ResultScene(app, finished),
        ]
        for scene in scenes:
            app.switch(scene)
            frame(app)
    clipped = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert clipped == []


def test_men_counts_are_drawn_over_every_banner(app: App, field: BattleScene, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a packed line the next row's banners must not hide a formation's strength."""
    view = field.map.board
    calls: list[tuple[str, str]] = []
    token, strength = view.banners.draw, view.banners.draw_strength

    def draw_token(target, camera, f, **kw):  # type: ignore[no-untyped-def]
        calls.append(("banner", f.id))
        return token(target, camera, f, **kw)

    def draw_strength(target, f, bar, zoom) -> None:  # type: ignore[no-untyped-def]
        calls.append(("men", f.id))
        strength(target, f, bar, zoom)

    monkeypatch.setattr(view.banners, "draw", draw_token)
    monkeypatch.setattr(view.banners, "draw_strength", draw_strength)
    assert field.camera.zoom >= 0.75  # counts are drawn at this zoom
    view.redraw()
    frame(app)
    kinds = [kind for kind, _unit in calls]
    banners = {unit for kind, unit in calls if kind == "banner"}
    assert len(banners) >= 2 and "men" in kinds
    assert kinds.index("men") > len(kinds) - kinds[::-1].index("banner") - 1  # every count after every banner
    assert {unit for kind, unit in calls if kind == "men"} == banners


def test_a_click_that_closes_the_words_also_selects(app: App, field: BattleScene) -> None:
    field.narration.push("Words to read first.", None)
    frame(app)
    guard = field.state.formations["a_guard"]
    pos = hex_on_screen(field, guard.pos)
    # The small field lies under the words' box: the box is taken to be elsewhere for this click.
    field.narration.rect = pygame.Rect(0, 0, 40, 40)
    click(app, pos)
    assert not field.narration.active
    assert field.session.selected == "a_guard"
    # A click on the words themselves only closes them.
    field.session.choice.let_go()
    field.narration.push("More words.", None)
    frame(app)
    click(app, field.narration.rect.center)
    assert not field.narration.active and field.session.selected is None


def test_the_march_range_is_bordered_plainly(app: App, field: BattleScene) -> None:
    from game.ui.board_view import REACH_BORDER

    frame(app)
    assert colour_count(app.screen, REACH_BORDER) == 0
    click_hex(app, field.state.formations["a_guard"].pos)
    frame(app)
    assert colour_count(app.screen, REACH_BORDER) > 100


@pytest.mark.parametrize("story", [True, False])
@pytest.mark.parametrize("scenario_id", ["a1_valley_mouth", "b1_the_valley"])
@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_the_battle_briefing_fits_a_small_window_and_nothing_runs_under_its_button(
    scenario_id: str, lang: str, story: bool
) -> None:
    from game import i18n
    from game.record.match import new_match
    from game.ui.battle_briefing import BACKDROP, BattleBriefingScene

    i18n.set_language(lang)
    try:
        small = App((800, 560))
        battle = small.go("battle", match=new_match(scenario_id, {}, seed=1))
        assert isinstance(battle, BattleScene)
        side = battle.session.first_human() or battle.state.active_side.id
        briefing = BattleBriefingScene(small, battle.session, side, story=story)
        briefing.resize(small.size)
        if not story:  # read on the campaign's page just before: the box is no taller than its objectives
            assert briefing._box().height < BattleBriefingScene(small, battle.session, side)._box().height
        surface = pygame.Surface(small.size)
        surface.fill(BACKDROP)
        briefing.draw(surface)
        box = briefing.begin.relative_rect
        assert briefing._box().contains(box)
        # Only the backdrop where the button stands: no objective or line of text under it.
        under = surface.subsurface(box)
        assert pygame.mask.from_threshold(under, BACKDROP, (1, 1, 1, 255)).count() == box.width * box.height
    finally:
        i18n.set_language("en")


def test_a_clicked_enemys_reach_goes_when_the_turn_ends(app: App, field: BattleScene) -> None:
    levy = field.state.formations["b_levy"]
    click_hex(app, levy.pos)
    assert field.looked_at == "b_levy"
    field.end_turn(confirmed=True)
    frame(app)
    assert field.looked_at is None


def test_soul_piles_are_drawn_unlike_the_soul_levys_banner(
    app: App, field: BattleScene, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.core.souls import add_souls

    drawn: list[str] = []
    glyph = field.map.board.banners.glyph

    def noted_glyph(text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        drawn.append(text)
        return glyph(text, size, colour)

    monkeypatch.setattr(field.map.board.banners, "glyph", noted_glyph)
    add_souls(field.state, field.state.formations["a_guard"].pos, "b", 1200)
    field.map.board.redraw()
    frame(app)
    assert "1.2k" in drawn  # the count beside a wisp
    # No 魂 on a pile: that is the soul levy's banner.
    assert not any(text.startswith("魂") and text != "魂" for text in drawn)


def test_aiming_a_blow_at_an_enemy_does_not_shade_its_reach(app: App, field: BattleScene) -> None:
    click_hex(app, field.state.formations["a_foot"].pos)
    click_hex(app, field.state.formations["b_levy"].pos)
    assert field.session.choice.pending_attack is not None
    assert field.looked_at is None and field.overlays().enemy_reach == frozenset()


def test_the_legend_keeps_clear_of_the_unit_panel_in_a_small_window(rules: Ruleset) -> None:
    small = App((800, 560))
    scene = open_field(small, rules, FIELD, FIELD_UNITS)
    frame(small)
    scene.session.selected = "a_foot"
    scene._after_change([])
    press(small, pygame.K_k)
    for _ in range(3):  # the panels settle within a frame or two
        frame(small)
    panels = scene.panels
    assert panels.legend.visible and panels.hud.panel_rect.height > 0
    assert not panels.legend.rect.colliderect(panels.hud.panel_rect)
    assert not panels.unsettled


def test_the_hovered_grounds_line_never_covers_a_tall_forecast(rules: Ruleset) -> None:
    small = App((800, 560))
    scene = open_field(small, rules, FIELD, FIELD_UNITS)
    frame(small)
    scene.session.selected = "a_foot"
    scene.session.click(scene.state.formations["b_levy"].pos)
    scene.panels.refresh_hud(scene.session.pending_forecast())
    frame(small)
    hud, board = scene.panels.hud, scene.match.loaded.scenario.board
    assert hud.forecast is not None and hud.panel_rect.bottom > small.size[1] // 2  # a tall forecast
    plain, hovered = small.screen.copy(), small.screen.copy()
    hud.draw(plain, None, board)
    hud.draw(hovered, scene.state.formations["a_guard"].pos, board)
    assert pygame.image.tobytes(plain, "RGB") == pygame.image.tobytes(hovered, "RGB")
