"""The briefing at the start of a battle, over the board: the story, the side's objectives and
the turns, while the map behind shows where the objectives lie."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..i18n import _, ngettext, sentences
from ..session import BattleSession
from .hud import GOLD, MUTED
from .narration import ObjectivesPanel
from .pages import heading, heading_height, panel, paragraph, paragraph_height
from .scale import px
from .scene import Scene

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
        """As tall as the window allows with the story; without it, as tall as what is left."""
        w, h = self.app.size
        width = min(px(WIDTH), w - 40)
        height = min(h - 40, px(640))
        if not self.story:
            height = min(height, self._height_without_story(width - 2 * px(MARGIN)))
        box = pygame.Rect(0, 0, width, height)
        box.center = (w // 2, h // 2)
        return box

    def _height_without_story(self, width: int) -> int:
        scenario = self.session.match.loaded.scenario
        lines = self._objective_lines()
        body = heading_height(26) + paragraph_height(self.session.side_name(self.side), width, size=16) + 6
        body += heading_height(19) + sum(paragraph_height(line, width - 8, size=16) for line in lines)
        footer = paragraph_height(self._footer(scenario.turn_limit), width, size=15)
        return px(18) + body + px(8) + footer + px(8) + px(58) + px(12)

    def _objective_lines(self) -> list[str]:
        lines = []
        for spec in ObjectivesPanel(self.session.match.loaded.scenario).objectives_for(self.side):
            text = _(spec.text)
            lines.append("★ " + _("Bonus: {objective}").format(objective=text) if spec.bonus else "• " + text)
        return lines

    @staticmethod
    def _footer(turn_limit: int) -> str:
        turns = ngettext("The battle lasts {n} turn.", "The battle lasts {n} turns.", turn_limit)
        hint = _("The places the objectives name are outlined on the map; O shows the objectives again.")
        return sentences(turns.format(n=turn_limit), hint)

    def build(self) -> None:
        box = self._box()
        self.begin = UIButton(
            pygame.Rect(box.centerx - px(120), box.bottom - px(58), px(240), px(44)),
            _("Begin the battle"),
            self.manager,
            object_id="#big_button",
        )

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
        x, width = box.x + px(MARGIN), box.width - 2 * px(MARGIN)
        # Laid out from the bottom up, so nothing runs under the button: the footer just above
        # it, the objectives above the footer, and the story in what room is left.
        footer = self._footer(scenario.turn_limit)
        footer_y = int(self.begin.relative_rect.top) - px(8) - paragraph_height(footer, width, size=15)
        lines = self._objective_lines()
        objectives_h = heading_height(19) + sum(paragraph_height(line, width - 8, size=16) for line in lines)
        y = heading(surface, _(scenario.title), x, box.y + px(18), size=26)
        y = paragraph(surface, self.session.side_name(self.side), x, y, width, size=16, colour=MUTED) + 6
        if self.story:
            story_bottom = footer_y - px(10) - objectives_h - 10
            y = paragraph(surface, _(scenario.briefing), x, y, width, size=16, max_y=story_bottom) + 10
        y = heading(surface, _("Objectives"), x, y, size=19)
        for line in lines:
            y = paragraph(surface, line, x + 8, y, width - 8, size=16, max_y=footer_y - px(4))
        paragraph(surface, footer, x, max(y + 8, footer_y), width, size=15, colour=MUTED)
