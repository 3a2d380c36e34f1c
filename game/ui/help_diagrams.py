"""The small battlefield sketches of the help pages, drawn with the battle's own tiles and banners.

Each sketch is a few hexes of a real board (``core.board.Board``) with real formations on it,
drawn by ``BoardView``; where a sketch shows what the rules decide (where a column can march,
who stands in a pincer, what a column sees) the rules themselves are asked, so a sketch cannot
show what the game would not do. Arrows, rings and number tags are drawn over the board.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pygame

from ..content.tmx import HexLayout
from ..core import combat, vision
from ..core.board import Board
from ..core.hexgrid import Hex, distance, neighbours, offset_to_axial, opposite
from ..core.movement import FORCED_MARCH_FACTOR, search_moves
from ..core.rules import Ruleset
from ..core.state import Formation, GameState, SideState
from ..i18n import _
from ..view.side_view import Fog
from .board_view import PATH_COLOUR, TARGET_COLOUR, BoardView, Overlays
from .camera import ZOOM_LEVELS, Camera
from .fonts import font
from .geometry import MapGeometry
from .soul_mark import SOUL_COLOUR

# The maps' own hex layout (every shipped map uses it).
LAYOUT = HexLayout(56.0, 64.0, 32.0, True)
PAD = 10
TERRAIN = {
    ".": "plain",
    "s": "steppe",
    "a": "farmland",
    "=": "road",
    "f": "forest",
    "h": "hills",
    "M": "mountain",
    "v": "valley",
    "V": "village",
}
ZONE_COLOUR = (240, 120, 60)
FORCED_COLOUR = (240, 200, 80)
FLEE_COLOUR = (235, 235, 235)
BLAST_COLOUR = (255, 150, 40)
TAG_BG = (12, 13, 16)
WHITE = (255, 255, 255)


class Sketch:
    """A few hexes of battlefield: terrain from a grid of letters, formations, souls, and the
    battle's drawing of them onto a surface of their own."""

    def __init__(self, rules: Ruleset, grid: Sequence[str], zoom: float) -> None:
        self.rules = rules
        rows = [[rules.terrain[TERRAIN[c]] for c in row] for row in grid]
        self.board = Board.from_offset_grid(rows)
        self.geometry = MapGeometry(LAYOUT, self.board.width, self.board.height)
        self.view = BoardView(self.geometry, self.board.terrain, rules)
        w, h = self.geometry.pixel_size
        self.surface = pygame.Surface((round(w * zoom) + 2 * PAD, round(h * zoom) + 2 * PAD))
        self.camera = Camera((w, h), self.surface.get_size())
        self.camera.zoom_index = min(range(len(ZOOM_LEVELS)), key=lambda i: abs(ZOOM_LEVELS[i] - zoom))
        self.camera.x, self.camera.y = -PAD, -PAD
        self.formations: dict[str, Formation] = {}
        self.souls: dict[str, dict[str, int]] = {}
        self.sides = [
            SideState(id="a", faction="yuqing", role="player"),
            SideState(id="b", faction="hailing", role="enemy"),
        ]

    @property
    def zoom(self) -> float:
        return self.camera.zoom

    def at(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, LAYOUT.stagger_odd)

    def add(self, fid: str, side: str, unit: str, pos: Hex, men: int, **fields: object) -> Formation:
        utype = self.rules.units[unit]
        values: dict[str, object] = {
            "morale": utype.morale,
            "ammo": utype.ammo,
            "charges": utype.area_charges,
            **fields,
        }
        f = Formation(id=fid, side=side, type=unit, men=men, max_men=men, pos=pos, **values)
        self.formations[fid] = f
        return f

    def add_souls(self, pos: Hex, count: int, side: str = "b") -> None:
        self.souls.setdefault(pos.key(), {})[side] = count

    def state(self, with_formations: bool = True) -> GameState:
        return GameState(
            scenario_id="help",
            turn_limit=1,
            sides=self.sides,
            formations=dict(self.formations) if with_formations else {},
            field_souls=self.souls,
        )

    # -- drawing ---------------------------------------------------------------------------

    def ground(self, overlays: Overlays | None = None, fog: Fog | None = None) -> None:
        """Terrain, the battle's own overlays and the souls: what lies under the banners."""
        state = self.state(with_formations=False)
        shown = Fog(fog.visible, fog.explored, frozenset()) if fog is not None else None
        self.view.draw(self.surface, self.camera, state, overlays or Overlays(), fog=shown)

    def banners(self, selected: Hex | None = None) -> None:
        """The formations as the battle draws them, men counts last (as the battle does)."""
        bars = []
        for f in sorted(self.formations.values(), key=lambda f: (f.pos.r, f.pos.q)):
            bars.append((f, self.view.banners.draw(self.surface, self.camera, f, selected=f.pos == selected)))
        if self.zoom >= 0.75:
            for f, bar in bars:
                self.view.banners.draw_strength(self.surface, f, bar, self.zoom)

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.camera.to_screen(self.geometry.centre(h))

    def between(self, a: Hex, b: Hex, t: float) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        return ax + (bx - ax) * t, ay + (by - ay) * t

    def hexes(
        self, hexes: Sequence[Hex] | frozenset[Hex], colour: tuple[int, int, int], alpha: int = 60, width: int = 2
    ) -> None:
        """Hexes tinted and outlined, the way the battle marks an area."""
        layer = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        for h in hexes:
            pts = [(x - self.camera.x, y - self.camera.y) for x, y in self.geometry.corners(h, self.zoom, 0.9)]
            pygame.draw.polygon(layer, (*colour, alpha), pts)
            pygame.draw.polygon(layer, (*colour, 230), pts, width)
        self.surface.blit(layer, (0, 0))

    def arrow(
        self,
        points: Sequence[tuple[float, float]],
        colour: tuple[int, int, int],
        dashed: bool = False,
        width: int | None = None,
    ) -> None:
        """A line through ``points`` with a head at the last."""
        width = width or max(2, round(4 * self.zoom))
        if dashed:
            for a, b in zip(points[:-1], points[1:], strict=True):
                _dashes(self.surface, colour, a, b, width)
        else:
            pygame.draw.lines(self.surface, colour, False, points, width)
        (x0, y0), (x1, y1) = points[-2], points[-1]
        angle = math.atan2(y1 - y0, x1 - x0)
        size = 7 + 7 * self.zoom
        head = [
            (x1, y1),
            (x1 - size * math.cos(angle - 0.45), y1 - size * math.sin(angle - 0.45)),
            (x1 - size * math.cos(angle + 0.45), y1 - size * math.sin(angle + 0.45)),
        ]
        pygame.draw.polygon(self.surface, colour, head)

    def march(
        self, path: Sequence[Hex], colour: tuple[int, int, int] = PATH_COLOUR, dashed: bool = False, stop: bool = False
    ) -> None:
        """A move along hexes; ``stop`` bars the way on at the far edge of the last hex."""
        pts = [self.centre(h) for h in path]
        self.arrow(pts, colour, dashed)
        if stop:
            (x0, y0), (x1, y1) = pts[-2], pts[-1]
            ex, ey = x1 + (x1 - x0) * 0.5, y1 + (y1 - y0) * 0.5
            angle = math.atan2(y1 - y0, x1 - x0) + math.pi / 2
            r = 12 * self.zoom + 4
            dx, dy = r * math.cos(angle), r * math.sin(angle)
            pygame.draw.line(
                self.surface, TARGET_COLOUR, (ex - dx, ey - dy), (ex + dx, ey + dy), max(3, round(5 * self.zoom))
            )

    def strike(self, a: Hex, b: Hex, colour: tuple[int, int, int] = TARGET_COLOUR) -> None:
        """An attack from the banner on ``a`` at the one on ``b``."""
        self.arrow([self.between(a, b, 0.3), self.between(a, b, 0.72)], colour, width=max(3, round(5 * self.zoom)))

    def tag(
        self, text: str, centre: tuple[float, float], colour: tuple[int, int, int] = WHITE, size: int = 13
    ) -> pygame.Rect:
        """A short label on a dark chip, kept inside the sketch."""
        surf = font(max(11, round(size * max(self.zoom, 0.85))), bold=True).render(text, True, colour)
        box = surf.get_rect(center=(round(centre[0]), round(centre[1])))
        chip = box.inflate(8, 2).clamp(self.surface.get_rect())
        box.center = chip.center
        pygame.draw.rect(self.surface, TAG_BG, chip, border_radius=4)
        pygame.draw.rect(self.surface, colour, chip, 1, border_radius=4)
        self.surface.blit(surf, box)
        return chip

    def hex_tag(self, text: str, h: Hex, colour: tuple[int, int, int] = WHITE, dy: float = -0.52) -> pygame.Rect:
        """A label above (or with ``dy`` > 0 below) a hex's centre."""
        x, y = self.centre(h)
        return self.tag(text, (x, y + dy * LAYOUT.tile_height * self.zoom), colour)

    def frame(self) -> pygame.Surface:
        pygame.draw.rect(self.surface, (94, 83, 64), self.surface.get_rect(), 1)
        return self.surface


def _dashes(
    surface: pygame.Surface, colour: tuple[int, int, int], a: tuple[float, float], b: tuple[float, float], width: int
) -> None:
    length = math.dist(a, b)
    steps = max(1, int(length // 10))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min(1.0, (i + 1) / steps)
        p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, colour, p0, p1, width)


def _percent(n: int) -> str:
    return f"+{n}%"


# -- the sketches ----------------------------------------------------------------------------


def zones_of_control(rules: Ruleset, zoom: float) -> pygame.Surface:
    """An enemy's zone, the hexes a column can reach past it (asked of the movement rules), and
    a march that the zone stops."""
    s = Sketch(rules, ["..a....", ".......", "...s...", "......."], zoom)
    mover = s.add("a1", "a", "han_soldier", s.at(1, 2), 3000)
    enemy = s.add("b1", "b", "soul_levy", s.at(4, 2), 6000)
    reach = search_moves(s.state(), s.board, rules, mover)
    zone = neighbours(enemy.pos)
    stop = s.at(3, 2)
    s.ground(Overlays(reachable=reach.destinations, selected=mover.pos))
    s.hexes([h for h in zone if h in s.board], ZONE_COLOUR, alpha=45)
    path = reach.path_to(stop)
    assert path is not None
    s.march(path, stop=True)
    s.banners(selected=mover.pos)
    return s.frame()


def flanks_and_pincers(rules: Ruleset, zoom: float) -> pygame.Surface:
    """An attack with a friend beside the defender and one behind it, labelled by the combat rules."""
    s = Sketch(rules, ["a.....", "......", "......", "...s.."], zoom)
    defender = s.add("b1", "b", "soul_levy", s.at(2, 2), 8000)
    attacker = s.add("a1", "a", "han_soldier", s.at(1, 2), 3000)
    behind = opposite(defender.pos, attacker.pos)
    flank = s.at(2, 1)
    s.add("a2", "a", "han_soldier", behind, 2000)
    s.add("a3", "a", "sword_spirit", flank, 1200)
    flankers, pincer = combat.flank_and_pincer(s.state(), attacker, defender)
    assert flankers == 2 and pincer
    s.ground(Overlays(targets=frozenset({defender.pos}), selected=attacker.pos))
    s.banners(selected=attacker.pos)
    s.strike(attacker.pos, defender.pos)
    s.hex_tag(f"{_('Flanking')} {_percent(combat.FLANK_BONUS)}", flank, dy=-0.62)
    s.hex_tag(f"{_percent(combat.FLANK_BONUS)} · {_('Pincer')} {_percent(combat.PINCER_BONUS)}", behind, dy=1.0)
    return s.frame()


def charge(rules: Ruleset, zoom: float) -> pygame.Surface:
    """A rider's run: the last hexes of open ground before the blow are counted."""
    s = Sketch(rules, [".f.....", "fV...s.", ".....f."], zoom)
    path = [s.at(0, 1), s.at(1, 1), s.at(2, 1), s.at(3, 1)]
    run = 0
    for h in reversed(path[1:]):
        if not s.board.terrain_at(h).open:
            break
        run += 1
    assert run >= combat.CHARGE_RUN
    rider = s.add("a1", "a", "warrior", path[-1], 500, hero="xiang_yu")
    enemy = s.add("b1", "b", "soul_levy", s.at(4, 1), 9000)
    s.ground(Overlays(targets=frozenset({enemy.pos})))
    s.march(path)
    for i, h in enumerate(path[-run:], start=1):
        s.hex_tag(str(i), h, PATH_COLOUR, dy=-0.58)
    s.banners(selected=rider.pos)
    s.strike(rider.pos, enemy.pos)
    s.hex_tag(f"{_('Charge')} {_percent(combat.CHARGE_BONUS)}", enemy.pos, dy=0.95)
    return s.frame()


def morale_and_rout(rules: Ruleset, zoom: float) -> pygame.Surface:
    """A routed formation (the 溃 stamp, the morale pip run down) fleeing, and a friend shaken."""
    from ..core.morale import NEARBY_ROUT_MORALE, NEARBY_ROUT_RADIUS

    s = Sketch(rules, [".......", "....a..", "......."], zoom)
    levy = rules.units["soul_levy"]
    s.add("a1", "a", "han_soldier", s.at(1, 1), 3000)
    routed = s.add("b1", "b", "soul_levy", s.at(3, 1), 4200, routed=True, morale=levy.rout_threshold - 12)
    routed.max_men = 8000
    shaken = s.add("b2", "b", "soul_levy", s.at(5, 2), 6000, morale=levy.morale - 20)
    assert distance(shaken.pos, routed.pos) <= NEARBY_ROUT_RADIUS
    s.ground()
    s.arrow([s.between(routed.pos, s.at(5, 0), 0.3), s.between(routed.pos, s.at(5, 0), 0.85)], FLEE_COLOUR, dashed=True)
    s.banners()
    x, y = s.centre(shaken.pos)
    s.tag(f"-{NEARBY_ROUT_MORALE}", (x - LAYOUT.tile_width * 0.62 * s.zoom, y), (235, 110, 90))
    return s.frame()


def forced_march(rules: Ruleset, zoom: float) -> pygame.Surface:
    """How far a column marches, and how much further by forced march (asked of the movement rules)."""
    s = Sketch(rules, [".......", ".......", "......."], zoom)
    mover = s.add("a1", "a", "han_soldier", s.at(0, 1), 3000)
    state = s.state()
    normal = search_moves(state, s.board, rules, mover).destinations
    forced = search_moves(state, s.board, rules, mover, forced=True).destinations
    s.ground(Overlays(reachable=normal, selected=mover.pos))
    s.hexes(sorted(forced - normal), FORCED_COLOUR, alpha=50)
    s.banners(selected=mover.pos)
    steps = max(distance(mover.pos, h) for h in normal)
    far = max(distance(mover.pos, h) for h in forced)
    s.hex_tag(str(steps), s.at(steps, 1), WHITE, dy=0.0)
    s.hex_tag(f"{far} (×{FORCED_MARCH_FACTOR:g})", s.at(far, 1), FORCED_COLOUR, dy=0.0)
    return s.frame()


def souls_and_capture(rules: Ruleset, zoom: float) -> pygame.Surface:
    """Souls on the ground around retainers, the reach of their capture, a routed soul formation beside them."""
    s = Sketch(rules, [".....a", "......", "..f..."], zoom)
    retainers = s.add("a1", "a", "retainer", s.at(2, 1), 800)
    levy = rules.units["soul_levy"]
    s.add("b1", "b", "soul_levy", s.at(1, 1), 900, routed=True, morale=levy.rout_threshold - 10)
    s.add_souls(s.at(3, 0), 650)
    s.add_souls(s.at(3, 1), 1200)
    s.add_souls(s.at(3, 2), 300)
    s.add_souls(s.at(2, 2), 400)
    s.add_souls(s.at(5, 0), 900)
    s.ground()
    s.hexes([retainers.pos, *neighbours(retainers.pos)], SOUL_COLOUR, alpha=35)
    s.banners(selected=retainers.pos)
    return s.frame()


def fog_and_ambush(rules: Ruleset, zoom: float) -> pygame.Surface:
    """A march cut short by an ambush next to its path, under what the column sees (the sight rules)."""
    s = Sketch(rules, ["...f...", ".....f.", "..ff..M"], zoom)
    planned = [s.at(0, 1), s.at(1, 1), s.at(2, 1), s.at(3, 1), s.at(4, 1), s.at(5, 1)]
    stop = 2
    mover = s.add("a1", "a", "han_soldier", planned[stop], 3000)
    s.add("b1", "b", "ambush_host", s.at(3, 2), 5000, hidden=True)
    assert distance(planned[stop], s.at(3, 2)) == 1
    sight = vision.sight_from(s.board, mover.pos, vision.sight_radius(s.board, rules, mover))
    s.ground(fog=Fog(visible=sight, explored=frozenset(s.board.hexes()), shown=frozenset()))
    s.march(planned[stop:], (150, 150, 150), dashed=True)
    s.march(planned[: stop + 1], stop=True)
    s.banners(selected=mover.pos)
    return s.frame()


def missiles(rules: Ruleset, zoom: float) -> pygame.Surface:
    """A volley at range, and palm thunder bursting over a hex and the six around it."""
    s = Sketch(rules, ["..h....", ".h.....", "....f..", "......."], zoom)
    sides = [
        SideState(id="a", faction="zhenguo", role="player"),
        SideState(id="b", faction="jin", role="enemy"),
    ]
    s.sides = sides
    bows = s.add("a1", "a", "crossbowman", s.at(1, 1), 2000)
    utype = rules.units["crossbowman"]
    target = s.add("b1", "b", "jurchen_veteran", s.at(3, 0), 2500)
    burst = s.at(3, 2)
    assert distance(bows.pos, target.pos) <= utype.range and distance(bows.pos, burst) <= max(1, utype.range)
    s.add("b2", "b", "jurchen_veteran", burst, 3000)
    s.add("b3", "b", "jurchen_horse", s.at(4, 3), 1500)
    s.ground(Overlays(selected=bows.pos))
    s.hexes([burst, *neighbours(burst)], BLAST_COLOUR, alpha=55)
    s.banners(selected=bows.pos)
    s.arrow([s.between(bows.pos, target.pos, 0.2), s.between(bows.pos, target.pos, 0.78)], WHITE, dashed=True)
    s.arrow([s.between(bows.pos, burst, 0.2), s.between(bows.pos, burst, 0.7)], BLAST_COLOUR, dashed=True)
    s.hex_tag(_("Palm thunder"), s.at(5, 2), BLAST_COLOUR, dy=0.0)
    return s.frame()


def duels(rules: Ruleset, zoom: float) -> pygame.Surface:
    """Two heroes side by side, blades crossed."""
    s = Sketch(rules, ["....", "..s.", "...."], zoom)
    s.sides = [
        SideState(id="a", faction="zhenguo", role="player"),
        SideState(id="b", faction="jin", role="enemy"),
    ]
    a = s.add("a1", "a", "zhenguo_rider", s.at(1, 1), 3000, hero="yue_fei")
    b = s.add("b1", "b", "personal_guard", s.at(2, 1), 1000, hero="wanyan_wuzhu")
    s.add("a2", "a", "crossbowman", s.at(0, 2), 2000)
    s.add("b2", "b", "jurchen_horse", s.at(3, 0), 2500)
    s.ground()
    s.banners()
    x, y = s.between(a.pos, b.pos, 0.5)
    r = 13 + 6 * s.zoom
    for sx in (-1, 1):
        pygame.draw.line(
            s.surface, (235, 235, 235), (x - sx * r, y - r), (x + sx * r, y + r), max(3, round(4 * s.zoom))
        )
        pygame.draw.line(
            s.surface, (230, 195, 90), (x - sx * r * 0.55, y + r * 0.25), (x - sx * r * 0.05, y + r * 0.75), 3
        )
    return s.frame()


SKETCHES: dict[str, Callable[[Ruleset, float], pygame.Surface]] = {
    "zoc": zones_of_control,
    "flanks": flanks_and_pincers,
    "charge": charge,
    "morale": morale_and_rout,
    "fatigue": forced_march,
    "souls": souls_and_capture,
    "fog": fog_and_ambush,
    "missiles": missiles,
    "duels": duels,
}
