"""The result screen headless: the deciding event and its turn, whose victory, the debriefing,
the summary table, the replay button, and every text fitting small and large windows."""

from __future__ import annotations

import warnings
from pathlib import Path

import pygame
import pytest
from conftest import frame, root_elements, saves_folder_at
from pygame_gui.elements import UILabel

from game import i18n
from game.chronicle.replayed import set_pieces_of
from game.content.scenarios import load_scenario
from game.core.actions import Attack, EndTurn
from game.core.engine import GameSettings
from game.core.hexgrid import neighbours
from game.i18n import _
from game.record.match import Match, match_from_record
from game.record.saves import load_record
from game.record.seats import Commander
from game.ui.app import App
from game.ui.replay import ReplayScene
from game.ui.result import ResultScene
from game.ui.story_box import coloured_html

# A finished B3 battle, saved with the content it was played with (so it loads whatever changes).
CORPUS_B3 = Path(__file__).parent / "saves_corpus" / "v3" / "b3_finished.json"

pytestmark = pytest.mark.usefixtures("english")


def labels(scene: ResultScene) -> list[str]:
    """Every label on the screen, those inside panels (the table) too."""
    return [e.text for e in scene.manager.get_sprite_group().sprites() if isinstance(e, UILabel)]


def click(app: App, pos: tuple[int, int]) -> None:
    # pygame_gui ignores a click in the frame the mouse arrives: hover first.
    frame(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False), dt=0.05)
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def finished_b3() -> Match:
    record = load_record(CORPUS_B3)
    return match_from_record(record)


def b1_lost(*humans: str, relief: bool = False) -> Match:
    """The Valley, lost: the besieging horse cuts down Tang Huai's last man (on turn 3, after the
    Jin relief has arrived, with ``relief``)."""
    loaded = load_scenario("b1_the_valley")
    controllers: dict[str, Commander] = {s.id: ("human" if s.id in humans else "ai") for s in loaded.scenario.sides}
    match = Match(loaded, 5, GameSettings(), seats=controllers)
    state = match.state
    while not (state.turn == (3 if relief else 1) and state.active_side.id == "jin"):
        match.apply(EndTurn())
    tang, horse = state.formations["tang_huai_bows"], state.formations["besieging_horse"]
    tang.men = 1
    free = (h for h in neighbours(tang.pos) if h in match.engine.board and state.formation_at(h) is None)
    horse.pos = next(h for h in free if match.engine.board.terrain[h].id != "mountain")
    match.apply(Attack(unit="besieging_horse", target="tang_huai_bows"))
    assert state.over and state.winner == "jin"
    return match


def show(app: App, match: Match) -> ResultScene:
    scene = ResultScene(app, match)
    app.switch(scene)
    frame(app)
    return scene


def story_texts(scene: ResultScene) -> list[str]:
    return [p.text for p in scene.story()]


# -- what it says --------------------------------------------------------------------------------


def test_the_result_names_the_deciding_event_and_its_turn(app: App) -> None:
    match = finished_b3()  # a real save: the computer on every side; Yue Fei's riders fell on turn 4
    scene = show(app, match)
    texts = labels(scene)
    assert "Victory for the Jin army" in texts
    assert "Turn 4: Yue Fei · Zhenguo riders is destroyed." in texts
    scenario = match.loaded.scenario
    hold_out = next(o for o in scenario.objective_specs if o.id == "hold_out")
    story = story_texts(scene)
    assert f"Failed: {hold_out.text}" in story
    assert any(t.startswith('"The Yue banner goes down') for t in story)
    assert scenario.debriefing_defeat in story
    assert scene.story_box is not None


def test_a_lost_single_player_battle_is_headed_defeat_and_debriefed(app: App) -> None:
    match = b1_lost("zhenguo")
    scene = show(app, match)
    texts = labels(scene)
    assert "Defeat" in texts and "Victory for the Jin army" not in texts
    assert "Turn 1: Tang Huai · Bows and crossbows is destroyed." in texts
    story = story_texts(scene)
    assert "Debriefing" in story and match.loaded.scenario.debriefing_defeat in story
    assert match.loaded.scenario.debriefing_victory not in story


def test_two_players_at_one_screen_read_the_winners_name(app: App) -> None:
    scene = show(app, b1_lost("zhenguo", "jin"))
    assert "Victory for the Jin army" in labels(scene)


def test_the_summary_table_shows_each_sides_numbers(app: App) -> None:
    match = b1_lost("zhenguo", relief=True)
    state = match.state
    scene = show(app, match)
    cells = {key: label.text for key, label in scene.table.cells.items()}
    jin, zhenguo = state.side("jin"), state.side("zhenguo")
    assert cells[("men_start", "jin")] == "14,250"
    assert cells[("men_arrived", "jin")] == "5,000" and cells[("men_arrived", "zhenguo")] == "0"
    assert cells[("men_standing", "jin")] == f"{state.men_of('jin'):,}"
    assert cells[("men_lost", "jin")] == f"{jin.men_start + 5_000 - state.men_of('jin'):,}"
    assert cells[("men_lost", "zhenguo")] == f"{zhenguo.men_start - state.men_of('zhenguo'):,}"
    assert cells[("souls_bagged", "zhenguo")] == f"{zhenguo.pouch:,}"
    assert cells[("destroyed", "zhenguo")] == "1" and cells[("destroyed", "jin")] == "0"
    # The side names head the columns.
    assert {"Zhenguo Army", "Jin army"} <= set(labels(scene))


# -- the ways out --------------------------------------------------------------------------------


def test_the_replay_button_opens_the_viewer_on_this_battle(app: App) -> None:
    loaded = load_scenario("a1_valley_mouth")
    settings = GameSettings(max_turns=2)
    match = Match(loaded, 4, settings, seats={"coalition": "human", "hailing": "ai"})
    while not match.state.over:
        match.apply(EndTurn())
    scene = show(app, match)
    click(app, scene.replay_button.rect.center)
    viewer = app.scene
    assert isinstance(viewer, ReplayScene)
    assert viewer.record.actions == match.record.actions and viewer.cursor.length == len(match.record.actions)
    assert viewer.cursor.problem is None


def test_save_and_main_menu_stay(app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.record import saves
    from game.ui.menu import MenuScene

    app.saves = saves_folder_at(tmp_path)
    scene = show(app, b1_lost("zhenguo"))
    click(app, scene.save_button.rect.center)
    assert scene.note is not None and scene.note.text.startswith("Saved as")
    [path] = tmp_path.glob("*.json")
    assert saves.load_record(path).name == "The Valley, turn 1"
    click(app, scene.menu_button.rect.center)
    assert isinstance(app.scene, MenuScene)


# -- fitting the window --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_every_text_fits_small_and_large_windows(lang: str, size: tuple[int, int]) -> None:
    """No label cut (pygame_gui warns), nothing off the window, the table, the story and the
    buttons apart (where both do not fit they scroll together); a hotseat victory puts the
    longest side name in the title."""
    i18n.set_language(lang)
    try:
        app = App(size)
        a1 = load_scenario("a1_valley_mouth")
        hotseat = Match(a1, 2, GameSettings(), seats={"coalition": "human", "hailing": "human"})
        state = hotseat.state
        state.over, state.winner, state.end_reason, state.turn = True, "coalition", "annihilation", 7
        touched = finished_b3()  # the Tangut fort lost men too: a third column
        touched.state.formations["tangut_walls"].men -= 120
        for match in (finished_b3(), touched, b1_lost("zhenguo", relief=True), hotseat):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                scene = show(app, match)
            assert [str(w.message) for w in caught if "too small" in str(w.message)] == []
            window = pygame.Rect((0, 0), size)
            elements = root_elements(scene)
            assert all(window.contains(e.rect) for e in elements), [e.rect for e in elements]
            buttons = [scene.save_button, scene.replay_button, scene.menu_button]
            table, story = scene.table.panel.rect, scene.story_box.rect  # type: ignore[union-attr]
            if scene.body is not None:  # both in one scrolling box: the story under the table
                assert story.top >= table.bottom
                blocks = [scene.body.rect]
            else:
                assert not table.colliderect(story)
                blocks = [table, story]
            assert not any(block.colliderect(b.rect) for block in blocks for b in buttons)
            assert ("tangut" in [r.side for r in scene.summary]) == (match is touched)
        assert _("Victory for the {side}").format(side=i18n.name("Yuqing Palace coalition")) in labels(scene)
    finally:
        i18n.set_language("en")


def test_the_debriefing_sets_the_chronicle_beside_this_battle(app: App) -> None:
    """Each set piece: what the chronicle tells, then what came of it here (turn, who) or that it
    did not happen, read from the record itself."""
    match = finished_b3()
    scene = show(app, match)
    story = story_texts(scene)
    assert "History and your battle" in story
    report = set_pieces_of(match.record, match.loaded)
    assert report, "B3 has set pieces"
    for piece, came in report:
        at = story.index(piece.title)
        assert story[at + 1] == f"The chronicle: {piece.history}"
        if came is None:
            assert story[at + 2].startswith("In this battle:") and "did not" in story[at + 2]
        else:
            assert story[at + 2].startswith(f"In this battle: on turn {came.turn}")
    # The record's own end: Yue Fei's riders fell on turn 4, so the duel never went on to turn 5.
    came_by_id = dict((p.id, c) for p, c in report)
    long_duel = came_by_id["long_duel"]
    assert long_duel is None or long_duel.turn <= 4


def test_coloured_paragraphs_are_wrapped_escaped_and_set_apart_unless_joined(app: App) -> None:
    """The markup the result screen and the campaign pages share: each paragraph in its colour,
    escaped, wrapped to the width; a blank line between paragraphs, none after one that joins the
    next; and the lines counted as the box will lay them out."""
    long = "Yue Fei rides on & the column breaks " * 6
    html, lines = coloured_html(
        [("Debriefing", (255, 200, 0), True), (long, (10, 20, 30), False), ("<end>", (1, 2, 3), False)], 300
    )
    assert html.startswith("<font color='#FFC800'>Debriefing</font><br><font color='#0A141E'>")
    assert "&amp;" in html and "&lt;end&gt;" in html and "<end>" not in html
    wrapped = html.split("<font color='#0A141E'>")[1].split("</font>")[0].split("<br>")
    assert len(wrapped) > 1  # wrapped to the width, not one long line
    assert "</font><br><br><font color='#010203'>" in html  # a blank line after a paragraph that does not join
    assert lines == 1 + len(wrapped) + 1 + 1
