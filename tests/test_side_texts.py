"""Each side its own briefing, objectives and debriefing: in every scenario that two people can
play, the side the scenario is not written for has texts of its own in every language; its
objectives stand against the other side's; the winner never reads the loser's debriefing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest
from conftest import a1_copy, frame, pass_curtain, replace_once  # noqa: F401  (a1_copy: a fixture)

from game import i18n
from game.content.errors import ContentError, ContentErrors
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario, load_scenario_file
from game.core.actions import EndTurn
from game.core.engine import GameSettings
from game.core.hexgrid import neighbours
from game.core.scenario import Scenario
from game.record.match import Match
from game.session.tutorial import offered_scenarios
from game.ui import battle_briefing, pages
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.battle_briefing import BattleBriefingScene
from game.ui.handover import HandoverScene
from game.ui.result import ResultScene
from game.view.side_texts import briefing_for, debriefing_for, objective_status, objectives_for

pytestmark = pytest.mark.usefixtures("english")


def fighting_sides(scenario: Scenario) -> list[str]:
    return [s.id for s in scenario.sides if s.role != "neutral"]


@pytest.mark.parametrize("scenario_id", offered_scenarios())
def test_every_side_of_every_two_player_scenario_has_texts_of_its_own(scenario_id: str) -> None:
    scenario = load_scenario(scenario_id).scenario
    player = scenario.default_player_side()
    others = [s for s in fighting_sides(scenario) if s != player]
    assert others and {t.side for t in scenario.side_texts} == set(others)
    for side in others:
        texts = [briefing_for(scenario, side), *(o.text for o in objectives_for(scenario, side))]
        assert briefing_for(scenario, side) != scenario.briefing
        assert not set(objectives_for(scenario, side)) & set(objectives_for(scenario, player))
        assert len(objectives_for(scenario, side)) >= 3
        for lang in ("zh_CN", "zh_TW"):
            i18n.set_language(lang)
            try:
                assert all(i18n._(t) != t for t in texts), (lang, side)
            finally:
                i18n.set_language("en")


def finished(scenario_id: str, winner: str) -> Match:
    """A two-player game of ``scenario_id`` ended by the turn limit, ``winner`` made to win it."""
    loaded = load_scenario(scenario_id)
    seats = {s: "human" for s in fighting_sides(loaded.scenario)}
    match = Match(loaded, 1, GameSettings(max_turns=1), seats=seats)  # type: ignore[arg-type]
    while not match.state.over:
        match.apply(EndTurn())
    match.state.winner = winner
    return match


@pytest.mark.parametrize(("scenario_id", "other"), [("a1_valley_mouth", "hailing"), ("b1_the_valley", "jin")])
def test_each_side_reads_its_own_debriefing_and_the_winner_never_the_losers(
    app: App, scenario_id: str, other: str
) -> None:
    for winner in (other, load_scenario(scenario_id).scenario.default_player_side()):
        match = finished(scenario_id, winner)
        scenario = match.loaded.scenario
        loser = next(s for s in fighting_sides(scenario) if s != winner)
        mine, theirs = debriefing_for(scenario, match.state, winner), debriefing_for(scenario, match.state, loser)
        assert mine != theirs and mine and theirs
        screen = ResultScene(app, match)
        story = "\n".join(p.text for p in screen.story())
        assert mine in story and theirs not in story


def test_the_result_screen_tells_the_deciding_events_objectives_as_the_reader_has_them(app: App) -> None:
    """A Jin player whose Wuzhu shut himself in the fort reads that the Yue banner still stands
    and Wuzhu reached the gate (his own aims), not the Zhenguo's "Achieved: keep Yue Fei's
    formation in the field"; a Zhenguo player reads his own."""
    from game.core.actions import Move

    loaded = load_scenario("b3_tangut_border")
    jin_texts = next(t for t in loaded.scenario.side_texts if t.side == "jin")
    own = {o.against: o.text for o in jin_texts.objectives}
    by_id = {o.id: o.text for o in loaded.scenario.objective_specs}
    for reader in ("jin", "zhenguo"):
        match = Match(loaded, 1, GameSettings(), seats={"zhenguo": "ai", "jin": "ai", "tangut": "ai", reader: "human"})
        match.apply(EndTurn())  # the Jin's turn
        st = match.state
        st.side("tangut").gates_open_to = ["jin"]
        fort = match.engine.board.fortress_hexes("fort")
        occupied = st.occupancy()
        inside = next(
            h
            for h in sorted(fort)
            if h not in occupied
            and any(n in match.engine.board and n not in fort and n not in occupied for n in neighbours(h))
        )
        st.formations["wuzhu_guards"].pos = next(
            n for n in sorted(neighbours(inside)) if n in match.engine.board and n not in fort and n not in occupied
        )
        match.apply(Move(unit="wuzhu_guards", to=inside))
        assert st.over and "wuzhu_shelters" in st.fired_events
        story = "\n".join(p.text for p in ResultScene(app, match).story())
        if reader == "jin":
            assert f"Failed: {own['hold_out']}" in story and f"Achieved: {own['take_wuzhu']}" in story
            assert by_id["hold_out"] not in story
        else:
            assert f"Achieved: {by_id['hold_out']}" in story and f"Failed: {by_id['take_wuzhu']}" in story
            assert own["hold_out"] not in story


def test_a_sides_own_ending_of_an_event_is_its_own() -> None:
    b3 = load_scenario("b3_tangut_border").scenario
    match = finished("b3_tangut_border", "jin")
    match.state.fired_events.append("both_fall")
    jin, zhenguo = debriefing_for(b3, match.state, "jin"), debriefing_for(b3, match.state, "zhenguo")
    assert zhenguo == dict(b3.debriefings)["both_fall"]
    assert jin == next(t for t in b3.side_texts if t.side == "jin").debriefings[0].text != zhenguo


def test_a_sides_own_objective_is_the_reverse_of_the_one_it_stands_against() -> None:
    a1 = load_scenario("a1_valley_mouth").scenario
    match = Match(load_scenario("a1_valley_mouth"), 1, GameSettings())
    defile = next(o for t in a1.side_texts for o in t.objectives if o.against == "hold_front")
    assert objective_status(a1, match.state, defile.id) == "open"
    for theirs, ours in (("failed", "done"), ("done", "failed")):
        match.state.objectives["hold_front"] = theirs
        assert objective_status(a1, match.state, defile.id) == ours


def _recording(shown: list[str]) -> Callable[..., int]:
    """``pages.paragraph``, noting each text it draws in ``shown``."""

    def spy(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> int:
        shown.append(text)
        return pages.paragraph(surface, text, *args, **kwargs)

    return spy


def test_in_a_two_player_game_each_side_is_briefed_with_its_own_texts(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = load_scenario("b1_the_valley")
    match = Match(loaded, 2, GameSettings(), seats={"zhenguo": "human", "jin": "human"})
    app.go("battle", match=match)
    b1 = loaded.scenario
    for side in ("zhenguo", "jin"):
        curtain = app.scene
        assert isinstance(curtain, HandoverScene) and curtain.side_id == side
        pass_curtain(app)
        battle = app.scene
        assert isinstance(battle, BattleScene) and battle.session.viewer == side
        briefing = app.open("battle_briefing", session=battle.session, side=side)  # as the hand-over opens it
        assert isinstance(briefing, BattleBriefingScene)
        shown: list[str] = []
        spy = _recording(shown)
        monkeypatch.setattr(battle_briefing, "paragraph", spy)
        frame(app)
        text = " ".join(shown)
        other = next(s for s in ("zhenguo", "jin") if s != side)
        for objective in objectives_for(b1, side):
            assert any(objective.text in line for line in shown)
        assert not any(o.text in text for o in objectives_for(b1, other))
        story = briefing.story_box.html_text if briefing.story_box is not None else ""
        assert briefing_for(b1, side)[:30] in story and briefing_for(b1, other)[:30] not in story + text
        app.back()
        battle.end_turn()


def errors_of(path: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(path, load_ruleset())
    return exc.value.errors


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        ('side = "hailing"\nbriefing', 'side = "tangut"\nbriefing', "side_texts.0.side", "unknown side 'tangut'"),
        ('side = "hailing"\nbriefing', 'side = "coalition"\nbriefing', "side_texts.0.side", "the player side's"),
        (
            'against = "hold_front"',
            'against = "hold_the_sky"',
            "side_texts.0.objectives.1.against",
            "unknown objective",
        ),
        ('id = "hailing_keep_host"', 'id = "hailing_force_defile"', "side_texts.0.objectives.2.id", "twice"),
    ],
)
def test_a_broken_side_text_names_file_object_and_field(
    a1_copy: Path,  # noqa: F811
    old: str,
    new: str,
    field: str,
    message: str,
) -> None:
    replace_once(a1_copy, old, new)
    [err] = errors_of(a1_copy)
    assert (err.file.endswith("a1_valley_mouth.toml"), err.object, err.field) == (True, "a1_valley_mouth", field)
    assert message in err.message


def test_a_side_text_without_its_briefing_is_refused(a1_copy: Path) -> None:  # noqa: F811
    text = a1_copy.read_text(encoding="utf-8")
    start = text.index('side = "hailing"\nbriefing = """')
    end = text.index('"""', start + 30) + 3
    a1_copy.write_text(text[:start] + 'side = "hailing"' + text[end:], encoding="utf-8")
    errs = errors_of(a1_copy)
    assert any(e.field == "side_texts.0.briefing" for e in errs), errs


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_whole_briefing_is_there_to_read_in_a_small_window_as_in_a_large_one(size: tuple[int, int]) -> None:
    """The story scrolls in its own box rather than being cut: every word of it is in the box."""
    app = App(size)
    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 2, GameSettings(), seats={"coalition": "human", "hailing": "human"})
    app.go("battle", match=match)
    pass_curtain(app)
    battle = app.scene
    assert isinstance(battle, BattleScene)
    briefing = app.open("battle_briefing", session=battle.session, side="hailing")
    assert isinstance(briefing, BattleBriefingScene) and briefing.story_box is not None
    frame(app)
    shown = " ".join(briefing.story_box.html_text.replace("<br>", " ").split()).replace("&#x27;", "'")
    assert shown == " ".join(briefing_for(loaded.scenario, "hailing").split())
    assert briefing.story_box.rect.bottom < briefing.begin.rect.top
