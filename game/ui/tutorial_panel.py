"""The tutorial's panel over the battle: the step the player is on, what to do, and how far
along they are; once every step is done, a word that the field is theirs and a way home.

It only shows the progress (``game.session.tutorial.TutorialProgress``, fed by the battle screen
with what came of each input); it takes the clicks that land on it."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..i18n import _
from ..session.tutorial import TutorialProgress
from .hud import GOLD, MUTED, PANEL_W, TOP_BAR_H
from .narration import ObjectivesPanel
from .pages import panel, paragraph, paragraph_height
from .scale import px

WIDTH = 620
PAD = 12
DOT = 5
# The dots of the steps done.
DONE_GLOW = (120, 200, 120)


class TutorialPanel:
    def __init__(self, progress: TutorialProgress) -> None:
        self.progress = progress
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.home_button: UIButton | None = None

    def build(self, manager: pygame_gui.UIManager, size: tuple[int, int], objectives: ObjectivesPanel) -> None:
        """The Main menu button, shown once the tutorial is done."""
        self.home_button = UIButton(pygame.Rect(0, 0, px(180), px(36)), _("Main menu"), manager)
        self.home_button.hide()
        self.place(size, objectives)

    def _texts(self) -> tuple[str, str, str]:
        step = self.progress.current
        total = len(self.progress.steps)
        if step is None:
            return (
                _("Tutorial complete"),
                _("Every step is done. Play on and break the levy, or go back to the main menu."),
                _("{n} of {total} steps done").format(n=total, total=total),
            )
        counter = _("Tutorial · step {n} of {total}").format(n=self.progress.index + 1, total=total)
        if self.progress.last_done:  # what the last deed completed, so a step passed at once is seen
            done = _(", ").join(_(s.title) for s in self.progress.last_done)
            counter = _("{counter} · done: {steps}").format(counter=counter, steps=done)
        return _(step.title), _(step.text), counter

    def place(self, size: tuple[int, int], objectives: ObjectivesPanel) -> None:
        """At the top left under the top bar (under the objectives when they are shown), clear
        of the unit panel at the right."""
        top = objectives.rect.bottom if objectives.visible and objectives.rect.height else px(TOP_BAR_H)
        area = pygame.Rect(px(12), top + px(6), size[0] - px(PANEL_W) - px(44), size[1] - top)
        title, text, _counter = self._texts()
        width = min(px(WIDTH), area.w)
        inner = width - 2 * PAD
        height = (
            PAD
            + paragraph_height(_counter, inner, 14)
            + paragraph_height(title, inner, 19, bold=True)
            + paragraph_height(text, inner, 16)
        )
        height += px(16) + PAD
        if self.progress.finished:
            height += px(44)
        self.rect = pygame.Rect(area.x, area.y, width, height)
        if self.home_button is not None:
            self.home_button.set_relative_position((self.rect.right - PAD - px(180), self.rect.bottom - PAD - px(36)))
            if self.progress.finished:
                self.home_button.show()
            else:
                self.home_button.hide()

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)

    def draw(self, surface: pygame.Surface) -> None:
        """Where ``place`` last put it."""
        title, text, counter = self._texts()
        panel(surface, self.rect, border=GOLD)
        x, inner = self.rect.x + PAD, self.rect.w - 2 * PAD
        y = paragraph(surface, counter, x, self.rect.y + PAD, inner, size=14, colour=MUTED)
        y = paragraph(surface, title, x, y, inner, size=19, colour=GOLD, bold=True)
        y = paragraph(surface, text, x, y, inner, size=16)
        # One dot a step: the done ones filled.
        total = len(self.progress.steps)
        for i in range(total):
            centre = (x + px(DOT) + i * px(3 * DOT), y + px(8))
            if i < self.progress.index:
                pygame.draw.circle(surface, DONE_GLOW, centre, px(DOT))
            elif i == self.progress.index:
                pygame.draw.circle(surface, GOLD, centre, px(DOT))
            else:
                pygame.draw.circle(surface, MUTED, centre, px(DOT), 1)
