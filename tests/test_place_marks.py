"""The board draws the places' names and the objective regions' borders, headless.

Every check renders frames with the board view and compares pixels: with and without the names,
with and without the outlines, under fog and in the open.
"""

from __future__ import annotations

import itertools

import pygame
import pytest
from conftest import Unit, make_scenario

from game import i18n
from game.content.scenarios import load_scenario
from game.content.tmx import HexLayout
from game.core.engine import Engine
from game.core.hexgrid import Hex
from game.core.places import map_places
from game.core.rules import Ruleset
from game.core.scenario_events import EventSpec
from game.core.state import GameState
from game.ui import place_marks as place_marks_module
from game.ui.board_view import BoardView, Overlays
from game.ui.camera import ZOOM_LEVELS, Camera
from game.ui.geometry import MapGeometry, outline_paths
from game.ui.place_marks import RIM_COLOUR, PlaceMarks, name_size, render_name
from game.view.side_view import Fog

A1 = "a1_valley_mouth"
B1 = "b1_the_valley"

pytestmark = pytest.mark.usefixtures("english", "display")


@pytest.fixture(scope="module")
def display() -> None:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))


def board_view(sid: str, rules: Ruleset) -> tuple[BoardView, GameState]:
    loaded = load_scenario(sid)
    board = loaded.scenario.board
    view = BoardView(
        MapGeometry(loaded.layout, board.width, board.height), board.terrain, rules, map_places(loaded.scenario)
    )
    return view, Engine(loaded.scenario, rules, 1).state


def whole_map(view: BoardView, zoom: float = 0.5) -> Camera:
    """A camera whose view is the whole map at ``zoom``."""
    w, h = view.geometry.pixel_size
    camera = Camera((w, h), (round(w * zoom), round(h * zoom)))
    camera.zoom_index = ZOOM_LEVELS.index(zoom)
    camera.x = camera.y = 0.0
    return camera


def looking_at(view: BoardView, h: Hex, zoom: float = 1.0) -> Camera:
    camera = Camera(view.geometry.pixel_size, (640, 480))
    camera.zoom_index = ZOOM_LEVELS.index(zoom)
    camera.centre_on(view.geometry.centre(h))
    return camera


def render(
    view: BoardView,
    camera: Camera,
    state: GameState,
    fog: Fog | None = None,
    place_names: bool = True,
    objective_outlines: bool = True,
) -> pygame.Surface:
    surf = pygame.Surface((camera.view_w, camera.view_h))
    view.draw(surf, camera, state, Overlays(place_names=place_names, objective_outlines=objective_outlines), fog=fog)
    return surf


def marks_of(view: BoardView) -> PlaceMarks:
    """The view's names and outlines (it was given the scenario's places)."""
    assert view.place_marks is not None
    return view.place_marks


def changed(a: pygame.Surface, b: pygame.Surface) -> pygame.Mask:
    """The pixels that differ between two frames of the same size."""
    diff = a.copy()
    diff.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    other = b.copy()
    other.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    diff.blit(other, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(diff, (0, 0, 0, 255), (1, 1, 1, 255))
    same.invert()
    return same


def count_in(mask: pygame.Mask, rect: pygame.Rect) -> int:
    """How many of the mask's pixels lie inside ``rect``."""
    return mask.overlap_area(pygame.Mask(rect.size, fill=True), rect.topleft)


def outside(mask: pygame.Mask, rects: list[pygame.Rect]) -> int:
    """How many of the mask's pixels lie outside every one of ``rects``."""
    allowed = pygame.Mask(mask.get_size())
    for r in rects:
        allowed.draw(pygame.Mask(r.size, fill=True), r.topleft)
    return mask.count() - mask.overlap_area(allowed, (0, 0))


def on_screen(view: BoardView, camera: Camera, point: tuple[float, float]) -> tuple[int, int]:
    x, y = camera.to_screen(point)
    return round(x), round(y)


def without_formations(state: GameState) -> GameState:
    state.formations.clear()
    return state


# -- names ----------------------------------------------------------------------------------


def test_a_places_name_is_drawn_on_its_anchor(rules: Ruleset) -> None:
    view, state = board_view(A1, rules)
    state = without_formations(state)
    places = {p.region: p for p in marks_of(view).places.places}
    defile = places["the_front"]
    camera = looking_at(view, defile.anchor)
    named = render(view, camera, state, objective_outlines=False)
    assert "the_front" in marks_of(view).drawn_names
    bare = render(view, camera, state, place_names=False, objective_outlines=False)
    assert marks_of(view).drawn_names == []
    diff = changed(named, bare)
    # The name sits on the anchor hex, rim and all.
    [(_, rect)] = [(p, r) for p, r in marks_of(view).layout(camera.zoom, None) if p.region == "the_front"]
    box = rect.move(-round(camera.x), -round(camera.y))
    assert box.collidepoint(on_screen(view, camera, view.geometry.centre(defile.anchor)))
    assert count_in(diff, box) > 200
    colours = {tuple(named.get_at((x, y)))[:3] for x in range(box.left, box.right) for y in range(box.top, box.bottom)}
    assert RIM_COLOUR in colours
    assert box.height >= name_size(camera.zoom)


def test_every_labelled_place_of_a_map_is_named_when_all_is_seen(rules: Ruleset) -> None:
    view, state = board_view(B1, rules)
    render(view, whole_map(view), without_formations(state))
    assert sorted(marks_of(view).drawn_names) == sorted(load_scenario(B1).scenario.board.labels)


def test_names_are_translated(rules: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    view, state = board_view(A1, rules)
    defile = next(p for p in marks_of(view).places.places if p.region == "the_front")
    english = marks_of(view).name_surface(defile, 1.0).get_size()
    monkeypatch.setattr(i18n, "_", lambda text: f"«{text.upper()}»")
    shouted = marks_of(view).name_surface(defile, 1.0)
    assert shouted.get_size() == render_name("«THE DEFILE»", name_size(1.0), (0, 0, 0)).get_size() != english


def test_an_unexplored_places_name_is_not_drawn(rules: Ruleset) -> None:
    view, state = board_view(A1, rules)
    state = without_formations(state)
    board = load_scenario(A1).scenario.board
    # The ground before the defile, the defile itself inside it, unexplored.
    defile = board.regions["around_the_defile"]
    assert board.regions["the_front"] <= defile
    camera = whole_map(view)
    everything = frozenset(board.hexes())
    fog = Fog(visible=everything - defile, explored=everything - defile, shown=frozenset())
    named = render(view, camera, state, fog, objective_outlines=False)
    assert not {"the_front", "around_the_defile"} & set(marks_of(view).drawn_names)
    assert "valley_mouth" in marks_of(view).drawn_names
    bare = render(view, camera, state, fog, place_names=False, objective_outlines=False)
    anchor = next(p.anchor for p in marks_of(view).places.places if p.region == "the_front")
    x, y = on_screen(view, camera, view.geometry.centre(anchor))
    assert count_in(changed(named, bare), pygame.Rect(x - 40, y - 15, 80, 30)) == 0
    # One explored hex of the region is enough, and the name goes there.
    seen = everything - defile | {anchor}
    render(view, camera, state, Fog(visible=seen, explored=seen, shown=frozenset()), objective_outlines=False)
    assert "the_front" in marks_of(view).drawn_names


def test_names_never_overlap_at_any_zoom(rules: Ruleset) -> None:
    from game.content.scenarios import scenario_ids

    for sid in scenario_ids():
        view, state = board_view(sid, rules)
        banners = [view.banners.footprint(f, 1.0) for f in state.formations.values()]
        for zoom in ZOOM_LEVELS:
            rects = [r for _, r in marks_of(view).layout(zoom, None, banners)]
            for a, b in itertools.combinations(rects, 2):
                assert not a.colliderect(b), (sid, zoom)


def test_when_names_crowd_the_lesser_are_dropped(rules: Ruleset) -> None:
    scenario = make_scenario(rules, ("....",), [Unit("x", "a", "han_soldier", 10, (0, 0))])
    board = scenario.board
    everything = frozenset(board.hexes())
    board.regions = {"field": everything, "meadow": everything, "heath": everything}
    board.labels = {"field": "Field", "meadow": "A Meadow", "heath": "The Heath"}
    events = (
        EventSpec.model_validate(
            {
                "id": "won",
                "when": {"kind": "enters_region", "region": "field", "side": "a"},
                "do": [{"kind": "victory", "side": "a"}],
            }
        ),
    )
    scenario = scenario.__class__(**{**scenario.__dict__, "events": events})
    geometry = MapGeometry(HexLayout(56.0, 64.0, 32.0, True), board.width, board.height)
    marks = marks_of(BoardView(geometry, board.terrain, rules, map_places(scenario)))
    close = [p.region for p, _ in marks.layout(2.0, None)]
    far = [p.region for p, _ in marks.layout(0.5, None)]
    assert far == ["field"]  # no room but for one: the objective keeps its name
    assert close[0] == "field" and len(close) > 1


# -- under the banners ----------------------------------------------------------------------


def test_names_never_cover_a_banner(rules: Ruleset) -> None:
    view, state = board_view(B1, rules)
    camera = whole_map(view, 1.0)
    named = render(view, camera, state)
    bare = render(view, camera, state, place_names=False)
    diff = changed(named, bare)
    assert diff.count() > 0
    for f in state.formations.values():
        x, y, w, h = view.banners.footprint(f, camera.zoom)
        banner = pygame.Rect(x, y, w, h).move(-round(camera.x), -round(camera.y))
        assert count_in(diff, banner) == 0, f.id


def test_a_name_moves_off_a_banner_that_stands_on_its_anchor(rules: Ruleset) -> None:
    view, state = board_view(A1, rules)
    defile = next(p for p in marks_of(view).places.places if p.region == "the_front")
    f = next(iter(state.formations.values()))
    f.pos = defile.anchor
    state.formations = {f.id: f}
    footprint = pygame.Rect(view.banners.footprint(f, 1.0))
    box = (footprint.x, footprint.y, footprint.w, footprint.h)
    [rect] = [r for p, r in marks_of(view).layout(1.0, None, [box]) if p.region == "the_front"]
    assert not rect.colliderect(footprint)
    assert view.geometry.hex_at(rect.centerx / 1.0, rect.centery / 1.0) in defile.hexes


# -- outlines -------------------------------------------------------------------------------


def test_outlines_are_drawn_for_objective_regions_only(rules: Ruleset) -> None:
    view, state = board_view(A1, rules)
    state = without_formations(state)
    camera = whole_map(view)
    lined = render(view, camera, state, place_names=False)
    assert sorted(marks_of(view).drawn_outlines) == ["around_the_defile", "the_front", "valley_mouth"]
    bare = render(view, camera, state, place_names=False, objective_outlines=False)
    diff = changed(lined, bare)
    board = load_scenario(A1).scenario.board
    allowed = []
    for region in ("around_the_defile", "the_front", "valley_mouth"):
        pts = [on_screen(view, camera, c) for h in board.regions[region] for c in view.geometry.corners(h)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        allowed.append(pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).inflate(8, 8))
    assert diff.count() > 0 and outside(diff, allowed) == 0
    # Along the border of each: the line is there.
    for region in ("around_the_defile", "the_front", "valley_mouth"):
        path = outline_paths(view.geometry, board.regions[region])[0]
        (ax, ay), (bx, by) = path[0], path[1]
        mid = on_screen(view, camera, ((ax + bx) / 2, (ay + by) / 2))
        assert lined.get_at(mid) != bare.get_at(mid), region


def test_an_outline_follows_the_fog_and_fades_when_its_objective_is_settled(rules: Ruleset) -> None:
    view, state = board_view(A1, rules)
    state = without_formations(state)
    board = load_scenario(A1).scenario.board
    camera = whole_map(view)
    everything = frozenset(board.hexes())
    hidden = everything - board.regions["around_the_defile"]
    render(view, camera, state, Fog(visible=hidden, explored=hidden, shown=frozenset()), place_names=False)
    assert marks_of(view).drawn_outlines == ["valley_mouth"]
    state.fired_events.append("valley_swept")  # the trap can no longer be relieved
    render(view, camera, state, place_names=False)
    assert sorted(marks_of(view).drawn_outlines) == ["around_the_defile", "the_front"]


def test_outline_paths_follow_the_outer_edges(rules: Ruleset) -> None:
    geometry = MapGeometry(HexLayout(56.0, 64.0, 32.0, True), 4, 4)
    one = outline_paths(geometry, [Hex(1, 1)])
    assert len(one) == 1 and len(one[0]) == 7 and one[0][0] == one[0][-1]
    two = outline_paths(geometry, [Hex(1, 1), Hex(2, 1)])  # neighbours: the shared edge is inside
    assert len(two) == 1 and len(two[0]) == 11 and two[0][0] == two[0][-1]
    half = outline_paths(geometry, [Hex(1, 1), Hex(2, 1)], shown={Hex(1, 1)})
    assert len(half) == 1 and len(half[0]) == 6 and half[0][0] != half[0][-1]  # an open piece
    assert outline_paths(geometry, [Hex(1, 1)], shown=set()) == []


# -- cost -----------------------------------------------------------------------------------


def test_names_layout_and_outlines_are_cached(rules: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    view, state = board_view(A1, rules)
    camera = whole_map(view)
    render(view, camera, state)
    marks = marks_of(view)
    layout = marks.layout(
        camera.zoom, None, [view.banners.footprint(f, camera.zoom) for f in state.formations.values()]
    )
    outline = marks.outline("the_front", camera.zoom, None)
    rendered: list[str] = []
    real = place_marks_module.render_name

    def render_and_note(text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        rendered.append(text)
        return real(text, size, colour)

    monkeypatch.setattr(place_marks_module, "render_name", render_and_note)
    render(view, camera, state)
    assert rendered == []  # nothing rendered again
    assert (
        marks.layout(camera.zoom, None, [view.banners.footprint(f, camera.zoom) for f in state.formations.values()])
        is layout
    )
    assert marks.outline("the_front", camera.zoom, None) is outline
    camera.zoom_index = ZOOM_LEVELS.index(1.0)
    render(view, camera, state)
    assert rendered  # a new zoom renders the names at their new size, once
    count = len(rendered)
    render(view, camera, state)
    assert len(rendered) == count


def test_the_flags_default_on_and_a_view_without_places_draws_none(rules: Ruleset) -> None:
    assert Overlays().place_names and Overlays().objective_outlines
    loaded = load_scenario(A1)
    board = loaded.scenario.board
    plain = BoardView(MapGeometry(loaded.layout, board.width, board.height), board.terrain, rules)
    view, state = board_view(A1, rules)
    camera = whole_map(view)
    assert plain.place_marks is None
    off = render(view, camera, state, place_names=False, objective_outlines=False)
    assert changed(render(plain, camera, state), off).count() == 0
