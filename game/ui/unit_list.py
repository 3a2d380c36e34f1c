"""The unit list of the battle screen: the viewing side's own formations with their state, those
that can still act this turn first. Clicking a row asks the battle to select that formation and
bring it into view; N or the list's button shows and hides it.

``roster`` works the rows out of the state. It reads only the side's own formations, which the
side knows in full, so the list cannot give away anything the fog hides. ``UnitList`` shows them
with pygame_gui: a panel with a scrolling container of rows, each a drawn picture under a
see-through button (hover, click, tooltip). It never reaches into the battle: a picked row goes
to the ``on_pick`` callback, and ``handle`` says which events it used so the screen leaves them
alone (a click on it selects nothing beneath, the wheel over it scrolls it, not the map's zoom).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UIButton, UIImage, UILabel, UIPanel, UIScrollingContainer

from .. import i18n
from ..core.actions import Action, EndTurn, Rest
from ..core.rules import Ruleset
from ..core.state import Formation, GameState
from ..i18n import _, format_men
from .banners import morale_colour
from .fonts import font
from .hud import BAD, GOLD, GOOD, LOG_BOTTOM, MUTED, TEXT, TOP_BAR_H
from .scale import px
from .toggle import toggles

TOGGLE_KEY = pygame.K_n
NAME_SIZE = 15
DETAIL_SIZE = 13
PAD = 8
HEAD_H = 30
SCROLLBAR_W = 20  # pygame_gui's vertical scroll bar
MORALE_BAR = (46, 7)
BUTTON_H = 28
# The collapsed battle log's lines at the bottom left, which the list stays above.
LOG_ROWS = 6
LOG_LINE_SIZE = 15
# Room for the log's frame and a title strip over its rows, and a gap above it.
LOG_HEAD = 44
SELECTED_FILL = (200, 162, 74, 60)
STATUS_COLOURS = {
    "ready": GOOD,
    "moved": TEXT,
    "done": MUTED,
    "rested": MUTED,
    "held": MUTED,
    "routed": BAD,
    "waiting": MUTED,
}


@dataclass(frozen=True)
class RosterRow:
    """One formation as its own side knows it."""

    id: str
    name: str
    men: int
    max_men: int
    morale: int
    threshold: int  # it routs below this morale
    fatigue: int
    can_act: bool  # it may still be given an order this turn
    status: str  # ready, moved, done, rested, held, routed, or waiting (not the side's turn)


def rested_this_turn(actions: Sequence[Action]) -> set[str]:
    """Formations that rested in the side-turn being played (the actions since the last EndTurn)."""
    rested: set[str] = set()
    for action in reversed(actions):
        if isinstance(action, EndTurn):
            break
        if isinstance(action, Rest):
            rested.add(action.unit)
    return rested


def roster(
    state: GameState,
    rules: Ruleset,
    side: str,
    actions: Sequence[Action] = (),
    names: Mapping[str, str] | None = None,
) -> list[RosterRow]:
    """``side``'s formations, those that can still act first (then those done, then the routed),
    each group in the order of battle. ``actions`` is the game's record so far: it tells a rest
    from another order. Outside the side's own turn nothing is marked as able to act."""
    my_turn = not state.over and state.active_side.id == side
    held = set(state.side(side).held_groups)
    rested = rested_this_turn(actions) if my_turn else set()
    rows = []
    for f in state.formations_of(side):
        status = _status(f, my_turn, f.id in rested, f.group is not None and f.group in held)
        rows.append(
            RosterRow(
                id=f.id,
                name=(names or {}).get(f.id) or _(rules.units[f.type].name),
                men=f.men,
                max_men=f.max_men,
                morale=f.morale,
                threshold=rules.units[f.type].rout_threshold,
                fatigue=f.fatigue,
                can_act=status in ("ready", "moved"),
                status=status,
            )
        )
    order = {"ready": 0, "moved": 0, "waiting": 1, "done": 1, "rested": 1, "held": 1, "routed": 2}
    return sorted(rows, key=lambda r: order[r.status])  # stable: the order of battle within a group


def _status(f: Formation, my_turn: bool, rested: bool, held: bool) -> str:
    if f.routed:
        return "routed"
    if not my_turn:
        return "waiting"
    if held:
        return "held"
    if rested:
        return "rested"
    if f.acted:
        return "done"
    return "moved" if f.moved else "ready"


def status_text(status: str) -> str:
    return {
        "ready": _("Ready"),
        "moved": _("has moved"),
        "done": _("Done"),
        "rested": _("Rested"),
        "held": _("Held back"),
        "routed": _("ROUTED"),
        "waiting": "",
    }[status]


def list_area(size: tuple[int, int]) -> pygame.Rect:
    """Where the list goes in a window of ``size``: the left column, from under the top bar to
    just above the collapsed battle log (the right belongs to the unit panel)."""
    w, h = size
    top = px(TOP_BAR_H) + 10
    bottom = h - px(LOG_BOTTOM) - LOG_ROWS * font(LOG_LINE_SIZE).get_linesize() - LOG_HEAD
    width = 340 if w < 1100 else 400
    return pygame.Rect(10, top, width, max(4 * px(HEAD_H), bottom - top))


def row_height() -> int:
    return font(NAME_SIZE, bold=True).get_linesize() + font(DETAIL_SIZE).get_linesize() + 10


class UnitList:
    """The list panel and its toggle button. Kept by the battle across widget rebuilds (its
    visibility and rows survive a resize or a change of language); ``build`` makes the widgets."""

    def __init__(self, on_pick: Callable[[str], None]) -> None:
        self.on_pick = on_pick
        self.visible = False
        self.rows: list[RosterRow] = []
        self.selected: str | None = None
        self.manager: pygame_gui.UIManager | None = None
        self.panel: UIPanel | None = None
        self.button: UIButton | None = None
        self.container: UIScrollingContainer | None = None
        self.area = pygame.Rect(0, 0, 0, 0)  # the most it may take
        self.rect = pygame.Rect(0, 0, 0, 0)  # what it takes: no taller than its rows need
        self._row_buttons: dict[UIButton, str] = {}
        self._row_widgets: list[UIElement] = []
        self._row_width = 0
        # The rows, the selected formation and the language on screen.
        self._shown: tuple[list[RosterRow], str | None, str] | None = None

    # -- widgets ------------------------------------------------------------------------------

    def build(self, manager: pygame_gui.UIManager, size: tuple[int, int], anchor: pygame.Rect) -> None:
        """The toggle button just above ``anchor`` (the minimap) and as wide, and the panel in
        the left column (``list_area``)."""
        self.manager = manager
        self.area = list_area(size)
        self.button = UIButton(
            pygame.Rect(anchor.left, anchor.top - px(BUTTON_H) - 6, anchor.width, px(BUTTON_H)),
            _("Your formations"),
            manager,
            tool_tip_text=_("N: list your formations, those that can still act first; click one to find it"),
        )
        self.panel = None
        self.container = None
        self._shown = None
        self._show_rows()

    def _build_panel(self, count: int) -> None:
        """The panel, as tall as ``count`` rows need within the area; its rows come after."""
        assert self.manager is not None
        if self.panel is not None:
            self.panel.kill()
        content = max(1, count) * row_height()
        self.rect = self.area.copy()
        self.rect.height = min(self.area.height, px(HEAD_H) + 10 + content + 4)
        self.panel = UIPanel(self.rect, manager=self.manager, starting_height=2, object_id="#roster")
        inner_w = self.rect.width - 2 * PAD
        hint_w = px(70)
        UILabel(
            pygame.Rect(PAD, 2, inner_w - hint_w, px(HEAD_H)),
            _("Your formations"),
            self.manager,
            container=self.panel,
            object_id="#roster_title",
        )
        UILabel(
            pygame.Rect(inner_w - hint_w, 2, hint_w + PAD - 4, px(HEAD_H)),
            _("N: hide"),
            self.manager,
            container=self.panel,
            object_id="#roster_hint",
        )
        box = pygame.Rect(2, px(HEAD_H) + 4, self.rect.width - 8, self.rect.height - px(HEAD_H) - 10)
        self.container = UIScrollingContainer(box, self.manager, container=self.panel, allow_scroll_x=False)
        # Fits, or scrolls with a bar at the right that the rows leave room for.
        self._row_width = box.width - (SCROLLBAR_W if content > box.height else 0)
        self.container.set_scrollable_area_dimensions((self._row_width, content))
        if not self.visible:
            self.panel.hide()

    def show_button(self, shown: bool) -> None:
        """Show or hide the toggle button (it gives way to a tall panel over its corner)."""
        if self.button is not None and self.button.visible != shown:
            self.button.show() if shown else self.button.hide()

    def toggle(self) -> None:
        self.visible = not self.visible
        if self.panel is not None:
            self.panel.show() if self.visible else self.panel.hide()

    def update(self, rows: list[RosterRow], selected: str | None) -> None:
        """Show these rows (from ``roster``) with ``selected`` lit; widgets are remade only when
        a row changed, so calling this every frame is cheap."""
        self.rows = rows
        self.selected = selected
        self._show_rows()

    def _show_rows(self) -> None:
        if self.manager is None or self._shown == (self.rows, self.selected, i18n.language()):
            return
        # A new panel only when the number of rows changes its height (a scrolled list keeps
        # its place while the rows' figures change).
        if self.panel is None or self._shown is None or len(self._shown[0]) != len(self.rows):
            self._build_panel(len(self.rows))
        assert self.container is not None
        self._shown = (list(self.rows), self.selected, i18n.language())
        for widget in self._row_widgets:
            widget.kill()
        self._row_buttons = {}
        self._row_widgets = []
        rh = row_height()
        cols = columns(self.rows, self._row_width)
        for i, row in enumerate(self.rows):
            rect = pygame.Rect(0, i * rh, self._row_width, rh - 2)
            picture = row_picture(row, rect.size, cols, selected=row.id == self.selected)
            image = UIImage(rect, picture, self.manager, container=self.container)
            button = UIButton(
                rect,
                "",
                self.manager,
                container=self.container,
                object_id="#roster_row",
                tool_tip_text=row_details(row),
            )
            self._row_buttons[button] = row.id
            self._row_widgets += [image, button]
        self._button_label()

    def _button_label(self) -> None:
        ready = sum(r.can_act for r in self.rows)
        waiting = any(r.status == "waiting" for r in self.rows)
        if self.rows and not waiting and ready:
            label = _("Formations: {n} to act").format(n=ready)
        else:
            label = _("Your formations")
        if self.button is not None and self.button.text != label:
            self.button.set_text(label)

    # -- input --------------------------------------------------------------------------------

    def covers(self, pos: tuple[int, int]) -> bool:
        """Whether ``pos`` is on the list or its button (a click there is not a click on the map)."""
        on_button = self.button is not None and self.button.visible and self.button.rect.collidepoint(pos)
        return on_button or (self.visible and self.rect.collidepoint(pos))

    def handle(self, event: pygame.event.Event) -> bool:
        """React to ``event`` if it is for the list; True if it was (the screen ignores it then)."""
        if toggles(event, self.button, TOGGLE_KEY):
            self.toggle()
            return True
        if event.type == pygame.KEYDOWN:
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            fid = self._row_buttons.get(event.ui_element)
            if fid is not None:
                self.on_pick(fid)
                return True
            return False
        if event.type == pygame.MOUSEBUTTONDOWN:  # the wheel's old-style button events too
            return self.covers(event.pos)
        if event.type == pygame.MOUSEWHEEL:
            # pygame_gui scrolls the container under the pointer; the map must not zoom as well.
            return self.visible and self.rect.collidepoint(pygame.mouse.get_pos())
        return False


# -- drawing ----------------------------------------------------------------------------------


def row_details(row: RosterRow) -> str:
    """The row's tooltip: the whole name (a long one is cut in the row) and the numbers in words."""
    parts = [
        row.name,
        f"{format_men(row.men)} / {format_men(row.max_men)}",
        _("Morale {m} (breaks below {t})").format(m=row.morale, t=row.threshold),
        f"{_('Fatigue')} {row.fatigue}",
    ]
    return "\n".join(parts)


def _fit(text: str, f: pygame.font.Font, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


@dataclass(frozen=True)
class Columns:
    """Where the details line's pieces start, the same in every row so they read as a table."""

    morale: int  # the word "Morale", or the bar when the word is left out
    bar: int
    number: int
    fatigue: int
    word: bool  # whether there is room for the word


def columns(rows: Sequence[RosterRow], width: int) -> Columns:
    """The details columns for ``rows`` in rows ``width`` pixels wide. Where the longest figures
    and status would not fit, the word "Morale" is left out: the bar says it."""
    f = font(DETAIL_SIZE)
    left = PAD + 16
    men_w = max((f.size(format_men(r.men))[0] for r in rows), default=0)
    number_w = f.size("100")[0]
    fatigue_w = max((f.size(f"{_('Fatigue')} {r.fatigue}")[0] for r in rows), default=0)
    status_w = max((f.size(status_text(r.status))[0] for r in rows), default=0)
    word_w = f.size(_("Morale"))[0] + 5
    morale = left + men_w + 12
    needed = morale + word_w + MORALE_BAR[0] + 5 + number_w + 10 + fatigue_w + 10 + status_w + PAD
    word = needed <= width
    bar = morale + (word_w if word else 0)
    number = bar + MORALE_BAR[0] + 5
    return Columns(morale=morale, bar=bar, number=number, fatigue=number + number_w + 10, word=word)


def row_picture(
    row: RosterRow, size: tuple[int, int], cols: Columns | None = None, selected: bool = False
) -> pygame.Surface:
    """A row: a mark for whether it can act and the name; under them the men, morale (a bar
    with the breaking point ticked), fatigue and what it has done this turn. The selected
    formation's row is lit here, not by selecting its button: a selected pygame_gui button
    takes no hover, and the wheel would not scroll the list over it."""
    w, h = size
    cols = cols or columns([row], w)
    surf = pygame.Surface(size, pygame.SRCALPHA)
    if selected:
        surf.fill(SELECTED_FILL)
        pygame.draw.rect(surf, GOLD, surf.get_rect(), 1, border_radius=4)
    name_font, detail_font = font(NAME_SIZE, bold=True), font(DETAIL_SIZE)
    top = 4
    centre_y = top + name_font.get_linesize() // 2
    if row.status == "routed":
        pygame.draw.circle(surf, BAD, (PAD + 4, centre_y), 5)
    elif row.can_act:
        pygame.draw.circle(surf, GOOD, (PAD + 4, centre_y), 5)
    else:
        pygame.draw.circle(surf, MUTED, (PAD + 4, centre_y), 5, 1)
    left = PAD + 16
    name = _fit(row.name, name_font, w - left - PAD)
    surf.blit(name_font.render(name, True, MUTED if row.status in ("done", "rested") else TEXT), (left, top))
    # The details line: men, morale, fatigue, and the status at the right.
    y = top + name_font.get_linesize()
    surf.blit(detail_font.render(format_men(row.men), True, TEXT), (left, y))
    if cols.word:
        surf.blit(detail_font.render(_("Morale"), True, MUTED), (cols.morale, y))
    colour = morale_colour(row.morale, row.threshold)
    bar = pygame.Rect(cols.bar, y + detail_font.get_linesize() // 2 - MORALE_BAR[1] // 2, *MORALE_BAR)
    pygame.draw.rect(surf, (20, 20, 20), bar)
    fill = bar.copy()
    fill.width = max(1, round(bar.width * row.morale / 100))
    pygame.draw.rect(surf, colour, fill)
    tick = bar.left + round(bar.width * row.threshold / 100)
    pygame.draw.line(surf, (255, 255, 255), (tick, bar.top - 2), (tick, bar.bottom + 1), 2)
    surf.blit(detail_font.render(str(row.morale), True, colour), (cols.number, y))
    fatigue = detail_font.render(f"{_('Fatigue')} {row.fatigue}", True, BAD if row.fatigue >= 50 else MUTED)
    surf.blit(fatigue, (cols.fatigue, y))
    status = status_text(row.status)
    if status:
        mark = detail_font.render(status, True, STATUS_COLOURS[row.status])
        surf.blit(mark, mark.get_rect(topright=(w - PAD, y)))
    # A hairline between rows.
    pygame.draw.line(surf, (60, 58, 52), (PAD, h - 1), (w - PAD, h - 1))
    return surf
