"""The minimap: where a click sends the camera, what it keeps from the map, and that it shows a
side nothing its fog hides (checked on the drawn pixels)."""

from __future__ import annotations

import pygame
import pytest
from conftest import Unit, loaded_for, make_scenario

from game.core import vision
from game.core.engine import GameSettings
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.record.match import Match
from game.ui.app import App
from game.ui.board_view import FOG_UNEXPLORED
from game.ui.camera import Camera
from game.ui.geometry import MapGeometry
from game.ui.hud import PANEL_W, TOP_BAR_H
from game.ui.minimap import VIEW_COLOUR, Minimap, minimap_rect, terrain_colours
from game.view.side_view import Fog

SIZE = (1280, 800)
# A long field: side a at the west end cannot see the east end.
FIELD = ("....................",) * 8
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (2, 3)),
    Unit("b_near", "b", "soul_levy", 1500, (4, 3)),  # two hexes away: in sight
    Unit("b_far", "b", "soul_levy", 1500, (18, 6)),  # at the other end: out of sight
]


@pytest.fixture
def match(rules: Ruleset) -> Match:
    """Two humans at one screen (hotseat): each must see only their own side's view."""
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=5)
    return Match(loaded_for(scenario), 1, GameSettings(), seats={"a": "human", "b": "human"})


def fog_of(match: Match, side: str) -> Fog:
    """What ``side`` knows, as the battle screen works it out."""
    state, board, rules = match.state, match.loaded.scenario.board, match.engine.rules
    return Fog(
        visible=vision.visible_hexes(state, board, rules, side),
        explored=frozenset(Hex.parse(k) for k in state.side(side).explored),
        shown=frozenset(f.id for f in vision.seen_formations(state, board, rules, side)),
    )


class Setup:
    def __init__(self, match: Match, rules: Ruleset) -> None:
        board = match.loaded.scenario.board
        self.geometry = MapGeometry(match.loaded.layout, board.width, board.height)
        self.camera = Camera(self.geometry.pixel_size, SIZE)
        self.moves: list[tuple[float, float]] = []
        self.minimap = Minimap(self.geometry, board.terrain, rules, on_move=self.moves.append)
        self.minimap.place(SIZE)
        self.screen = pygame.Surface(SIZE)
        self.match = match

    def draw(self, fog: Fog | None) -> None:
        self.screen.fill((0, 0, 0))
        self.minimap.draw(self.screen, self.camera, self.match.state.formations.values(), fog)

    def dot(self, fid: str) -> pygame.Rect:
        """The box a formation's dot would take on the minimap."""
        f = self.match.state.formations[fid]
        x, y = self.minimap.to_minimap(self.geometry.centre(f.pos))
        r = self.minimap.dot_radius + 2
        return pygame.Rect(round(x) - r, round(y) - r, 2 * r + 1, 2 * r + 1)

    def pixel(self, h: Hex) -> tuple[int, int, int]:
        x, y = self.minimap.to_minimap(self.geometry.centre(h))
        c = self.screen.get_at((round(x), round(y)))
        return (c.r, c.g, c.b)


@pytest.fixture
def setup(match: Match, rules: Ruleset) -> Setup:
    return Setup(match, rules)


def count(surface: pygame.Surface, colour: tuple[int, int, int], rect: pygame.Rect) -> int:
    return pygame.mask.from_threshold(surface.subsurface(rect), colour, (1, 1, 1, 255)).count()


def faction_colour(rules: Ruleset, unit_type: str) -> tuple[int, int, int]:
    return rules.factions[rules.units[unit_type].faction].colour


# -- placement and input ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [(800, 560), (1280, 800), (1920, 1080)])
@pytest.mark.parametrize("map_size", [(2044, 1696), (3612, 1920), (3500, 1024)])
def test_it_sits_in_the_bottom_right_corner_shaped_like_the_map(
    size: tuple[int, int], map_size: tuple[int, int]
) -> None:
    rect = minimap_rect(size, map_size)
    w, h = size
    assert rect.right <= w - 10 and rect.bottom <= h - 100  # above the End turn button
    assert rect.left > w - PANEL_W - 40 and rect.top > TOP_BAR_H + h // 3
    assert rect.width / rect.height == pytest.approx(map_size[0] / map_size[1], rel=0.05)


def test_a_click_sends_the_camera_to_that_place_on_the_map(setup: Setup) -> None:
    mm = setup.minimap
    target = setup.geometry.centre(setup.match.state.formations["b_far"].pos)
    pos = tuple(round(c) for c in mm.to_minimap(target))
    down = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)
    assert mm.handle(down)
    (at,) = setup.moves
    # Within one minimap pixel of the formation's place, and on its hex.
    assert at[0] == pytest.approx(target[0], abs=1 / mm.scale) and at[1] == pytest.approx(target[1], abs=1 / mm.scale)
    assert setup.geometry.hex_at(*at) == setup.match.state.formations["b_far"].pos
    assert mm.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


def test_dragging_follows_the_pointer_and_stops_on_release(setup: Setup) -> None:
    mm = setup.minimap
    a, b = mm.rect.move(5, 5).topleft, mm.rect.move(-5, -5).bottomright
    mm.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1, touch=False))
    assert mm.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(1, 1), buttons=(1, 0, 0), touch=False))
    assert setup.moves[-1] == pytest.approx(mm.to_map(b))
    # Dragged off the minimap, the view stops at the map's edge.
    far = (mm.rect.right + 200, mm.rect.bottom + 200)
    mm.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=far, rel=(1, 1), buttons=(1, 0, 0), touch=False))
    assert setup.moves[-1] == pytest.approx(setup.geometry.pixel_size)
    mm.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=far, button=1, touch=False))
    moves = len(setup.moves)
    assert not mm.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(1, 1), buttons=(0, 0, 0), touch=False))
    assert len(setup.moves) == moves


def test_the_map_keeps_clicks_and_the_wheel_away_from_the_minimap(app: App, setup: Setup) -> None:
    mm = setup.minimap
    away = (SIZE[0] // 2, SIZE[1] // 2)
    assert not mm.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=away, button=1, touch=False))
    assert not mm.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=away, button=1, touch=False))
    assert setup.moves == []
    wheel = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    pygame.mouse.set_pos(away)
    assert not mm.handle(wheel)
    pygame.mouse.set_pos(mm.rect.center)
    assert mm.handle(wheel)  # over the minimap the wheel does not zoom the map
    # A right click on it is not an order on the map beneath.
    assert mm.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=mm.rect.center, button=3, touch=False))
    assert setup.moves == []


# -- what it shows ----------------------------------------------------------------------------


def test_hidden_enemies_are_not_drawn_and_the_fog_is_kept(setup: Setup, match: Match, rules: Ruleset) -> None:
    fog = fog_of(match, "a")
    assert "b_near" in fog.shown and "b_far" not in fog.shown
    setup.draw(fog)
    hailing, yuqing = faction_colour(rules, "soul_levy"), faction_colour(rules, "han_soldier")
    assert count(setup.screen, yuqing, setup.dot("a_foot")) > 0
    assert count(setup.screen, hailing, setup.dot("b_near")) > 0
    # Nowhere on the minimap is there a trace of the formation side a does not see.
    assert count(setup.screen, hailing, setup.minimap.rect) == count(setup.screen, hailing, setup.dot("b_near"))
    assert count(setup.screen, hailing, setup.dot("b_far")) == 0
    # Ground side a never saw is black; ground in sight has its terrain's colour.
    far = match.state.formations["b_far"].pos
    assert far not in fog.explored
    assert max(setup.pixel(far + Hex(0, -1))) <= max(FOG_UNEXPLORED[:3])
    plain = terrain_colours()["plain"]
    seen = setup.pixel(match.state.formations["a_foot"].pos + Hex(0, 1))
    assert max(abs(a - b) for a, b in zip(seen, plain, strict=True)) <= 3

    # The other player's eyes (hotseat): b sees a's formation only if in its own sight.
    fog_b = fog_of(match, "b")
    setup.draw(fog_b)
    assert ("a_foot" in fog_b.shown) == (count(setup.screen, yuqing, setup.minimap.rect) > 0)


def test_ground_seen_before_but_out_of_sight_is_dimmed(setup: Setup, match: Match) -> None:
    fog = fog_of(match, "a")
    somewhere = match.state.formations["b_far"].pos + Hex(0, -1)
    remembered = Fog(visible=fog.visible, explored=fog.explored | {somewhere}, shown=fog.shown)
    setup.draw(remembered)
    plain = terrain_colours()["plain"]
    dim = setup.pixel(somewhere)
    assert max(dim) > max(FOG_UNEXPLORED[:3]) + 20 and sum(dim) < sum(plain) * 0.7


def test_without_fog_every_formation_is_drawn(setup: Setup, rules: Ruleset) -> None:
    setup.draw(None)
    hailing = faction_colour(rules, "soul_levy")
    assert count(setup.screen, hailing, setup.dot("b_far")) > 0


def test_the_terrain_picture_is_kept_between_frames(setup: Setup, match: Match) -> None:
    fog = fog_of(match, "a")
    mm = setup.minimap
    setup.draw(fog)
    picture = mm.fogged_picture(fog)
    base = mm.terrain_picture()
    setup.draw(fog)
    assert mm.fogged_picture(fog) is picture and mm.terrain_picture() is base
    # What the side sees changed: the fog is laid again, the terrain stays.
    moved = Fog(visible=fog.visible | {match.state.formations["b_far"].pos}, explored=fog.explored, shown=fog.shown)
    assert mm.fogged_picture(moved) is not picture
    assert mm.terrain_picture() is base


def test_the_cameras_view_is_outlined(setup: Setup) -> None:
    mm = setup.minimap
    setup.camera.zoom_at(3, (SIZE[0] / 2, SIZE[1] / 2))  # closer: the view is a part of the map
    setup.camera.centre_on((setup.geometry.pixel_size[0] / 2, setup.geometry.pixel_size[1] / 2))
    setup.draw(None)
    x0, y0 = mm.to_minimap(setup.camera.to_map((0, 0)))
    x1, y1 = mm.to_minimap(setup.camera.to_map((SIZE[0], SIZE[1])))
    view = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)).clip(mm.rect)
    assert 0 < view.width < mm.rect.width - 20
    for x in (view.left, view.right - 1):  # its left and right edges, top to bottom
        assert count(setup.screen, VIEW_COLOUR, pygame.Rect(x, view.top, 1, view.height)) >= view.height - 1
    assert count(setup.screen, VIEW_COLOUR, pygame.Rect(mm.rect.left, mm.rect.top, view.left - mm.rect.left, 5)) == 0
