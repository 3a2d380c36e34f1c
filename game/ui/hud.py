"""The battle HUD: turn and pouches on top, the unit panel and attack forecast on the right,
the terrain under the cursor at the bottom (the battle log is ``battle_log.BattleLog``)."""

from __future__ import annotations

from functools import lru_cache

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from .. import i18n
from ..core.board import Board
from ..core.combat import Forecast
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.sides import are_allied
from ..core.state import Formation
from ..i18n import Men, _, format_men
from ..record.match import Match
from ..view.names import formation_names, side_name
from .fonts import font
from .hero_orders import SkillButtons, effects_line
from .scale import px

TOP_BAR_H = 44
# How far above the window's bottom the terrain under the pointer is told (above End turn and the
# two view buttons over it).
HOVER_LINE_BOTTOM = 146
# The pouch counters close this share of the gap to the real count each second.
POUCH_RATE = 4.0
# The top bar's buttons at its right end (Menu, Objectives) take this much of it.
TOP_BAR_BUTTONS_W = 260
PANEL_W = 300
TEXT = (237, 230, 214)
MUTED = (170, 165, 150)
GOOD = (130, 210, 120)
BAD = (235, 110, 90)
GOLD = (230, 195, 90)
PANEL_BG = (22, 24, 30, 225)
# The battle log (``battle_log``) sits above the orders bar.
LOG_BOTTOM = 76


def _signed(p: int) -> str:
    return f"+{p}%" if p > 0 else f"{p}%"


class Hud:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int], rules: Ruleset, match: Match) -> None:
        self.manager = manager
        self.size = size
        self.rules = rules
        self.match = match
        # Every formation's name for the whole battle, as the log and the reports give it.
        self.names = formation_names(rules, match.loaded.scenario, match.record.settings.roster)
        self.selected: Formation | None = None
        self.forecast: Forecast | None = None
        # Pouches whose count is still going up to what they hold (souls just bagged), by side.
        self.pouch_shown: dict[str, float] = {}
        self._bar: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._panel_picture: tuple[tuple[object, ...], tuple[int, int], pygame.Surface, int] | None = None
        w, h = size
        self.panel_rect = pygame.Rect(w - px(PANEL_W) - 10, px(TOP_BAR_H) + 10, px(PANEL_W), 0)
        self.confirm_button = UIButton(pygame.Rect(0, 0, 136, 38), _("Attack"), manager)
        self.cancel_button = UIButton(pygame.Rect(0, 0, 136, 38), _("Cancel"), manager)
        self.confirm_button.hide()
        self.cancel_button.hide()
        # The hero's skills and challenge, under the unit's figures.
        self.skills = SkillButtons(manager, rules, lambda: match.engine)

    def side_name(self, side_id: str) -> str:
        return side_name(self.match.loaded.scenario, side_id)

    def name(self, f: Formation) -> str:
        return self.names.get(f.id, f.id)

    def refresh(
        self, selected: Formation | None, forecast: Forecast | None, human_to_move: bool, armed: str | None = None
    ) -> None:
        """Show ``selected`` (and the odds of a blow it aims); its hero's orders are offered when
        a person commands the side to move and it is of that side."""
        self.selected = selected
        self.forecast = forecast
        if forecast is not None:
            self.confirm_button.show()
            self.cancel_button.show()
        else:
            self.confirm_button.hide()
            self.cancel_button.hide()
        may_order = human_to_move and selected is not None and selected.side == self.match.state.active_side.id
        self.skills.refresh(selected if forecast is None else None, may_order, armed)

    def covers(self, pos: tuple[int, int]) -> bool:
        if pos[1] < px(TOP_BAR_H):
            return True
        return (self.selected is not None or self.forecast is not None) and self.panel_rect.collidepoint(pos)

    # -- drawing --------------------------------------------------------------------------

    def draw(
        self,
        surface: pygame.Surface,
        hover: Hex | None,
        board: Board,
        viewer: str | None = None,
        shown: frozenset[str] | None = None,
    ) -> None:
        """``viewer`` and ``shown`` (formation ids it sees) keep the top bar from counting men
        the viewing side cannot see."""
        self._top_bar(surface, viewer, shown)
        if self.selected is not None or self.forecast is not None:
            self._panel(surface)
        if hover is not None and hover in board:
            t = board.terrain_at(hover)
            text = f"{_(t.name)}  {_('defence')} {_signed(t.defence)}"
            surf = font(15).render(text, True, TEXT)
            # Above End turn and the view buttons: the top left belongs to the objectives panel.
            box = surf.get_rect(bottomright=(surface.get_width() - 14, surface.get_height() - px(HOVER_LINE_BOTTOM)))
            panel_shown = self.selected is not None or self.forecast is not None
            if not (panel_shown and box.inflate(14, 8).colliderect(self.panel_rect)):  # never over the panel
                _backdrop(surface, box.inflate(14, 8))
                surface.blit(surf, box)

    def count_up(self, side_id: str, before: int) -> None:
        """Show ``side_id``'s pouch counting up from ``before`` to what it now holds."""
        self.pouch_shown[side_id] = float(self.pouch_shown.get(side_id, before))

    def tick_pouches(self, dt: float) -> None:
        for side_id, shown in list(self.pouch_shown.items()):
            real = self.match.state.side(side_id).pouch
            shown = min(real, shown + max(1.0, (real - shown) * min(1.0, dt * POUCH_RATE)))
            if shown >= real:
                del self.pouch_shown[side_id]
            else:
                self.pouch_shown[side_id] = shown

    @property
    def counting(self) -> bool:
        return bool(self.pouch_shown)

    def side_label(
        self, side_id: str, viewer: str | None = None, shown: frozenset[str] | None = None, named: bool = True
    ) -> str:
        """A side's name, men and pouch as the top bar shows them (without the name when the bar is
        short of room: its colour chip names it). Through ``viewer``'s eyes (``shown``: the
        formations it sees) another side's men are only those in sight, and its pouch is not
        shown: souls it bagged out of sight must not be counted for the viewer."""
        state = self.match.state
        side = state.side(side_id)
        name = f"{self.side_name(side_id)}  " if named else ""
        if viewer is None or shown is None or are_allied(state, viewer, side_id):
            pouch = format_men(round(self.pouch_shown.get(side_id, side.pouch)))
            return f"{name}{format_men(state.men_of(side_id))}  {_('Pouch')} {pouch}"
        seen = sum(f.men for f in state.formations.values() if f.side == side_id and f.id in shown)
        return name + _("{n} in sight").format(n=format_men(seen))

    def _top_bar(self, surface: pygame.Surface, viewer: str | None = None, shown: frozenset[str] | None = None) -> None:
        """The bar is a kept picture, painted again only when what it says changes."""
        state = self.match.state
        labels = tuple(
            (self.side_label(side.id, viewer, shown), side.id == state.active_side.id) for side in state.sides
        )
        key = (surface.get_width(), i18n.language(), px(100), state.turn, labels)
        if self._bar is None or self._bar[0] != key:
            picture = pygame.Surface((surface.get_width(), px(TOP_BAR_H)), pygame.SRCALPHA)
            self._paint_top_bar(picture, viewer, shown)
            self._bar = (key, for_screen(picture))
        surface.blit(self._bar[1], (0, 0))

    def _paint_top_bar(self, surface: pygame.Surface, viewer: str | None, shown: frozenset[str] | None) -> None:
        """Title, turn and each side's strength, left of the bar's buttons; in a narrow window the
        side names give way to their colour chips, then the title to the rest."""
        state = self.match.state
        w = surface.get_width()
        _backdrop(surface, pygame.Rect(0, 0, w, px(TOP_BAR_H)))
        room = w - px(TOP_BAR_BUTTONS_W) - 12
        title = font(20, bold=True).render(_(self.match.loaded.scenario.title), True, GOLD)
        turn = font(17).render(_("Turn {n}/{limit}").format(n=state.turn, limit=state.turn_limit), True, TEXT)
        for named, with_title in ((True, True), (False, True), (False, False)):
            labels = []
            for side in state.sides:
                active = side.id == state.active_side.id
                text = self.side_label(side.id, viewer, shown, named=named)
                labels.append((side, active, font(15, bold=active).render(text, True, TEXT if active else MUTED)))
            width = 12 + (title.get_width() + 24 if with_title else 0) + turn.get_width() + 24
            width += sum(20 + label.get_width() + 22 for _side, _active, label in labels)
            if width <= room:
                break
        x = 12
        for surf in (title, turn) if with_title else (turn,):
            surface.blit(surf, (x, (px(TOP_BAR_H) - surf.get_height()) // 2))
            x += surf.get_width() + 24
        for side, active, surf in labels:
            faction = self.rules.factions[side.faction]
            chip = pygame.Rect(x, 10, 14, px(TOP_BAR_H) - 20)
            pygame.draw.rect(surface, faction.colour, chip, border_radius=3)
            if active:
                pygame.draw.rect(surface, GOLD, chip.inflate(4, 4), 2, border_radius=4)
            x += 20
            surface.blit(surf, (x, (px(TOP_BAR_H) - surf.get_height()) // 2))
            x += surf.get_width() + 22

    def _paint_panel(
        self, lines: list[tuple[str, tuple[int, int, int], int]], forecast: bool, window_w: int
    ) -> tuple[tuple[int, int], pygame.Surface, int]:
        """The unit panel's picture: its size, the picture, and where its buttons begin."""
        height = 16 + sum(font(size).get_linesize() + 2 for _t, _c, size in lines)
        if forecast:
            height += 52
        height += self.skills.height()
        # As wide as the longest line needs, within reason.
        widest = max((font(size, bold=size >= 18).size(t)[0] for t, _c, size in lines if t), default=0)
        width = max(px(PANEL_W), min(window_w // 2, widest + 24))
        picture = pygame.Surface((width, height), pygame.SRCALPHA)
        _backdrop(picture, picture.get_rect())
        y = 8
        for text, colour, size in lines:
            if text:
                picture.blit(font(size, bold=size >= 18).render(text, True, colour), (12, y))
            y += font(size).get_linesize() + 2
        return (width, height), for_screen(picture), y

    def _panel(self, surface: pygame.Surface) -> None:
        lines: list[tuple[str, tuple[int, int, int], int]] = []
        f = self.selected
        if f is not None:
            utype = self.rules.units[f.type]
            lines.append((self.name(f), GOLD, 19))
            lines.append((f"{_(utype.name)} {format_men(f.men)} / {format_men(f.max_men)}", TEXT, 16))
            morale_colour = BAD if f.routed or f.morale < utype.rout_threshold + 15 else TEXT
            lines.append(
                (
                    _("Morale {m} (breaks below {t})").format(m=f.morale, t=utype.rout_threshold),
                    morale_colour,
                    15,
                )
            )
            lines.append(
                (
                    f"{_('Fatigue')} {f.fatigue}   {_('Experience')} {f.experience}",
                    BAD if f.fatigue >= 50 else TEXT,
                    15,
                )
            )
            if utype.ranged > 0:
                ammo = _("unlimited") if f.ammo is None else str(f.ammo)
                lines.append((_("Missiles: range {r}, shots {a}").format(r=utype.range, a=ammo), TEXT, 15))
            if utype.area_charges:
                lines.append((_("Palm thunder charges: {n}").format(n=f.charges), TEXT, 15))
            lines.append(
                (
                    f"{_('Power')} {utype.melee:g}   {_('Defence')} {utype.defence:g}   "
                    f"{_('Movement')} {utype.movement}",
                    MUTED,
                    15,
                )
            )
            status = []
            if f.routed:
                status.append(_("ROUTED"))
            if f.hidden:
                status.append(_("hidden in ambush"))
            if f.forced:
                status.append(_("force-marched"))
            if f.moved:
                status.append(_("has moved"))
            if f.acted:
                status.append(_("has fought"))
            if status:
                lines.append((", ".join(status), MUTED, 15))
            effects = effects_line(f)
            if effects:
                lines.append((_("Effects: {names}").format(names=effects), GOOD, 15))
        fc = self.forecast
        if fc is not None:
            st = self.match.state
            defender = st.formations[fc.setup.defender]
            lines.append(("", TEXT, 8))
            heading = _("Shoot at {name}") if fc.setup.mode == "fire" else _("Attack on {name}")
            lines.append((heading.format(name=self.name(defender)), GOLD, 18))
            lo, mid, hi = fc.defender_losses
            lines.append(
                (
                    _("Enemy losses: {lo:,}–{hi:,} (about {mid:,})").format(lo=Men(lo), mid=Men(mid), hi=Men(hi)),
                    GOOD,
                    16,
                )
            )
            lo, mid, hi = fc.attacker_losses
            lines.append(
                (
                    _("Our losses: {lo:,}–{hi:,} (about {mid:,})").format(lo=Men(lo), mid=Men(mid), hi=Men(hi)),
                    BAD,
                    16,
                )
            )
            if fc.destroys_defender:
                lines.append((_("The enemy formation will be destroyed"), GOOD, 15))
            else:
                lines.append((_("Chance the enemy routs: {p}%").format(p=fc.rout_chance), GOOD, 15))
            if not fc.setup.retaliation:
                lines.append((_("No blow comes back"), GOOD, 15))
            if fc.setup.shock:
                lines.append((_("Morale shock: -{n}").format(n=fc.setup.shock), GOOD, 15))
            if not fc.modifiers:
                lines.append((_("No modifiers"), MUTED, 15))
            for m in fc.modifiers:
                who = _("ours") if m.applies_to == "attacker" else _("theirs")
                kind = _("power") if m.kind == "power" else _("defence")
                lines.append((f"{_(m.name)} ({who}, {kind}) {_signed(m.percent)}", TEXT, 15))
        # The panel is a kept picture, painted again only when its lines or its room change.
        key = (tuple(lines), fc is not None, self.skills.height(), surface.get_width(), px(100), i18n.language())
        if self._panel_picture is None or self._panel_picture[0] != key:
            self._panel_picture = (key, *self._paint_panel(lines, fc is not None, surface.get_width()))
        _key, size, picture, y_after = self._panel_picture
        self.panel_rect.size = size
        self.panel_rect.right = surface.get_width() - 10
        surface.blit(picture, self.panel_rect.topleft)
        y = self.panel_rect.top + y_after
        if fc is not None:
            self.confirm_button.set_relative_position((self.panel_rect.left + 12, y + 4))
            self.cancel_button.set_relative_position((self.panel_rect.left + 152, y + 4))
        self.skills.place(self.panel_rect.left + 12, y + 4, self.panel_rect.width - 24)


def _backdrop(surface: pygame.Surface, rect: pygame.Rect) -> None:
    surface.blit(shade(rect.size), rect.topleft)


@lru_cache(maxsize=32)
def shade(size: tuple[int, int], colour: tuple[int, int, int, int] = PANEL_BG) -> pygame.Surface:
    """A see-through panel background of ``size`` (kept: panels are drawn every frame)."""
    layer = pygame.Surface(size, pygame.SRCALPHA)
    layer.fill(colour)
    return for_screen(layer)


def for_screen(surface: pygame.Surface) -> pygame.Surface:
    """A kept picture in the window's own pixel format, which blits several times faster."""
    return surface.convert_alpha() if pygame.display.get_surface() is not None else surface
