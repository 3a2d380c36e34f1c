"""Hotseat: after the hand-over a player reads what their own formations saw of the other turn,
and nothing their formations did not see reaches them, in the log, the report or a narration."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from conftest import Unit, at_each_scale, current, frame, loaded_for, make_scenario, pass_curtain, saves_folder_at

from game.content.scenarios import load_scenario
from game.core.actions import Attack, EndTurn, Move
from game.core.combat import Forecast, Modifier
from game.core.engine import GameSettings
from game.core.events import Narration, ObjectiveChanged
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.record.match import Match
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.handover import HandoverScene
from game.ui.scene import Scene
from game.ui.watch_replay import WatchScene
from game.view.side_view import SideView
from game.view.witness import witnessed

pytestmark = pytest.mark.usefixtures("english")

# A long strip of open plain: the far end is out of everyone's sight from the near end.
STRIP = ("." * 20,) * 5
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (3, 2)),
    Unit("a_scout", "a", "warrior", 500, (18, 2), hero="xiang_yu"),
    Unit("b_levy", "b", "soul_levy", 9000, (4, 2)),
    Unit("b_reserve", "b", "soul_levy", 9000, (9, 0)),
]


def hotseat(app: App, rules: Ruleset, units: list[Unit] = UNITS) -> BattleScene:
    scenario = make_scenario(rules, STRIP, units, turn_limit=5)
    match = Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "human", "b": "human"})
    app.go("battle", match=match)
    handover = current(app, HandoverScene)
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene) and handover.session is battle.session
    pass_curtain(app)
    on_top: object = app.scene  # the curtain has gone since the check above
    assert on_top is battle and battle.session.viewer == "a"
    return battle


def take_screen(app: App, battle: BattleScene, side: str) -> list[str]:
    """Hand the screen over to ``side``; the lines of the report it is shown first."""
    handover = app.scene
    assert isinstance(handover, HandoverScene) and handover.side_id == side
    pass_curtain(app)
    assert app.scene is battle and battle.session.viewer == side
    text, speaker = battle.narration.queue[0]
    assert speaker is None and text.startswith("While you waited")
    return text.splitlines()[1:]


def test_the_report_tells_what_the_waiting_side_saw_and_nothing_else(app: App, rules: Ruleset) -> None:
    battle = hotseat(app, rules)
    b_sees = battle.session.seen_ids("b")
    assert "a_foot" in b_sees and "a_scout" not in b_sees
    far = battle.state.formations["a_scout"].pos
    assert battle.submit(Move(unit="a_scout", to=Hex(far.q - 1, far.r)))  # out of b's sight
    assert battle.submit(Attack(unit="a_foot", target="b_levy"))
    assert any("attacked" in line for line in battle.log.lines)  # a's log, while a has the screen
    assert battle.submit(EndTurn())
    report = take_screen(app, battle, "b")
    assert battle.last_move == []  # a's trail went with a
    # b's own log: what its formations saw of a's turn (the attack, not the unseen scout's move).
    assert any("attacked" in line for line in battle.log.lines) and battle.log is battle.logs["b"]
    assert not any("Xiang Yu" in line for line in battle.log.lines)
    assert battle.logs["a"].lines != battle.log.lines
    assert any("attacked" in line and "Soul levy" in line for line in report), report
    assert not any("Xiang Yu" in line for line in report), report  # the scout's move was unseen
    assert battle.session.watch.report("b").endswith("nothing of the other side.")  # read once


def test_a_quiet_turn_makes_a_quiet_report(app: App, rules: Ruleset) -> None:
    battle = hotseat(app, rules)
    assert battle.submit(EndTurn())
    current(app, HandoverScene)
    pass_curtain(app)
    assert battle.narration.queue[0][0] == "While you waited, your formations saw nothing of the other side."


def test_objectives_of_the_other_side_stay_with_it() -> None:
    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 1, GameSettings(), seats={"coalition": "human", "hailing": "human"})
    done = ObjectiveChanged(objective="sweep_valley", status="done")
    rules, scenario = match.engine.rules, loaded.scenario
    for side, told in (("coalition", True), ("hailing", False)):
        sight = SideView(match.state, scenario.board, rules, side).sight
        assert witnessed(done, side, sight, match.state, scenario, rules, hearing_limited=True) is told


def test_in_hotseat_an_unseen_enemy_heros_words_are_not_heard(app: App, rules: Ruleset) -> None:
    battle = hotseat(app, rules)
    assert "a_scout" not in battle.session.seen_ids("b")
    words = Narration(text="Ride!", speaker="xiang_yu")
    assert not battle.session.witnessed_by(words, "b", set())
    assert battle.session.witnessed_by(words, "a", set())  # his own side hears him
    assert battle.session.witnessed_by(Narration(text="Dusk falls."), "b", set())  # the narrator is no secret


def test_against_the_computer_the_story_is_told_whole(app: App, rules: Ruleset) -> None:
    scenario = make_scenario(rules, STRIP, UNITS, turn_limit=5)
    match = Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "ai", "b": "human"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    assert not battle.session.is_hotseat()
    assert battle.session.witnessed_by(Narration(text="Ride!", speaker="xiang_yu"), "b", set())


# -- watching the turn waited through ----------------------------------------------------------


def test_the_waiting_player_may_watch_what_their_formations_saw_and_only_that(app: App, rules: Ruleset) -> None:
    battle = hotseat(app, rules)
    far = battle.state.formations["a_scout"].pos
    assert battle.submit(Move(unit="a_scout", to=Hex(far.q - 1, far.r)))  # out of b's sight
    assert battle.submit(Attack(unit="a_foot", target="b_levy"))
    assert battle.submit(EndTurn())
    handover = app.scene
    assert isinstance(handover, HandoverScene) and handover.watch is not None
    pass_curtain(app, pygame.K_w)
    watch = app.scene
    assert isinstance(watch, WatchScene) and watch.side_id == "b"
    # One thing seen (the attack), then the turn's end; the unseen scout's move is no step of it.
    assert watch.beats[0] == watch.cursor.floor == 0 and len(watch.beats) == 3
    assert watch.beats[1] == 2  # after the attack, the second action
    lines = watch.seen_lines[watch.beats[1]]
    assert any("attacked" in line and "Soul levy" in line for line in lines), lines
    assert not any("Xiang Yu" in line for seen in watch.seen_lines.values() for line in seen)
    # Through b's fog: the scout is not on its map, nor counted in its top bar.
    assert "a_scout" not in watch.fog().shown
    frame(app)
    assert watch.playing  # it plays by itself from the start
    press_key(watch, pygame.K_RIGHT)
    assert watch.beat == 1 and watch.cursor.position == 2
    press_key(watch, pygame.K_LEFT)
    assert watch.beat == 0 and watch.cursor.position == 0
    press_key(watch, pygame.K_ESCAPE)
    assert app.scene is battle and battle.session.viewer == "b"
    assert battle.narration.queue[0][0].startswith("While you waited")  # the report is still there


def test_nothing_to_watch_before_a_player_has_waited(app: App, rules: Ruleset) -> None:
    scenario = make_scenario(rules, STRIP, UNITS, turn_limit=5)
    match = Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "human", "b": "human"})
    app.go("battle", match=match)
    assert current(app, HandoverScene).watch is None  # the first player


def press_key(scene: Scene | None, key: int) -> None:
    assert scene is not None
    scene.handle(pygame.event.Event(pygame.KEYDOWN, key=key))


def test_the_top_bar_counts_only_enemies_in_sight_and_keeps_the_enemy_pouch_hidden(app: App, rules: Ruleset) -> None:
    battle = hotseat(app, rules)
    battle.state.side("b").pouch = 4321  # bagged out of a's sight
    battle.state.side("a").pouch = 1234
    fog = battle.session.view().fog
    assert fog is not None and "b_levy" in fog.shown and "b_reserve" not in fog.shown
    own = battle.panels.hud.side_label("a", "a", fog.shown)
    enemy = battle.panels.hud.side_label("b", "a", fog.shown)
    assert "1,234" in own and "3,500" in own  # a's own men and pouch, in full
    assert "9,000 in sight" in enemy  # the levy it sees, not the reserve it does not
    assert "4,321" not in enemy and "Pouch" not in enemy
    everything = battle.panels.hud.side_label("b")
    assert "18,000" in everything and "4,321" in everything  # with no fog, all is told


def test_the_forecast_counts_only_what_the_attacker_can_see(app: App, rules: Ruleset) -> None:
    grid = ("......f.............",) + STRIP[1:]
    units = [
        Unit("a_foot", "a", "han_soldier", 3000, (4, 0)),
        Unit("b_levy", "b", "soul_levy", 3000, (5, 0)),
        # Wanyan Liang in hiding, two hexes from a's men: his aura steadies the levy unseen.
        Unit("b_liang", "b", "ambush_host", 2000, (6, 0), hero="wanyan_liang", hidden=True),
    ]
    scenario = make_scenario(rules, grid, units, turn_limit=5)
    match = Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "human", "b": "ai"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    assert "b_liang" not in battle.session.seen_ids("a")
    battle.session.choice.pending_attack = Attack(unit="a_foot", target="b_levy")
    shown = battle.session.pending_forecast()
    real = match.engine.forecast(battle.session.choice.pending_attack)

    def aura(forecast: Forecast | None) -> list[Modifier]:
        assert forecast is not None
        return [m for m in forecast.setup.modifiers if m.name == "Commander nearby" and m.applies_to == "defender"]

    assert aura(real) and not aura(shown)  # the hidden hero is not given away by the odds
    assert shown is not None and real is not None
    assert shown.setup.defender == "b_levy" and shown.attacker_losses < real.attacker_losses


def test_the_hand_over_grows_with_the_ui_scale(rules: Ruleset) -> None:
    """At 200% the hand-over's button is twice as tall as at 100% and its labels stay whole."""

    def hand_over(big: App) -> int:
        scenario = make_scenario(rules, STRIP, UNITS, turn_limit=5)
        big.go("battle", match=Match(loaded_for(scenario), 5, GameSettings(), seats={"a": "human", "b": "human"}))
        big.step([], 0.0)
        return int(current(big, HandoverScene).ready.rect.height)

    shown = at_each_scale(hand_over)
    assert shown[100][1] == shown[200][1] == []
    assert shown[200][0] >= 1.8 * shown[100][0]


# -- nothing outside the battle shows what the players must not see ---------------------------


def _hotseat_a1(turns_over: bool = False) -> Match:
    a1 = load_scenario("a1_valley_mouth")
    settings = GameSettings(max_turns=1)
    match = Match(a1, 3, settings, seats={"coalition": "human", "hailing": "human"})
    match.apply(EndTurn())
    while turns_over and not match.state.over:
        match.apply(EndTurn())
    return match


def test_a_running_hotseat_battles_save_is_not_shown_as_a_replay_from_the_menu(app: App, tmp_path: Path) -> None:
    """Quit to the menu mid-battle: its autosave (the newest save) is refused by the viewer of
    the save list (the main menu's Replays), and the screen stays."""
    from game.ui.saves_screen import SaveScreen

    app.saves = saves_folder_at(tmp_path)
    app.saves.quicksave(_hotseat_a1())
    screen = SaveScreen(app)
    app.switch(screen)
    frame(app)
    screen.watch()
    on_top: object = app.scene  # the menu was on top above
    assert on_top is screen and "two players" in screen.note


def test_a_finished_hotseat_battle_can_be_watched_from_its_result(app: App) -> None:
    from game.ui.replay import ReplayScene
    from game.ui.result import ResultScene

    match = _hotseat_a1(turns_over=True)
    app.switch(ResultScene(app, match))
    frame(app)
    current(app, ResultScene).watch_replay()
    current(app, ReplayScene)


def test_the_command_line_refuses_to_replay_a_running_hotseat_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game import cli

    path = _hotseat_a1().save(tmp_path / "hs.json")
    assert cli.main(["--lang", "en", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "two players" in err and err.count("\n") == 1


def test_a_screenshot_of_a_running_hotseat_save_draws_only_the_side_to_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """By default the picture is the one the side to move would see behind its curtain: the
    other side's hidden army is not drawn; ``--reveal`` draws everything."""
    import pygame

    from game import cli

    match = _hotseat_a1()
    mover = match.state.active_side.id
    hidden = [f for f in match.state.formations.values() if f.side != mover]
    seen = SideView(match.state, match.loaded.scenario.board, match.engine.rules, mover).seen_ids
    assert any(f.id not in seen for f in hidden)  # an army of the other side the mover cannot see
    path = match.save(tmp_path / "hs.json")
    shots = {}
    for name, extra in (("default", []), ("mover", ["--view", mover]), ("reveal", ["--reveal"])):
        out = tmp_path / f"{name}.png"
        assert cli.main(["--lang", "en", "screenshot", str(path), "--out", str(out), "--size", "800x600", *extra]) == 0
        shots[name] = pygame.image.tobytes(pygame.image.load(str(out)), "RGB")
    assert shots["default"] == shots["mover"]
    assert shots["reveal"] != shots["default"]
    assert (
        cli.main(
            ["--lang", "en", "screenshot", str(path), "--out", str(tmp_path / "x.png"), "--reveal", "--view", "all"]
        )
        == 2
    )
    assert "not both" in capsys.readouterr().err


# -- every way into a running two-player game opens behind the curtain of the side to move ----


def _behind_the_curtain_of_the_mover(app: App, mover: str) -> BattleScene:
    """The game just opened: the curtain of ``mover`` is up, nothing of the battle is drawn
    (no colour of the other side on the screen); once passed, ``mover``'s fog is on the map and
    the other side's hidden army is neither shown nor in the log."""
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == mover
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene)
    frame(app)
    other = next(s for s in battle.state.sides if s.id != mover)
    colour = battle.rules.factions[other.faction].colour
    assert pygame.mask.from_threshold(app.screen, colour, (1, 1, 1, 255)).count() == 0
    pass_curtain(app)
    on_top: object = app.scene  # the curtain has gone since the check above
    assert on_top is battle and battle.session.fog_side() == mover
    seen = battle.session.seen_ids()
    hidden = [f for f in battle.state.formations.values() if f.side != mover and f.id not in seen]
    assert hidden, "the test needs an army the side to move cannot see"
    names = [battle.session.names.get(f.id, f.id) for f in hidden]
    assert not any(name in line for line in battle.log.lines for name in names if name)
    return battle


def test_loading_a_running_hotseat_save_opens_behind_the_curtain_of_the_side_to_move(app: App, tmp_path: Path) -> None:
    from game.ui.saves_screen import SaveScreen

    app.saves = saves_folder_at(tmp_path)
    match = _hotseat_a1()  # the hailing to move
    app.saves.save_game(match, "duel of two")
    screen = SaveScreen(app)
    app.switch(screen)
    frame(app)
    screen.selected = next(e.path for e in screen.entries if e.name == "duel of two")
    screen.load()
    _behind_the_curtain_of_the_mover(app, "hailing")


def test_the_main_menus_continue_opens_a_running_hotseat_game_behind_the_curtain(app: App, tmp_path: Path) -> None:
    """Continue goes on with the newest save: a two-player game in it opens behind the curtain of
    the side to move, through the same door as the save list (the newest save is no reload)."""
    from game.ui.menu import MenuScene

    app.saves = saves_folder_at(tmp_path)
    app.saves.save_game(_hotseat_a1(), "left for supper")  # the hailing to move
    app.go("menu")
    menu = current(app, MenuScene)
    assert menu.resume is not None and menu.resume.save is not None
    menu.continue_game()
    battle = _behind_the_curtain_of_the_mover(app, "hailing")
    assert battle.match.record.reloads == []


def test_an_autosave_and_the_quicksave_of_a_hotseat_game_open_behind_the_curtain(app: App, tmp_path: Path) -> None:
    from game.ui.saves_screen import SaveScreen

    app.saves = saves_folder_at(tmp_path)
    match = _hotseat_a1()
    app.saves.autosave(match)
    screen = SaveScreen(app)
    app.switch(screen)
    frame(app)
    screen.selected = next(e.path for e in screen.entries if e.autosave)
    screen.load()
    battle = _behind_the_curtain_of_the_mover(app, "hailing")
    # F9 in the battle: the quicksave of the coalition's turn opens behind the coalition's curtain.
    start = Match(load_scenario("a1_valley_mouth"), 3, GameSettings(max_turns=1), seats=dict(match.seats.commanders()))
    app.saves.quicksave(start)
    battle.saves.quickload()
    _behind_the_curtain_of_the_mover(app, "coalition")


def test_taking_over_into_two_players_opens_behind_the_curtain(app: App) -> None:
    from game.ui.replay import ReplayScene

    match = _hotseat_a1(turns_over=True)
    replay = ReplayScene(app, match.saved_record())
    app.switch(replay)
    replay.cursor.seek(1)  # the hailing's first turn
    replay.take_over({"coalition": "human", "hailing": "human"})
    _behind_the_curtain_of_the_mover(app, "hailing")


def test_a_reload_that_goes_back_is_told_to_the_other_side(app: App, tmp_path: Path) -> None:
    app.saves = saves_folder_at(tmp_path)
    match = Match(load_scenario("a1_valley_mouth"), 3, GameSettings(), seats={"coalition": "human", "hailing": "human"})
    app.go("battle", match=match)
    pass_curtain(app)
    battle = current(app, BattleScene)
    battle.saves.quicksave()  # the coalition's turn, before any order
    battle.end_turn()
    pass_curtain(app)  # the hailing has the screen
    assert battle.session.viewer == "hailing"
    battle.saves.quickload()  # F9: the coalition's end of turn would be undone, so it asks
    press_key(app.scene, pygame.K_RETURN)
    loaded = app.stack[-2]
    assert isinstance(loaded, BattleScene) and loaded is not battle and loaded.match.record.actions == []
    [reload] = loaded.match.record.reloads
    assert (reload.by, reload.from_turn, reload.to_turn, reload.undone) == ("hailing", 1, 1, 1)
    pass_curtain(app)  # the coalition, to move again, is told first
    text = loaded.narration.queue[0][0]
    assert "loaded an earlier save: from turn 1 back to turn 1, 1 order undone." in text
    assert loaded.session.side_name("hailing") in text
    # Kept in its saves, and told once.
    assert loaded.match.saved_record().reloads[0].told == ["coalition"]


def _load_from_the_main_menu(app: App, name: str) -> BattleScene:
    """The save list opened from the main menu (no battle behind it): load the save ``name``."""
    from game.ui.menu import MenuScene
    from game.ui.saves_screen import SaveScreen

    app.go("menu")
    assert isinstance(app.scene, MenuScene)
    screen = app.open("saves")
    assert isinstance(screen, SaveScreen) and screen.battle is None
    frame(app)
    screen.selected = next(e.path for e in screen.entries if e.name == name)
    screen.load()
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene)
    return battle


@pytest.mark.parametrize("delete_newer", [False, True], ids=["kept", "newer saves deleted"])
def test_an_earlier_save_loaded_from_the_main_menu_is_told_to_the_other_side(
    app: App, tmp_path: Path, delete_newer: bool
) -> None:
    app.saves = saves_folder_at(tmp_path)
    match = Match(load_scenario("a1_valley_mouth"), 3, GameSettings(), seats={"coalition": "human", "hailing": "human"})
    app.go("battle", match=match)
    pass_curtain(app)
    battle = app.scene
    assert isinstance(battle, BattleScene)
    app.saves.save_game(match, "before the first order")
    battle.end_turn()  # the hailing's turn begins: its autosave
    assert len(match.record.actions) == 1
    if delete_newer:  # nothing newer left in the folder to compare with
        for entry in app.saves.entries():
            if entry.name != "before the first order":
                app.saves.delete(entry.path)
    loaded = _load_from_the_main_menu(app, "before the first order")
    [reload] = loaded.match.record.reloads
    assert (reload.by, reload.from_turn, reload.to_turn, reload.undone) == ("hailing", 1, 1, 1)
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "coalition"
    pass_curtain(app)
    text = loaded.narration.queue[0][0]
    assert f"{loaded.session.side_name('hailing')} loaded an earlier save: from turn 1 back to turn 1" in text


def test_loading_the_newest_save_from_the_main_menu_is_no_reload(app: App, tmp_path: Path) -> None:
    app.saves = saves_folder_at(tmp_path)
    match = _hotseat_a1()
    app.saves.save_game(match, "where we stand")
    loaded = _load_from_the_main_menu(app, "where we stand")
    assert loaded.match.record.reloads == []
