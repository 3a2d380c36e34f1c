"""The side view on screen, driven headless: the formation card, the enemy's reach on the map,
its toggle, and the legend of the banner marks, in every language."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_scenario

from game import i18n
from game.content.tmx import HexLayout
from game.core.engine import GameSettings
from game.core.hexgrid import Hex, distance
from game.core.rules import Ruleset
from game.record.match import Match
from game.ui import badges as badges_module
from game.ui import card_panel as card_panel_module
from game.ui import legend as legend_module
from game.ui.app import App
from game.ui.board_view import BoardView, Overlays
from game.ui.camera import Camera
from game.ui.card_panel import CardPanel, card_lines, place
from game.ui.geometry import MapGeometry
from game.ui.legend import ENTRIES, Legend
from game.ui.scene import Scene
from game.ui.threat_overlay import REACH_FILL, THREAT_FILL, ThreatToggle, draw_threat
from game.view.side_view import SideView

FIELD = ("................",) * 7
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (4, 3), hero="han_xin"),
    Unit("b_bow", "b", "crossbowman", 1500, (7, 3), hero="yue_fei"),
    Unit("b_vet", "b", "jurchen_veteran", 2000, (7, 5)),
    Unit("b_far", "b", "jurchen_veteran", 2000, (15, 0)),  # out of a's sight
]
SIDES = (("a", "yuqing", "player"), ("b", "zhenguo", "enemy"))
LANGUAGES = ("en", "zh_CN", "zh_TW")


@pytest.fixture(autouse=True)
def screen() -> Iterator[None]:
    pygame.init()
    before = i18n.language()
    yield
    i18n.set_language(before)


def match(rules: Ruleset) -> Match:
    scenario = make_scenario(rules, FIELD, UNITS, sides=SIDES, turn_limit=5)
    return Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "human"})


class Recording(pygame.Surface):
    """A surface that remembers where everything was blitted."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.blitted: list[pygame.Rect] = []

    def blit(self, source, dest, *args, **kw):  # type: ignore[no-untyped-def, override]
        rect = pygame.Rect(dest if len(dest) == 4 else (*dest, *source.get_size()))
        self.blitted.append(pygame.Rect(rect.topleft, source.get_size()))
        return super().blit(source, dest, *args, **kw)


class Texts:
    """The words a module renders, caught at its font."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *modules) -> None:  # type: ignore[no-untyped-def]
        self.rendered: list[str] = []
        texts = self

        class Caught:
            def __init__(self, f) -> None:  # type: ignore[no-untyped-def]
                self.f = f

            def render(self, text, *args):  # type: ignore[no-untyped-def]
                texts.rendered.append(text)
                return self.f.render(text, *args)

            def __getattr__(self, name):  # type: ignore[no-untyped-def]
                return getattr(self.f, name)

        for module in (*modules, badges_module):
            real = module.font
            monkeypatch.setattr(module, "font", lambda size, bold=False, real=real: Caught(real(size, bold)))


# -- the card ----------------------------------------------------------------------------------


def rich_card(rules: Ruleset):  # type: ignore[no-untyped-def]
    """The card with the most to say: a hero with two skills, missiles, thunder, an effect,
    tired and routed."""
    m = match(rules)
    bow = m.state.formations["b_bow"]
    bow.men, bow.morale, bow.fatigue, bow.routed, bow.effects = 1234, 20, 60, True, {"ride_light": 9}
    card = SideView(m.state, m.engine.board, rules, "a").card("b_bow")
    assert card is not None
    return m, card


def test_an_enemy_card_shows_its_men_and_explains_its_marks(rules: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    i18n.set_language("en")
    m, card = rich_card(rules)
    texts = Texts(monkeypatch, card_panel_module)
    surface = Recording((1280, 800))
    panel = CardPanel(rules, side_name=lambda s: {"a": "Yuqing", "b": "Zhenguo"}[s])
    rect = panel.draw(surface, card, (1270, 60))
    shown = " | ".join(texts.rendered)
    assert "1,234 of 1,500 men" in shown
    assert "Enemy · Zhenguo" in shown and "Yue Fei" in shown
    assert "Morale 20 (breaks below" in shown and "Missiles: range 2, shots 6" in shown
    assert "Routed" in shown and "溃" in shown and "Tired" in shown and "疲" in shown  # badge and its word
    assert "Officer killer (passive)" in shown and "Effects: Riding light" in shown
    assert card_lines(card, panel.side_name)[0] == "Enemy · Zhenguo"
    assert rect.right <= 1270 and rect.top == 60 and panel.covers(rect.center)
    panel.hide()
    assert not panel.covers(rect.center)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_card_fits_on_every_screen_in_every_language(rules: Ruleset, lang: str, size: tuple[int, int]) -> None:
    i18n.set_language(lang)
    _m, card = rich_card(rules)
    surface = Recording(size)
    rect = CardPanel(rules).draw(surface, card, (size[0] - 10, 54))
    assert surface.get_rect().contains(rect)
    assert rect.height <= size[1] - 54
    assert all(rect.contains(b) for b in surface.blitted[1:]), [b for b in surface.blitted if not rect.contains(b)]


def test_a_hidden_enemy_has_no_card_to_draw(rules: Ruleset) -> None:
    m = match(rules)
    view = SideView(m.state, m.engine.board, rules, "a")
    assert view.card("b_far") is None  # the screen has nothing to hand the panel


# -- the enemy's reach on the map --------------------------------------------------------------


def board_view(rules: Ruleset, m: Match) -> tuple[BoardView, MapGeometry, Camera]:
    board = m.engine.board
    geometry = MapGeometry(HexLayout(56.0, 64.0, 32.0, True), board.width, board.height)
    camera = Camera(geometry.pixel_size, (1280, 800))
    return BoardView(geometry, board.terrain, rules), geometry, camera


def centre_pixel(surface: pygame.Surface, geometry: MapGeometry, camera: Camera, h: Hex) -> tuple[int, ...]:
    x, y = camera.to_screen(geometry.centre(h))
    return tuple(surface.get_at((round(x), round(y))))[:3]


def test_the_threat_overlay_tints_exactly_its_hexes(rules: Ruleset) -> None:
    m = match(rules)
    view = SideView(m.state, m.engine.board, rules, "a")
    threat, reach = view.threat.hexes, view.enemy_reach("b_vet")
    assert threat and reach and reach < threat
    _bv, geometry, camera = board_view(rules, m)
    surface = pygame.Surface((1280, 800))
    surface.fill((0, 0, 0))
    draw_threat(surface, geometry, camera, threat, reach)
    for h in m.engine.board.hexes():
        colour = centre_pixel(surface, geometry, camera, h)
        if h in reach:
            assert colour == pytest.approx(tuple(c * REACH_FILL[3] / 255 for c in REACH_FILL[:3]), abs=2), h
        elif h in threat:
            assert colour == pytest.approx(tuple(c * THREAT_FILL[3] / 255 for c in THREAT_FILL[:3]), abs=2), h
        else:
            assert colour == (0, 0, 0), h


def test_the_board_draws_the_threat_it_is_given(rules: Ruleset) -> None:
    m = match(rules)
    view = SideView(m.state, m.engine.board, rules, "a")
    bv, geometry, camera = board_view(rules, m)
    plain, shaded = pygame.Surface((1280, 800)), pygame.Surface((1280, 800))
    bv.draw(plain, camera, view.state, Overlays())
    bv.draw(shaded, camera, view.state, Overlays(threat=view.threat.hexes))
    banners = [f.pos for f in m.state.formations.values()]
    for h in m.engine.board.hexes():
        if any(distance(h, b) <= 1 for b in banners):
            continue  # a banner and its marks cover the middle of its hex and of the next
        changed = centre_pixel(plain, geometry, camera, h) != centre_pixel(shaded, geometry, camera, h)
        assert changed == (h in view.threat.hexes), h


def test_the_toggle_shows_the_threat_and_a_looked_at_enemys_reach(rules: Ruleset) -> None:
    m = match(rules)
    view = SideView(m.state, m.engine.board, rules, "a")
    toggle = ThreatToggle()
    assert toggle.overlay(view) == (frozenset(), frozenset())
    assert toggle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
    assert toggle.overlay(view) == (view.threat.hexes, frozenset())
    assert toggle.overlay(view, "b_bow") == (view.threat.hexes, view.enemy_reach("b_bow"))
    assert toggle.overlay(view, "a_foot")[1] == frozenset()  # our own men threaten us not
    assert toggle.overlay(view, "b_far")[1] == frozenset()  # nor does an enemy we cannot see
    assert not toggle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0))
    toggle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
    assert not toggle.on and toggle.overlay(view, "b_bow")[0] == frozenset()


class Controls(Scene):
    """A bare screen with the threat toggle and the legend buttons, as a battle screen would hold them."""

    def build(self) -> None:
        self.toggle = getattr(self, "toggle", ThreatToggle())
        self.legend = getattr(self, "legend", Legend())
        self.toggle.build(self.manager, pygame.Rect(10, 10, 150, 34))
        self.legend.build(self.manager, pygame.Rect(170, 10, 150, 34))

    def handle(self, event: pygame.event.Event) -> None:
        self.toggle.handle(event) or self.legend.handle(event)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((0, 0, 0))
        self.legend.draw(surface, (10, 54), pygame.mouse.get_pos())


def click(app: App, pos: tuple[int, int]) -> None:
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def test_the_buttons_switch_the_threat_and_the_legend(app: App) -> None:
    i18n.set_language("en")
    scene = Controls(app)
    app.switch(scene)
    frame(app)
    assert scene.toggle.button is not None and scene.legend.button is not None
    click(app, scene.toggle.button.rect.center)
    assert scene.toggle.on and scene.toggle.button.is_selected
    click(app, scene.legend.button.rect.center)
    assert scene.legend.visible and scene.legend.rect.height > 0
    click(app, scene.toggle.button.rect.center)
    assert not scene.toggle.on and scene.legend.visible
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0, unicode="k", scancode=0))
    assert not scene.legend.visible


# -- the legend ----------------------------------------------------------------------------------


def test_the_legend_names_every_mark_and_explains_the_one_pointed_at(monkeypatch: pytest.MonkeyPatch) -> None:
    i18n.set_language("en")
    legend = Legend()
    surface = Recording((1280, 800))
    assert legend.draw(surface, (10, 60)) is None and not legend.covers((20, 70))  # hidden at first
    assert legend.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0)) and legend.visible
    texts = Texts(monkeypatch, legend_module)
    rect = legend.draw(surface, (10, 60))
    assert rect is not None and legend.covers(rect.center)
    for entry in ENTRIES:
        assert entry.label in texts.rendered
    for glyph in ("溃", "矢6", "雷2", "伏", "疲", "1k"):  # the souls' count beside their wisp
        assert any(glyph in t for t in texts.rendered), glyph
    assert "Point at a mark to read what it means; click it to read more." in " ".join(texts.rendered)
    rows = dict((e.id, r) for e, r in legend._rows)
    texts.rendered.clear()
    legend.draw(surface, (10, 60), mouse=rows["tired"].center)
    tired = legend.entry_at(rows["tired"].center)
    assert tired is not None and tired.id == "tired"
    tip = " ".join(texts.rendered)
    assert "Fatigue is high" in tip and "Resting restores it." in tip


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_legend_fits_in_every_language(lang: str, size: tuple[int, int]) -> None:
    i18n.set_language(lang)
    legend = Legend()
    legend.toggle()
    surface = Recording(size)
    rect = legend.draw(surface, (10, 54), mouse=None)
    assert rect is not None and surface.get_rect().contains(rect)
    for entry in ENTRIES:
        rows = dict((e.id, r) for e, r in legend._rows)
        surface.blitted.clear()
        legend.draw(surface, (10, 54), mouse=rows[entry.id].center)
        assert all(rect.contains(b) for b in surface.blitted[1:]), entry.id


def test_a_card_is_placed_clear_of_the_panels_and_of_the_formation() -> None:
    screen = pygame.Rect(0, 0, 800, 560)
    hud = pygame.Rect(490, 54, 300, 180)
    first = place(screen, (300, 340), (400, 280), [hud])
    assert not first.colliderect(hud) and not first.collidepoint((400, 280)) and screen.contains(first)
    # With the left taken too, under the unit panel if there is room, else what covers least.
    legend = pygame.Rect(10, 54, 300, 360)
    second = place(screen, (300, 200), (100, 500), [hud, legend])
    assert not second.colliderect(hud) and not second.colliderect(legend) and screen.contains(second)
    crowded = place(screen, (300, 400), (650, 300), [hud, legend])
    assert screen.contains(crowded)
