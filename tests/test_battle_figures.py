"""The battle in figures: each side's men and pouch at every turn's end, the men each formation
lost, read from a re-run of the record; the charts' grid arithmetic; and the result screen
showing them in place of the story, in every window size."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from conftest import frame
from pygame_gui.elements import UIButton

from game.chronicle.replayed import set_pieces_of
from game.core.engine import initial_state
from game.core.events import Event
from game.record.match import Match, match_from_record
from game.record.rerun import Rerun
from game.record.saves import load_record
from game.ui.app import App
from game.ui.plots import nice_ticks
from game.ui.result import ResultScene
from game.view.battle_figures import BattleFigures, FiguresWatch

CORPUS_B3 = Path(__file__).parent / "saves_corpus" / "v4" / "b3_finished.json"

pytestmark = pytest.mark.usefixtures("english")


def finished_b3() -> Match:
    return match_from_record(load_record(CORPUS_B3))


def figures_of(match: Match) -> BattleFigures:
    engine = match.engine
    watch = FiguresWatch(initial_state(match.loaded.scenario, engine.rules, engine.settings))
    set_pieces_of(match.record, match.loaded, also=[watch])
    return watch.figures()


def test_the_figures_start_at_the_first_field_and_end_at_the_last() -> None:
    match = finished_b3()
    figures = figures_of(match)
    engine = match.engine
    start = initial_state(match.loaded.scenario, engine.rules, engine.settings)
    assert figures.turns[0] == 0
    assert figures.turns[-1] == match.state.turn
    assert list(figures.turns) == sorted(set(figures.turns)), "one sample a turn, in order"
    for side in figures.sides:
        assert figures.men[side][0] == sum(f.men for f in start.formations.values() if f.side == side)
        assert figures.men[side][-1] == sum(f.men for f in match.state.formations.values() if f.side == side)
        assert figures.souls[side][-1] == match.state.side(side).pouch
        assert len(figures.men[side]) == len(figures.turns) == len(figures.souls[side])


def test_each_formation_s_losses_are_what_it_lost_action_by_action() -> None:
    """Summed over the formations, the losses are every drop in men from one action to the next
    (the men a destroyed formation still held included), however the battle went."""
    match = finished_b3()
    figures = figures_of(match)
    rerun = Rerun(match.record, match.loaded)
    dropped: dict[str, int] = {}
    before = {fid: f.men for fid, f in rerun.state.formations.items()}

    def each(events: list[Event]) -> None:
        nonlocal before
        now = rerun.state.formations
        for fid, men in before.items():
            left = now[fid].men if fid in now else 0
            dropped[fid] = dropped.get(fid, 0) + max(0, men - left)
        before = {fid: f.men for fid, f in now.items()}

    rerun.run(each=each)
    lost = {loss.formation: loss.lost for loss in figures.losses}
    assert lost, "men fell in this battle"
    for fid, n in lost.items():
        assert n <= dropped[fid]
    assert sum(lost.values()) <= sum(dropped.values())
    assert [loss.lost for loss in figures.losses] == sorted((loss.lost for loss in figures.losses), reverse=True)
    for loss in figures.losses:
        assert loss.standing == (
            match.state.formations[loss.formation].men if loss.formation in match.state.formations else 0
        )
        assert loss.most >= loss.standing


def test_a_formation_that_leaves_the_field_unbeaten_has_lost_nothing_by_leaving() -> None:
    start = match_from_record(load_record(CORPUS_B3))
    watch = FiguresWatch(start.state.model_copy(deep=True))
    state = start.state.model_copy(deep=True)
    gone = next(iter(state.formations))
    del state.formations[gone]
    watch.seen([], state)
    assert all(loss.formation != gone for loss in watch.figures().losses)


@pytest.mark.parametrize(
    ("top", "expected"), [(0, [0, 1]), (7, [0, 2, 4, 6, 8]), (1000, [0, 200, 400, 600, 800, 1000])]
)
def test_the_grid_steps_are_round_numbers(top: int, expected: list[int]) -> None:
    assert nice_ticks(top) == expected


def test_the_grid_always_reaches_the_top_in_few_steps() -> None:
    for top in (1, 9, 11, 99, 101, 3_456, 61_000, 99_999):
        ticks = nice_ticks(top)
        assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 6
        step = ticks[1]
        assert all(b - a == step for a, b in zip(ticks, ticks[1:], strict=False))
        assert str(step).rstrip("0") in ("1", "2", "5")


@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_result_screen_swaps_its_story_for_the_figures_and_back(size: tuple[int, int]) -> None:
    app = App(size)
    scene = ResultScene(app, finished_b3())
    app.switch(scene)
    frame(app)
    assert scene.story_box is not None and scene.figures_surface is None
    scene.toggle_figures()
    frame(app)
    assert scene.showing_figures and scene.figures_surface is not None
    assert scene.story_box is None and scene.body is None
    x, y = scene.figures_at
    w, h = scene.figures_surface.get_size()
    assert x >= 0 and x + w <= size[0] and y + h <= size[1]
    buttons = [e for e in scene.manager.get_sprite_group().sprites() if isinstance(e, UIButton)]
    for b in buttons:  # the buttons under the charts, inside the window, none over another
        assert b.rect.top >= y + h and b.rect.right <= size[0] and b.rect.left >= 0
        assert not any(b is not o and b.rect.colliderect(o.rect) for o in buttons)
    assert scene.figures_button.text == "The story"
    # Something is drawn where the charts stand: more than one colour.
    shot = pygame.Surface(size)
    scene.draw(shot)
    colours = {
        shot.get_at((x + w // 6 + i, y + h // 4 + j))[:3] for i in range(0, w // 3, 7) for j in range(0, h // 2, 7)
    }
    assert len(colours) > 3
    scene.toggle_figures()
    frame(app)
    assert not scene.showing_figures and scene.story_box is not None
