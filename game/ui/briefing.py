"""The briefing before a campaign battle: the story so far, the objectives, the army."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..content.scenarios import load_scenario
from ..i18n import _, format_men, ngettext
from ..record.campaign_run import CampaignRun
from .audio import theme_of
from .pages import BACKGROUND, heading, muted, panel, paragraph
from .scale import px
from .scene import Scene

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

    def build(self) -> None:
        w, h = self.app.size
        self.battle_button = UIButton(
            pygame.Rect(w // 2 + 10, h - px(76), px(240), px(48)), _("To battle"), self.manager, object_id="#big_button"
        )
        self.back_button = UIButton(
            pygame.Rect(w // 2 - 10 - px(240), h - px(72), px(240), px(42)), _("Campaigns"), self.manager
        )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        w, h = self.app.size
        run = self.run
        scenario = load_scenario(run.scenario_id).scenario
        width = min(px(900), w - 80)
        x = (w - width) // 2
        y = heading(surface, _(scenario.title), x, px(28), size=34)
        stage = _("{campaign} · battle {n} of {total}").format(
            campaign=_(run.spec.title), n=run.progress.stage + 1, total=len(run.spec.scenarios)
        )
        if run.progress.attempts:
            stage += " · " + _("try {n}").format(n=run.progress.attempts + 1)
        y = muted(surface, stage, x, y, size=17) + 10
        box = pygame.Rect(x - 16, y, width + 32, h - y - px(100))
        panel(surface, box)
        y = paragraph(surface, _(scenario.briefing), x, y + 14, width, size=17, max_y=box.bottom - px(150))
        y = heading(surface, _("Objectives"), x, y + 14, size=19)
        for spec in scenario.objective_specs:
            if spec.side not in (None, run.spec.side):
                continue
            objective = _(spec.text)
            text = "★ " + _("Bonus: {objective}").format(objective=objective) if spec.bonus else "• " + objective
            y = paragraph(surface, text, x + 8, y, width - 8, size=16, max_y=box.bottom - px(40))
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
