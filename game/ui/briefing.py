"""The briefing before a campaign battle: the story so far, the objectives, the army. The story
scrolls where the window is too small for it (the briefing over the board then leaves it out:
this page is where it is read)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox

from ..content.scenarios import load_scenario
from ..i18n import _, format_men, ngettext
from ..record.campaign_run import CampaignRun
from .audio import theme_of
from .fonts import font
from .pages import BACKGROUND, heading, heading_height, muted, panel, paragraph, paragraph_height
from .scale import px
from .scene import Scene
from .story_box import story_bottom, story_box, story_lines

if TYPE_CHECKING:
    from .app import App


class BriefingScene(Scene):
    tells_story = True

    def __init__(self, app: App, run: CampaignRun) -> None:
        self.run = run
        # The campaign's army marches out to its own theme.
        sides = load_scenario(run.scenario_id).scenario.sides
        self.music = theme_of(next((s.faction for s in sides if s.id == run.spec.side), None))
        super().__init__(app)

    def story_script(self) -> str | None:
        return self.run.spec.names

    def _frame(self) -> tuple[int, int, pygame.Rect]:
        """x and width of the text, and the panel under the title and the stage line."""
        w, h = self.app.size
        width = min(px(900), w - 80)
        y = px(28) + heading_height(34) + font(17).get_linesize() + 2 + 10
        return (w - width) // 2, width, pygame.Rect((w - width) // 2 - 16, y, width + 32, h - y - px(100))

    def _objective_lines(self) -> list[str]:
        scenario = load_scenario(self.run.scenario_id).scenario
        return [
            "★ " + _("Bonus: {objective}").format(objective=_(spec.text)) if spec.bonus else "• " + _(spec.text)
            for spec in scenario.objective_specs
            if spec.side in (None, self.run.spec.side)
        ]

    def _layout(self) -> tuple[int, int, int, int, int]:
        """x and width of the text, where the story begins, where the objectives begin, and the
        last y they may take (the turns' line is below it)."""
        x, width, box = self._frame()
        top, bottom = box.y + 14, box.bottom - px(40)
        below = 14 + heading_height(19) + sum(paragraph_height(t, width - 8, 16) for t in self._objective_lines())
        return x, width, top, story_bottom(self.manager, self._story_lines(width), top, bottom, below), bottom

    def _story_lines(self, width: int) -> list[str]:
        return story_lines(_(load_scenario(self.run.scenario_id).scenario.briefing), width)

    def build(self) -> None:
        w, h = self.app.size
        # Laid out once per window size: the story is wrapped here, not on every frame drawn.
        self.laid_out: tuple[int, int, int, int, int] = self._layout()
        x, width, top, objectives_at, _bottom = self.laid_out
        rect = pygame.Rect(x - px(6), top, width + px(12), objectives_at - top - px(4))
        self.story_box: UITextBox = story_box(self.manager, self._story_lines(width), rect)
        self.battle_button = UIButton(
            pygame.Rect(w // 2 + 10, h - px(76), px(240), px(48)), _("To battle"), self.manager, object_id="#big_button"
        )
        self.back_button = UIButton(
            pygame.Rect(w // 2 - 10 - px(240), h - px(72), px(240), px(42)), _("Campaigns"), self.manager
        )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        run = self.run
        scenario = load_scenario(run.scenario_id).scenario
        x, width, box = self._frame()
        _x, _width, _top, objectives_at, bottom = self.laid_out
        y = heading(surface, _(scenario.title), x, px(28), size=34)
        stage = _("{campaign} · battle {n} of {total}").format(
            campaign=_(run.spec.title), n=run.progress.stage + 1, total=len(run.spec.scenarios)
        )
        if run.progress.attempts:
            stage += " · " + _("try {n}").format(n=run.progress.attempts + 1)
        muted(surface, stage, x, y, size=17)
        panel(surface, box)
        y = heading(surface, _("Objectives"), x, objectives_at + 14, size=19)
        # What does not fit above the turns' line in the smallest windows is cut short.
        for text in self._objective_lines():
            if y + paragraph_height("•", width, 16) > bottom:
                break
            y = paragraph(surface, text, x + 8, y, width - 8, size=16, max_y=bottom)
        turns = ngettext("{n} turn", "{n} turns", scenario.turn_limit).format(n=scenario.turn_limit)
        carried = sum(c.men for c in run.progress.roster.formations)
        if carried:
            line = _("{turns} · your army carries {men} men from the battles before").format(
                turns=turns, men=format_men(carried)
            )
        else:
            line = turns
        muted(surface, line, x, box.bottom - px(30))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.to_battle()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.battle_button:
                self.to_battle()
            elif event.ui_element is self.back_button:
                self.back()

    def to_battle(self) -> None:
        self.app.go("battle", match=self.run.start_battle())

    def back(self) -> None:
        self.app.go("campaigns", saves_dir=self.run.saves_dir)
