"""The title screen and main menu: the game's name over the field of its first battle, and one
button for each thing a player comes to do (go on, a campaign, the tutorial, a quick battle, two
players at one screen, replays, settings, help, quit). Each goes through the app's routes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from .. import i18n
from ..content.campaigns import load_campaigns
from ..content.errors import ContentErrors
from ..i18n import _
from ..record.campaign_run import CampaignRun
from ..record.campaign_saves import load_progress
from ..record.errors import SaveError
from ..record.save_list import SaveEntry
from ..session.tutorial import tutorial_match
from .campaign_menu import progress_line, resume_campaign
from .hud import GOLD, MUTED
from .pages import paragraph
from .quick_battle import LEVELS
from .saves_screen import describe, load_game
from .scale import px
from .scene import Scene
from .title_art import TitleArt, draw_name

if TYPE_CHECKING:
    from .app import App

__all__ = ["LEVELS", "MenuScene"]

COLUMN_W = 300
# The buttons' height and the gap between them, at most (less when the window is short).
BUTTON_H = 42
GAP = 8


@dataclass(frozen=True)
class Resume:
    """What Continue goes on with: a campaign where it stands, or the newest saved battle."""

    run: CampaignRun | None = None
    save: SaveEntry | None = None

    def line(self) -> str:
        if self.run is not None:
            return f"{_(self.run.spec.title)} · {progress_line(self.run.spec, self.run.progress)}"
        return describe(self.save) if self.save is not None else ""


class MenuScene(Scene):
    music = "menu"

    def __init__(self, app: App) -> None:
        self.art = TitleArt()
        self.message = ""
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.resume = self._resume()
        left = px(48)
        top = px(24)
        self.name_rect = pygame.Rect(left, top, px(COLUMN_W), px(150))
        y = self.name_rect.bottom + px(12)
        labels = [
            _("Continue"),
            _("Campaigns"),
            _("Tutorial"),
            _("Quick battle"),
            _("Two players"),
            _("Replays"),
            _("Settings"),
            _("Help"),
            _("Quit"),
        ]
        # Nine buttons in what the window leaves under the name, the message line kept free.
        room = h - y - px(40)
        step = min(px(BUTTON_H + GAP), room // len(labels))
        height = step - min(px(GAP), step // 6)
        buttons = []
        for i, label in enumerate(labels):
            rect = pygame.Rect(left, y + i * step, px(COLUMN_W), height)
            buttons.append(UIButton(rect, label, self.manager, object_id="#big_button" if i == 0 else None))
        (
            self.continue_button,
            self.campaign_button,
            self.tutorial_button,
            self.quick_button,
            self.two_players_button,
            self.replay_button,
            self.settings_button,
            self.help_button,
            self.quit_button,
        ) = buttons
        if self.resume is None:
            self.continue_button.disable()
        self.buttons_bottom = y + len(labels) * step
        self.message_label = UILabel(
            pygame.Rect(left, self.buttons_bottom, w - left - px(200), px(30)), self.message, self.manager
        )
        # The language, first thing a player may need; the rest is in Settings.
        self.lang_menu = UIDropDownMenu(
            list(i18n.LANGUAGES.values()),
            i18n.LANGUAGES[i18n.language()],
            pygame.Rect(w - px(190), h - px(52), px(170), px(36)),
            self.manager,
            expand_on_option_click=True,
        )

    def _resume(self) -> Resume | None:
        """The game played last: the campaign, if that was last and is still going, else the
        newest save that loads."""
        settings = self.app.profile.settings
        if settings.last_played == "campaign" and settings.last_campaign is not None:
            try:
                campaigns = load_campaigns()
                spec = campaigns.campaigns.get(settings.last_campaign)
                progress = load_progress(spec.id, self.app.profile.saves_dir) if spec is not None else None
            except (ContentErrors, SaveError):
                spec, progress = None, None
            if spec is not None and progress is not None and not progress.finished(spec):
                return Resume(run=CampaignRun(campaigns, spec, progress, self.app.profile.saves_dir))
        entry = next((e for e in self.app.saves.entries() if e.record is not None), None)
        return Resume(save=entry) if entry is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self.art.backdrop(self.app.size), (0, 0))
        name = draw_name(surface, self.name_rect.x, self.name_rect.y - px(14), px(80))
        caption = pygame.Rect(name.x, name.bottom - px(10), px(COLUMN_W) + px(120), px(44))
        y = paragraph(surface, "Qiankun", caption.x + px(4), caption.y, caption.w, size=20, colour=GOLD, bold=True)
        paragraph(surface, _("Souls, armies and the qiankun pouch"), caption.x + px(4), y, caption.w, 15, MUTED)
        if self.resume is not None:
            # What Continue goes on with, beside it.
            box = self.continue_button.rect
            width = min(px(420), self.app.size[0] - box.right - px(24))
            if width > px(120):
                paragraph(
                    surface,
                    self.resume.line(),
                    box.right + px(12),
                    box.y + px(2),
                    width,
                    14,
                    MUTED,
                    max_y=box.bottom + px(30),
                )

    def _say(self, text: str) -> None:
        self.message = text
        self.message_label.set_text(text)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.lang_menu:
            lang = next(k for k, v in i18n.LANGUAGES.items() if v == event.text)
            self.app.set_language(lang)
            self._remember(language=lang)
            self.resize(self.app.size)
        elif event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._button(event.ui_element)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN and self.resume is not None:
            self.continue_game()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.app.open("help")

    def _button(self, element: object) -> None:
        doors: dict[object, Callable[[], object]] = {
            self.continue_button: self.continue_game,
            self.campaign_button: lambda: self.app.go("campaigns"),
            self.tutorial_button: self.tutorial,
            self.quick_button: lambda: self.app.go("quick_battle"),
            self.two_players_button: lambda: self.app.go("quick_battle", two_players=True),
            self.replay_button: lambda: self.app.open("saves"),
            self.settings_button: lambda: self.app.open("settings"),
            self.help_button: lambda: self.app.open("help"),
            self.quit_button: self.app.leave,
        }
        for button, door in doors.items():
            if element is button:
                door()
                return

    def _remember(self, **choice: object) -> None:
        """Keep a choice for the next start; the game goes on without it if it cannot."""
        problem = self.app.store_settings(**choice)
        if problem is not None:
            self._say(problem)

    def continue_game(self) -> None:
        """Go on with the game played last (``Resume``)."""
        resume = self.resume
        if resume is None:
            return
        if resume.run is not None:
            resume_campaign(self.app, resume.run)
        elif resume.save is not None and resume.save.record is not None:
            refusal = load_game(self.app, resume.save.record)
            if refusal is not None:
                self._say(refusal)

    def tutorial(self) -> None:
        """The tutorial battle, from its first step."""
        try:
            match = tutorial_match()
        except (KeyError, ContentErrors) as exc:
            self._say(_("The tutorial cannot be loaded: {reason}").format(reason=str(exc).splitlines()[0]))
            return
        self.app.go("battle", match=match)
