"""The briefing at the start of a battle, over the board: the story, the side's objectives and
the turns, while the map behind shows where the objectives lie."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox

from ..i18n import _, ngettext, sentences
from ..session import BattleSession
from ..view.side_texts import briefing_for, objectives_for
from .fonts import font
from .hud import GOLD, MUTED
from .pages import heading, panel, paragraph, paragraph_height
from .scale import px
from .scene import Scene
from .story_box import story_bottom, story_box, story_lines

if TYPE_CHECKING:
    from .app import App

WIDTH = 620
BACKDROP = (22, 24, 30)
MARGIN = 24


class BattleBriefingScene(Scene):
    """``side``: the human side being briefed (its objectives only). ``story``: False when the
    story was read on the campaign's briefing page just before."""

    overlay = True

    def __init__(self, app: App, session: BattleSession, side: str, story: bool = True) -> None:
        self.session = session
        self.side = side
        self.story = story
        super().__init__(app)

    def _box(self) -> pygame.Rect:
        """As tall as the window allows with the story; without it (read on the campaign's page
        just before), only as tall as the objectives and the closing line need."""
        w, h = self.app.size
        width = min(px(WIDTH), w - 40)
        height = min(h - 120, px(800))
        if not self.story:
            height = min(height, self._height_without_story(width - 2 * px(MARGIN)))
        box = pygame.Rect(0, 0, width, height)
        box.center = (w // 2, h // 2 + 10)
        return box

    def _head_height(self, width: int) -> int:
        """The title and the side's name, from the top of the box (as ``_layout`` places them)."""
        return px(18) + font(26, True).get_linesize() + 4 + paragraph_height("Ag", width, 16) + 6

    def _height_without_story(self, width: int) -> int:
        below = font(19, True).get_linesize() + 4 + sum(paragraph_height(t, width - 8) for t in self._objective_lines())
        below += 8 + paragraph_height(self._closing(), width, 15)
        return self._head_height(width) + below + px(70)

    def _objective_lines(self) -> list[str]:
        scenario = self.session.match.loaded.scenario
        return [
            "★ " + _("Bonus: {objective}").format(objective=_(o.text)) if o.bonus else "• " + _(o.text)
            for o in objectives_for(scenario, self.side)
        ]

    def _closing(self) -> str:
        limit = self.session.match.loaded.scenario.turn_limit
        turns = ngettext("The battle lasts {n} turn.", "The battle lasts {n} turns.", limit)
        hint = _("The places the objectives name are outlined on the map; O shows the objectives again.")
        return sentences(turns.format(n=limit), hint)

    def _story_lines(self, width: int) -> list[str]:
        """The story, wrapped here (pygame_gui breaks lines only at spaces); none when it was
        read before the battle."""
        if not self.story:
            return []
        # Its own plan, strength and knowledge of the enemy.
        return story_lines(_(briefing_for(self.session.match.loaded.scenario, self.side)), width)

    def _layout(self) -> tuple[int, int, int, int]:
        """x and width of the text, where the story begins and where the objectives do: the
        story as long as it is, unless the objectives and the closing line need the room (then
        it scrolls, keeping at least two fifths of the page)."""
        box = self._box()
        x, width = box.x + px(MARGIN), box.width - 2 * px(MARGIN)
        top = box.y + self._head_height(width)
        if not self.story:
            return x, width, top, top
        below = font(19, True).get_linesize() + 4 + sum(paragraph_height(t, width - 8) for t in self._objective_lines())
        below += 8 + paragraph_height(self._closing(), width, 15)
        return x, width, top, story_bottom(self.manager, self._story_lines(width), top, box.bottom - px(70), below)

    def build(self) -> None:
        box = self._box()
        self.begin = UIButton(
            pygame.Rect(box.centerx - px(120), box.bottom - px(58), px(240), px(44)),
            _("Begin the battle"),
            self.manager,
            object_id="#big_button",
        )
        self.story_box: UITextBox | None = None
        if self.story:
            x, width, top, objectives_at = self._layout()
            rect = pygame.Rect(x - px(6), top, width + px(12), objectives_at - top - px(8))
            self.story_box = story_box(self.manager, self._story_lines(width), rect)

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.begin
        keyed = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE)
        if pressed or keyed:
            self.app.back()

    def draw(self, surface: pygame.Surface) -> None:
        box = self._box()
        pygame.draw.rect(surface, BACKDROP, box, border_radius=4)  # text over the map stays legible
        panel(surface, box, border=GOLD)
        scenario = self.session.match.loaded.scenario
        x, width, top, objectives_at = self._layout()
        bottom = box.bottom - px(70)
        y = heading(surface, _(scenario.title), x, box.y + px(18), size=26)
        paragraph(surface, self.session.side_name(self.side), x, y, width, size=16, colour=MUTED)
        y = heading(surface, _("Objectives"), x, objectives_at, size=19)
        # What does not fit above the button in the smallest windows is left out (O shows the objectives).
        for line in self._objective_lines():
            if y + paragraph_height("•", width, 16) > bottom:
                break
            y = paragraph(surface, line, x + 8, y, width - 8, size=16, max_y=bottom)
        closing = self._closing()
        if y + 8 + paragraph_height(closing, width, 15) <= bottom:
            paragraph(surface, closing, x, y + 8, width, size=15, colour=MUTED)
