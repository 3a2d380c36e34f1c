"""The map on screen, as the battle, the replay viewer and the hotseat replay share it: a click
gives its hex, a drag pans and gives none, the wheel zooms, and a panel over the map takes both."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.content.scenarios import load_scenario
from game.ui.app import App
from game.ui.map_view import MapView


def view() -> MapView:
    from game.content.ruleset import load_ruleset

    return MapView(load_scenario("a1_valley_mouth"), load_ruleset(), pygame.Rect(0, 0, 800, 600))


def down(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def up(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def motion(pos: tuple[int, int], rel: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=(1, 0, 0))


def test_a_click_gives_the_hex_under_it() -> None:
    mv = view()
    h = mv.hex_at((400, 300))
    assert mv.pointer(down((400, 300))) is None
    assert mv.pointer(up((400, 300))) == h
    x, y = mv.on_screen(h)
    assert mv.hex_at((x, y)) == h


def test_a_drag_pans_and_clicks_nothing() -> None:
    mv = view()
    before = (mv.camera.x, mv.camera.y)
    mv.pointer(down((400, 300)))
    mv.pointer(motion((440, 300), (40, 0)))
    assert mv.pointer(up((440, 300))) is None
    assert (mv.camera.x, mv.camera.y) != before


def test_a_press_on_a_panel_neither_clicks_nor_drags() -> None:
    mv = view()
    before = (mv.camera.x, mv.camera.y)
    mv.pointer(down((400, 300)), on_panel=True)
    mv.pointer(motion((460, 300), (60, 0)))
    assert mv.pointer(up((460, 300))) is None
    assert (mv.camera.x, mv.camera.y) == before


def test_the_wheel_zooms_the_map_but_not_through_a_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    mv = view()
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: (400, 300))
    zoom = mv.camera.zoom
    mv.pointer(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1), on_panel=True)
    assert mv.camera.zoom == zoom
    mv.pointer(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    assert mv.camera.zoom > zoom
    assert mv.zoom_key(pygame.K_MINUS) and mv.camera.zoom == zoom
    assert not mv.zoom_key(pygame.K_q)


def test_the_board_is_drawn_afresh_only_when_it_changes_or_the_view_leaves_the_kept_picture(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.core.actions import EndTurn
    from game.core.engine import GameSettings
    from game.record.match import Match
    from game.ui.board_view import BoardView, Overlays

    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 1, GameSettings(), seats={"coalition": "ai", "hailing": "ai"})
    mv = view()
    drawn: list[int] = []
    still = BoardView._draw_still

    def counted(self: BoardView, *a: Any) -> None:
        drawn.append(1)
        still(self, *a)

    monkeypatch.setattr(BoardView, "_draw_still", counted)
    surface = pygame.Surface((800, 600))
    mv.draw(surface, match.state, Overlays())
    mv.camera.pan(20, 0)
    mv.draw(surface, match.state, Overlays(hover=mv.hex_at((400, 300))))  # the hover is drawn over it
    assert len(drawn) == 1
    match.apply(EndTurn())
    mv.draw(surface, match.state, Overlays())
    assert len(drawn) == 2  # the game changed
    mv.camera.pan(2000, 0)
    mv.draw(surface, match.state, Overlays())
    assert len(drawn) == 3  # the view left the kept picture


def test_the_board_starts_at_the_ui_scale() -> None:
    from game.ui import scale

    before = scale.ui_scale()
    try:
        scale.set_ui_scale(200)
        assert view().camera.zoom == 2.0
        scale.set_ui_scale(125)
        assert view().camera.zoom == 1.25
    finally:
        scale.set_ui_scale(round(before * 100))


def test_banners_count_men_in_the_readers_language(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    from game import i18n
    from game.ui.banners import Banners
    from game.ui.board_view import Overlays

    drawn: list[str] = []
    glyph = Banners.glyph

    def noted(self: Banners, text: str, *a: Any) -> pygame.Surface:
        drawn.append(text)
        return glyph(self, text, *a)

    monkeypatch.setattr(Banners, "glyph", noted)
    from game.core.engine import GameSettings
    from game.record.match import Match

    loaded = load_scenario("a1_valley_mouth")
    state = Match(loaded, 1, GameSettings(), seats={"coalition": "ai", "hailing": "ai"}).state
    try:
        i18n.set_language("zh_CN")
        view().draw(pygame.Surface((800, 600)), state, Overlays())
    finally:
        i18n.set_language("en")
    assert "5000" in drawn  # the trapped host's 5,000-strong formations, not 5k or 5,000
    assert not any(t.endswith("k") and t[0].isdigit() for t in drawn)
