"""The campaign menu: each campaign with its progress; continue it or begin it anew."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel

from ..content.campaigns import Campaigns, load_campaigns
from ..content.errors import ContentErrors
from ..content.scenarios import load_scenario
from ..core import campaign as camp
from ..core.campaign import CampaignProgress
from ..core.campaign_spec import CampaignSpec
from ..i18n import _, format_men, ngettext
from ..record.campaign_run import CampaignRun
from ..record.campaign_saves import load_progress
from ..record.errors import SaveError
from .battle import BattleScene
from .camp import aim_line
from .hud import GOLD, MUTED
from .pages import BACKGROUND, heading, muted, panel, paragraph, paragraph_height
from .quick_battle import LEVELS
from .scale import px
from .scene import Scene, asks_back

if TYPE_CHECKING:
    from .app import App


def progress_line(spec: CampaignSpec, progress: CampaignProgress | None) -> str:
    if progress is None:
        return _("Not begun")
    if progress.finished(spec):
        ending = camp.ending_of(progress, spec)
        if ending is not None:
            return _("Over: {ending}").format(ending=_(ending.title))
        return _("Won: every battle of the campaign is behind you")
    waiting = camp.pending_decision(progress, spec)
    if waiting is not None:
        return _("At the camp: {decision}").format(decision=_(waiting.title))
    title = _(load_scenario(spec.scenarios[progress.stage]).scenario.title)
    return _("Battle {n} of {total}: {title}").format(n=progress.stage + 1, total=len(spec.scenarios), title=title)


def army_line(spec: CampaignSpec, progress: CampaignProgress) -> str:
    """Lines for a campaign's card: the army and the war chest once a battle has been won (before
    that the army is the first scenario's own and the chest is empty: nothing to count), what a
    lost battle means, and the computer's level."""
    level = _(LEVELS.get(progress.difficulty, LEVELS["normal"]))
    parts = []
    if progress.stage > 0:
        formations = len(progress.roster.formations)
        parts.append(
            ngettext("{coins} soul coins · {n} formation", "{coins} soul coins · {n} formations", formations).format(
                coins=format_men(progress.coins), n=formations
            )
        )
    if progress.attempts and not progress.finished(spec):
        parts.append(
            ngettext(
                "Lost {n} time: Continue fights it again.",
                "Lost {n} times: Continue fights it again.",
                progress.attempts,
            ).format(n=progress.attempts)
        )
    parts.append(_("The computer plays: {level}").format(level=level))
    return "\n".join(parts)


class CampaignMenuScene(Scene):
    music = "menu"

    def __init__(self, app: App, saves_dir: Path | None = None) -> None:
        """``saves_dir``: where the campaigns' progress is kept (the profile's saves folder unless
        a campaign played from another says so)."""
        self.saves_dir = saves_dir if saves_dir is not None else app.profile.saves_dir
        self.levels: dict[str, str] = {}
        # A campaign whose "begin anew" was pressed once: the second press confirms.
        self.confirming: str | None = None
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        self.message = ""
        self.campaigns: Campaigns | None = None
        self.progress: dict[str, CampaignProgress | None] = {}
        self.problems: dict[str, str] = {}
        try:
            self.campaigns = load_campaigns()
        except ContentErrors as exc:
            self.message = str(exc.errors[0])
        self.continue_buttons: dict[str, UIButton] = {}
        self.new_buttons: dict[str, UIButton] = {}
        self.level_menus: dict[str, UIDropDownMenu] = {}
        self.panels: dict[str, pygame.Rect] = {}
        specs = self.campaigns.ordered() if self.campaigns else []
        gap = px(24)
        pw = min(px(560), (w - 3 * gap) // max(1, len(specs)))
        x = (w - len(specs) * pw - (len(specs) - 1) * gap) // 2
        top = px(150)
        ph = min(px(440), h - top - px(110))
        for spec in specs:
            try:
                self.progress[spec.id] = load_progress(spec.id, self.saves_dir)
            except SaveError as exc:
                self.progress[spec.id] = None
                self.problems[spec.id] = str(exc)
            rect = pygame.Rect(x, top, pw, ph)
            self.panels[spec.id] = rect
            by = rect.bottom - px(56)
            progress = self.progress[spec.id]
            # A campaign over can still be opened to read its ending again.
            ended = progress is not None and progress.finished(spec)
            if progress is not None and (not ended or camp.ending_of(progress, spec) is not None):
                label = _("Read the ending") if ended else _("Continue")
                self.continue_buttons[spec.id] = UIButton(
                    pygame.Rect(rect.x + 16, by, pw - 32, px(42)), label, self.manager, object_id="#big_button"
                )
                by -= px(50)
            level = self.levels.setdefault(spec.id, "normal")
            self.level_menus[spec.id] = UIDropDownMenu(
                [_(name) for name in LEVELS.values()],
                _(LEVELS[level]),
                pygame.Rect(rect.x + 16, by, px(150), px(40)),
                self.manager,
            )
            label = _("Begin anew") if progress is not None else _("Begin the campaign")
            if self.confirming == spec.id:
                label = _("Really start over? Press again")
            menu_w = px(150) + 10
            self.new_buttons[spec.id] = UIButton(
                pygame.Rect(rect.x + 16 + menu_w, by, pw - 32 - menu_w, px(40)), label, self.manager
            )
            x += pw + gap
        self.back_button = UIButton(
            pygame.Rect(w // 2 - px(110), h - px(80), px(220), px(44)), _("Main menu"), self.manager
        )
        self.message_label = UILabel(
            pygame.Rect(0, h - px(120), w, px(30)), self.message, self.manager, object_id="#subtitle"
        )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        w, _h = self.app.size
        heading(surface, "乾坤 Qiankun", w // 2 - px(110), px(40), size=40)
        muted(surface, _("Campaigns"), w // 2 - px(110), px(96), size=20)
        if not self.campaigns:
            return
        for spec in self.campaigns.ordered():
            rect = self.panels.get(spec.id)
            if rect is None:
                continue
            panel(surface, rect)
            x, width = rect.x + 16, rect.w - 32
            # The title wraps in a narrow card rather than running into the next one.
            y = paragraph(surface, _(spec.title), x, rect.y + 14, width, size=22, colour=GOLD, bold=True) + 4
            progress = self.progress.get(spec.id)
            stage = progress_line(spec, progress)
            army = army_line(spec, progress) if progress is not None else ""
            aim = aim_line(spec, progress) if progress is not None else ""
            # The description gives way (it ends in "…") to the lines under it, which stay clear
            # of the buttons at the foot of the card.
            below = 10 + paragraph_height(stage, width, 17, bold=True)
            below += 2 + paragraph_height(army, width, 15) if army else 0
            below += paragraph_height(aim, width, 15) if aim else 0
            buttons_top = rect.bottom - px(106 if spec.id in self.continue_buttons else 56)
            limit = buttons_top - 6 - below
            if limit - y - 4 >= paragraph_height("A", width, 16):  # else no room for even a line
                y = paragraph(surface, _(spec.description), x, y + 4, width, size=16, max_y=limit)
            y += 10
            y = paragraph(surface, stage, x, y, width, size=17, bold=True)
            if army:
                y = paragraph(surface, army, x, y + 2, width, size=15, colour=MUTED)
            if aim:
                y = paragraph(surface, aim, x, y, width, size=15, colour=MUTED)
            if spec.id in self.problems:
                paragraph(surface, self.problems[spec.id], x, y + 4, width, size=14, colour=(235, 110, 90))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            for cid, menu in self.level_menus.items():
                if event.ui_element is menu:
                    self.levels[cid] = next(k for k, v in LEVELS.items() if _(v) == event.text)
            return
        if asks_back(event, self.back_button):
            self._back()
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        for cid, button in self.continue_buttons.items():
            if event.ui_element is button:
                self.open(cid)
                return
        for cid, button in self.new_buttons.items():
            if event.ui_element is button:
                if self.progress.get(cid) is not None and self.confirming != cid:
                    self.confirming = cid
                    self.resize(self.app.size)
                    return
                self.begin(cid)
                return

    def _back(self) -> None:
        self.app.go("menu")

    def begin(self, campaign_id: str) -> None:
        """A new campaign at the chosen level, saved at once; its first briefing."""
        assert self.campaigns is not None
        spec = self.campaigns.campaigns[campaign_id]
        progress = camp.new_progress(spec, secrets.randbelow(1 << 62), self.levels.get(campaign_id, "normal"))
        run = CampaignRun(self.campaigns, spec, progress, self.saves_dir)
        try:
            run.save()
        except SaveError as exc:
            self.message_label.set_text(str(exc))
            return
        self._to(run)

    def open(self, campaign_id: str) -> None:
        assert self.campaigns is not None
        progress = self.progress.get(campaign_id)
        if progress is None:
            return
        run = CampaignRun(self.campaigns, self.campaigns.campaigns[campaign_id], progress, self.saves_dir)
        self._to(run)

    def _to(self, run: CampaignRun) -> None:
        resume_campaign(self.app, run)


def resume_campaign(app: App, run: CampaignRun) -> None:
    """Go on with a campaign where it stands: the one way in, for the campaign menu's Continue and
    Begin and the main menu's Continue. Remembered as the game played last."""
    app.remember(last_played="campaign", last_campaign=run.spec.id)
    # Back at the camp if the last battle was won and the next has not begun.
    if run.progress.stage > 0 and (run.finished or run.progress.attempts == 0):
        app.go("camp", run=run)
        return
    # A battle left part-way goes on from its last save, not from its first turn.
    resumed = run.battle_in_progress(app.saves)
    if resumed is None:
        app.go("briefing", run=run)
        return
    battle = app.go("battle", match=resumed)
    assert isinstance(battle, BattleScene)
    battle.say(_("The battle resumes at turn {n}, where it was last saved.").format(n=resumed.state.turn))
