"""Pass phrases in a game between people at one screen: set before the battle, kept only as a
salted slow hash in the seats, asked for by the curtain (and so by every way into the game), a
wrong one refused with nothing shown; a finished game is open to anyone."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from conftest import current, frame, pass_curtain, saves_folder_at

from game.content.scenarios import load_scenario
from game.core.actions import EndTurn
from game.core.engine import GameSettings
from game.record.errors import SaveError
from game.record.match import Match
from game.record.migrations import migrate
from game.record.saves import check_version, load_record
from game.record.seal import Seal
from game.record.seats import Seat
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.handover import HandoverScene
from game.ui.menu import MenuScene
from game.ui.quick_battle import QuickBattleScene
from game.ui.seal_setup import SealSetupScene

pytestmark = pytest.mark.usefixtures("english")

A1 = "a1_valley_mouth"
PHRASES = {"coalition": "the defile holds", "hailing": "twenty thousand"}


def click(app: App, pos: tuple[int, int]) -> None:
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def sealed_a1(ended_turns: int = 1) -> Match:
    seats = {side: Seat(commander="human", seal=Seal.of(phrase)) for side, phrase in PHRASES.items()}
    match = Match(load_scenario(A1), 3, GameSettings(max_turns=1), seats=seats)
    for _ in range(ended_turns):
        match.apply(EndTurn())
    return match


def test_a_seal_opens_only_for_its_phrase_and_keeps_no_phrase() -> None:
    seal = Seal.of("plum blossom")
    assert seal.opens("plum blossom")
    assert not seal.opens("plum blossoms") and not seal.opens("") and not seal.opens("Plum blossom")
    assert Seal.of("plum blossom").salt != seal.salt  # a fresh salt every time
    assert (seal.kind, seal.n, seal.r, seal.p) == ("scrypt", 1 << 14, 8, 1)  # its parameters are kept


def test_a_sealed_save_holds_the_digest_and_not_the_phrase_outside_the_hashes(tmp_path: Path) -> None:
    match = sealed_a1()
    plain = Match(load_scenario(A1), 3, GameSettings(max_turns=1), seats=dict(match.seats.commanders()))
    plain.apply(EndTurn())
    path = match.save(tmp_path / "sealed.json")
    text = path.read_text(encoding="utf-8")
    assert not any(phrase in text for phrase in PHRASES.values())
    data = json.loads(text)
    assert data["format_version"] == 5
    assert set(data["seats"]["hailing"]["seal"]) == {"kind", "salt", "n", "r", "p", "digest"}
    assert match.record.checkpoints == plain.record.checkpoints  # no hash includes a seal
    again = load_record(path)
    seal = again.seats["hailing"].seal
    assert seal is not None and seal.opens(PHRASES["hailing"])


def test_an_older_build_refuses_a_sealed_save_cleanly_and_a_format_4_save_cannot_claim_a_seal(tmp_path: Path) -> None:
    data = json.loads(sealed_a1().save(tmp_path / "s.json").read_text(encoding="utf-8"))
    with pytest.raises(SaveError, match=r"made by a newer version of the game \(format 5; this one reads up to 4\)"):
        check_version(data, "s.json", 4)
    data["format_version"] = 4
    with pytest.raises(SaveError, match="a format-4 save cannot hold pass phrases"):
        migrate(data, "s.json")


def test_the_setup_screen_seals_the_sides_given_a_phrase(app: App) -> None:
    app.switch(MenuScene(app))
    frame(app)
    click(app, current(app, MenuScene).two_players_button.rect.center)
    menu = current(app, QuickBattleScene)
    assert menu.controllers == {"coalition": "human", "hailing": "human"}  # A1, the first scenario
    menu.start()
    setup = app.scene
    assert isinstance(setup, SealSetupScene)
    setup.entries["hailing"].set_text(PHRASES["hailing"])
    click(app, setup.start_button.rect.center)
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene)
    seats = battle.match.seats
    assert seats.seal("coalition") is None
    seal = seats.seal("hailing")
    assert seal is not None and seal.opens(PHRASES["hailing"])
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "coalition" and curtain.phrase is None


def _refused_and_hidden(app: App, curtain: HandoverScene) -> None:
    assert app.scene is curtain
    assert curtain.refusal == "That is not this side's pass phrase."
    assert curtain.phrase is not None and curtain.phrase.get_text() == ""
    battle = app.stack[-2]
    assert isinstance(battle, BattleScene)
    frame(app)
    for side in battle.state.sides:  # no colour of either army on the screen
        colour = battle.rules.factions[side.faction].colour
        chip = pygame.Rect(0, 0, 0, 0)
        count = pygame.mask.from_threshold(app.screen, colour, (1, 1, 1, 255)).count()
        assert side.id == curtain.side_id or count == 0, (side.id, chip)


def test_loading_a_sealed_game_asks_the_phrase_of_the_side_to_move(app: App, tmp_path: Path) -> None:
    from game.ui.saves_screen import SaveScreen

    app.saves = saves_folder_at(tmp_path)
    app.saves.save_game(sealed_a1(), "sealed duel")
    screen = SaveScreen(app)
    app.switch(screen)
    frame(app)
    screen.selected = next(e.path for e in screen.entries if e.name == "sealed duel")
    screen.load()
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "hailing" and curtain.phrase is not None
    pass_curtain(app)  # Enter with no phrase
    _refused_and_hidden(app, curtain)
    pass_curtain(app, phrase=PHRASES["coalition"])  # the other side's phrase opens nothing
    _refused_and_hidden(app, curtain)
    for k in (pygame.K_SPACE, pygame.K_w):  # a space or a W is part of a phrase, no way past
        curtain.phrase.set_text(PHRASES["hailing"])
        pass_curtain(app, k)
        assert app.scene is curtain
    pass_curtain(app, phrase=PHRASES["hailing"])
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.session.viewer == "hailing"


def test_the_curtain_at_each_hand_over_asks_its_own_sides_phrase(app: App) -> None:
    app.go("battle", match=sealed_a1(ended_turns=0))
    pass_curtain(app, phrase=PHRASES["coalition"])
    battle = app.scene
    assert isinstance(battle, BattleScene)
    battle.end_turn()
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "hailing"
    pass_curtain(app, phrase=PHRASES["coalition"])
    _refused_and_hidden(app, curtain)
    pass_curtain(app, phrase=PHRASES["hailing"])
    assert app.scene is battle and battle.session.viewer == "hailing"


def test_taking_over_a_sealed_game_keeps_the_seal_of_a_side_people_still_command(app: App) -> None:
    from game.ui.replay import ReplayScene

    record = sealed_a1(ended_turns=2).saved_record()
    assert record.snapshot is not None and record.snapshot.state.over
    replay = ReplayScene(app, record)  # a finished game: anyone may watch it
    app.switch(replay)
    replay.cursor.seek(1)
    match = replay.take_over({"coalition": "human", "hailing": "human"})
    assert match is not None
    for side, phrase in PHRASES.items():
        seal = match.seats.seal(side)
        assert seal is not None and seal.opens(phrase)
    curtain = app.scene
    assert isinstance(curtain, HandoverScene) and curtain.side_id == "hailing" and curtain.phrase is not None
    pass_curtain(app, phrase=PHRASES["coalition"])
    _refused_and_hidden(app, curtain)
    # A side given to the computer keeps no seal.
    alone = replay.take_over({"coalition": "ai", "hailing": "human"})
    assert alone is not None and alone.seats.seal("coalition") is None


def test_a_finished_sealed_game_opens_without_a_phrase(app: App, tmp_path: Path) -> None:
    from game.ui.saves_screen import SaveScreen

    app.saves = saves_folder_at(tmp_path)
    finished = sealed_a1(ended_turns=2)
    assert finished.state.over
    app.saves.save_game(finished, "sealed and done")
    screen = SaveScreen(app)
    app.switch(screen)
    frame(app)
    screen.selected = next(e.path for e in screen.entries if e.name == "sealed and done")
    screen.load()
    while isinstance(app.scene, HandoverScene):
        assert app.scene.phrase is None
        pass_curtain(app)


def test_a_screenshot_of_a_sealed_side_needs_its_phrase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game import cli

    path = sealed_a1().save(tmp_path / "sealed.json")  # the hailing to move
    out = tmp_path / "shot.png"
    base = ["--lang", "en", "screenshot", str(path), "--out", str(out), "--size", "800x600"]
    for extra, says in (
        ([], "sealed by a pass phrase: give it with --pass-phrase"),
        (["--pass-phrase", PHRASES["coalition"]], "that is not the pass phrase of side 'hailing'"),
        (["--view", "coalition"], "side 'coalition' of this running game is sealed"),
    ):
        assert cli.main([*base, *extra]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err and not out.exists()
    assert cli.main([*base, "--pass-phrase", PHRASES["hailing"]]) == 0 and out.exists()
