"""The battle's unit list: which formations it lists and how (``roster``), and the widget driven
headless through its own UI manager: rows, a click on a row, the wheel over the list."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from conftest import Unit, loaded_for, make_scenario
from pygame_gui.elements import UIButton

from game import i18n
from game.core.actions import EndTurn, Move, Rest
from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.record.match import Match
from game.ui.app import App
from game.ui.hud import GOLD
from game.ui.theme import theme
from game.ui.unit_list import UnitList, list_area, roster, row_height

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("..........",) * 8
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (2, 2)),
    Unit("a_guard", "a", "retainer", 800, (1, 4)),
    Unit("a_march", "a", "han_soldier", 2000, (3, 5)),
    Unit("a_tired", "a", "retainer", 600, (0, 6)),
    Unit("a_broken", "a", "han_soldier", 500, (0, 0)),
    Unit("b_levy", "b", "soul_levy", 1500, (8, 2)),
    Unit("b_rear", "b", "soul_levy", 1500, (9, 7)),
]


def field_match(rules: Ruleset, units: list[Unit] = UNITS) -> Match:
    scenario = make_scenario(rules, FIELD, units, turn_limit=5)
    return Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "human"})


def played(rules: Ruleset) -> Match:
    """Side a's turn with one formation moved, one rested, one done and one routed."""
    match = field_match(rules)
    engine = match.engine
    match.apply(Move(unit="a_march", to=engine.board.at_offset(4, 5)))
    match.apply(Rest(unit="a_tired"))
    match.state.formations["a_guard"].acted = True  # spent its order (a capture, say)
    match.state.formations["a_broken"].routed = True
    return match


# -- the rows ---------------------------------------------------------------------------------


def test_the_roster_lists_exactly_the_sides_formations_with_who_can_still_act(rules: Ruleset) -> None:
    match = played(rules)
    rows = roster(match.state, rules, "a", match.record.actions)
    assert {r.id for r in rows} == {f.id for f in match.state.formations_of("a")}
    by_id = {r.id: r for r in rows}
    assert {fid for fid, r in by_id.items() if r.can_act} == {"a_foot", "a_march"}
    assert by_id["a_foot"].status == "ready"
    assert by_id["a_march"].status == "moved"  # moved, may still attack
    assert by_id["a_tired"].status == "rested"
    assert by_id["a_guard"].status == "done"
    assert by_id["a_broken"].status == "routed"
    # Those that can act first, the routed last; the order of battle within each.
    assert [r.id for r in rows] == ["a_foot", "a_march", "a_guard", "a_tired", "a_broken"]
    foot = match.state.formations["a_foot"]
    assert (by_id["a_foot"].men, by_id["a_foot"].morale) == (foot.men, foot.morale)
    assert by_id["a_foot"].threshold == rules.units["han_soldier"].rout_threshold


def test_outside_its_turn_no_formation_is_marked_ready(rules: Ruleset) -> None:
    match = field_match(rules)
    match.apply(EndTurn())
    rows = roster(match.state, rules, "a", match.record.actions)
    assert rows and not any(r.can_act for r in rows)
    assert {r.status for r in rows} == {"waiting"}
    # The side now moving has all its formations ready.
    assert all(r.can_act for r in roster(match.state, rules, "b", match.record.actions))


def test_a_rest_counts_only_in_the_turn_it_was_taken(rules: Ruleset) -> None:
    match = field_match(rules)
    match.apply(Rest(unit="a_tired"))
    match.apply(EndTurn())
    match.apply(EndTurn())
    rows = {r.id: r for r in roster(match.state, rules, "a", match.record.actions)}
    assert rows["a_tired"].status == "ready" and rows["a_tired"].can_act


# -- the widget -------------------------------------------------------------------------------


class Harness:
    """The list on a headless window's UI manager, with its events fed as the battle would:
    pygame_gui first, then the list's ``handle``; widget events it posts come next frame."""

    def __init__(self, app: App, unit_list: UnitList) -> None:
        self.app = app
        self.manager = pygame_gui.UIManager(app.size, theme(i18n.language()))
        self.list = unit_list
        anchor = pygame.Rect(app.size[0] - 200, app.size[1] - 200, 180, 90)
        unit_list.build(self.manager, app.size, anchor)

    def frame(self, *events: pygame.event.Event, dt: float = 0.0) -> list[bool]:
        used = []
        for event in events:
            self.manager.process_events(event)
            used.append(self.list.handle(event))
        self.manager.update(dt)
        for _ in range(10):
            posted = [e for e in pygame.event.get() if e.type >= pygame.USEREVENT]
            if not posted:
                break
            for event in posted:
                self.manager.process_events(event)
                used.append(self.list.handle(event))
            self.manager.update(0.0)
        self.manager.draw_ui(self.app.screen)
        return used

    def click(self, pos: tuple[int, int]) -> list[bool]:
        pygame.mouse.set_pos(pos)
        self.frame()  # the pointer arrives (pygame_gui hovers it) before the click
        return self.frame(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
        )

    def key(self, key: int) -> bool:
        return self.frame(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))[0]

    def wheel(self, pos: tuple[int, int], notches: int) -> bool:
        pygame.mouse.set_pos(pos)
        self.frame()
        used = self.frame(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False))
        for _ in range(20):  # pygame_gui glides to the new scroll position
            self.frame(dt=0.05)
        return used[0]


@pytest.fixture
def picked() -> list[str]:
    return []


@pytest.fixture
def shown(app: App, rules: Ruleset, picked: list[str]) -> Harness:
    match = played(rules)
    harness = Harness(app, UnitList(on_pick=picked.append))
    harness.list.update(roster(match.state, rules, "a", match.record.actions), None)
    harness.key(pygame.K_n)
    assert harness.list.visible
    return harness


def row_buttons(harness: Harness) -> dict[str, pygame_gui.elements.UIButton]:
    return {fid: button for button, fid in harness.list._row_buttons.items()}


def test_n_and_the_button_show_and_hide_the_list(app: App, rules: Ruleset) -> None:
    harness = Harness(app, UnitList(on_pick=lambda fid: None))
    ul = harness.list
    assert ul.panel is not None
    assert not ul.visible and not ul.panel.visible
    assert harness.key(pygame.K_n)
    assert ul.visible and ul.panel.visible
    assert not harness.key(pygame.K_m)  # other keys are the battle's
    assert any(harness.click(ul.button.rect.center))
    assert not ul.visible and not ul.panel.visible


def test_each_row_shows_one_of_the_sides_formations_and_a_click_picks_it(shown: Harness, picked: list[str]) -> None:
    buttons = row_buttons(shown)
    assert list(buttons) == ["a_foot", "a_march", "a_guard", "a_tired", "a_broken"]
    assert "b_levy" not in buttons and "b_rear" not in buttons
    # The count of those that can still act is on the toggle button.
    assert shown.list.button is not None
    assert shown.list.button.text == "Formations: 2 to act"
    target = buttons["a_guard"]
    assert shown.list.rect.contains(target.rect)
    used = shown.click(target.rect.center)
    assert picked == ["a_guard"]
    assert used[0]  # the press on the list goes no further: nothing beneath is clicked


def test_the_selected_formation_is_lit_and_the_wheel_still_scrolls_over_it(app: App, rules: Ruleset) -> None:
    many = [Unit(f"a_{i:02}", "a", "retainer", 100 + i, (i % 10, i // 10)) for i in range(30)]
    match = field_match(rules, [*many, Unit("b_levy", "b", "soul_levy", 1500, (9, 7))])
    harness = Harness(app, UnitList(on_pick=lambda fid: None))
    harness.key(pygame.K_n)
    harness.list.update(roster(match.state, rules, "a", match.record.actions), "a_01")
    lit = row_buttons(harness)["a_01"]
    other = row_buttons(harness)["a_02"]
    harness.frame()

    def gold(button: UIButton) -> int:
        area = app.screen.subsurface(button.rect)
        return pygame.mask.from_threshold(area, GOLD, (1, 1, 1, 255)).count()

    assert gold(lit) > lit.rect.width and gold(other) == 0
    top = lit.rect.top
    assert harness.wheel(lit.rect.center, -2)
    assert lit.rect.top < top


def test_a_long_list_scrolls_under_the_wheel_and_keeps_it_from_the_map(app: App, rules: Ruleset) -> None:
    many = [Unit(f"a_{i:02}", "a", "retainer", 100 + i, (i % 10, i // 10)) for i in range(30)]
    match = field_match(rules, [*many, Unit("b_levy", "b", "soul_levy", 1500, (9, 7))])
    picked: list[str] = []
    harness = Harness(app, UnitList(on_pick=picked.append))
    harness.list.update(roster(match.state, rules, "a", match.record.actions), None)
    harness.key(pygame.K_n)
    ul = harness.list
    assert ul.rect.height <= list_area(app.size).height < 30 * row_height()
    first = row_buttons(harness)["a_00"]
    top = first.rect.top
    # Elsewhere the wheel is the map's.
    assert not harness.wheel((app.size[0] // 2, app.size[1] // 2), -3)
    assert first.rect.top == top
    # Over the list it scrolls the list, and is used up.
    assert harness.wheel(ul.rect.center, -3)
    assert first.rect.top < top
    # A row scrolled into view is picked like any other.
    last = row_buttons(harness)["a_29"]
    harness.wheel(ul.rect.center, -30)
    assert ul.rect.collidepoint(last.rect.center)
    harness.click(last.rect.center)
    assert picked == ["a_29"]


def test_a_hidden_list_takes_no_clicks_and_no_wheel(app: App, rules: Ruleset) -> None:
    harness = Harness(app, UnitList(on_pick=lambda fid: None))
    ul = harness.list
    pos = list_area(app.size).center
    assert not ul.covers(pos)
    assert not harness.wheel(pos, -1)
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)
    assert harness.frame(down) == [False]


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_list_fits_the_left_column(lang: str, size: tuple[int, int]) -> None:
    """Between the top bar and the battle log, left of the unit panel, in every language."""
    from game.ui.hud import LOG_BOTTOM, PANEL_W, TOP_BAR_H

    before = i18n.language()
    i18n.set_language(lang)
    try:
        area = list_area(size)
        assert area.top > TOP_BAR_H and area.left > 0
        assert area.right < size[0] - PANEL_W - 10
        assert area.bottom < size[1] - LOG_BOTTOM - 6 * 20
        assert area.height >= 3 * row_height()
    finally:
        i18n.set_language(before)
