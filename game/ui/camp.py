"""The camp between campaign battles: souls turned to coins, the army's state, and orders to
replenish men, raise formations and buy upgrades. When the campaign puts a decision to the
player the camp shows it instead, and the army cannot march until it is taken; once the
campaign is over the camp tells its ending. Every order and decision is saved at once."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer

from .. import i18n
from ..content.ruleset import load_ruleset
from ..content.scenarios import load_scenario
from ..core import campaign as camp
from ..core import roster
from ..core.campaign import CampaignProgress, CampError
from ..core.campaign_spec import CampaignSpec
from ..core.roster import CarriedFormation
from ..core.rules import Ruleset
from ..i18n import _, format_men, ngettext
from ..record.campaign_run import CampaignRun
from .camp_story import DecisionView, EndingView, aim_outcome
from .fonts import font
from .pages import BACKGROUND, heading, muted, panel, paragraph
from .scale import px
from .scene import Scene, asks_back

if TYPE_CHECKING:
    from .app import App

# The roster's row and columns at 100% (``px``): name, men, experience, then the orders.
ROW_H = 46
NAME_W, MEN_W, EXPERIENCE_W = 330, 230, 90
# The finished campaign's page: where its ending starts, and the height of a battle's line.
ENDING_TOP = 144
RESULT_LINE = 24


def carried_name(rules: Ruleset, c: CarriedFormation) -> str:
    type_name = _(rules.units[c.type].name) if c.type in rules.units else c.type
    if c.hero and c.hero in rules.heroes:
        return f"{i18n.name(rules.heroes[c.hero].name)} · {type_name}"
    if c.raised:
        return _("{unit} (raised at the camp)").format(unit=type_name)
    return type_name


def aim_line(spec: CampaignSpec, progress: CampaignProgress) -> str:
    """The campaign's war aim and how far the army has come (empty if it has none)."""
    if not spec.souls_aim:
        return ""
    return _("Souls asked for: {aim} · {n} bagged").format(
        aim=format_men(spec.souls_aim), n=format_men(progress.souls_bagged())
    )


# The camp's title line: the largest of these sizes at which it fits the page's width.
HEADING_SIZES = (30, 24, 20)


def heading_size(text: str, width: int) -> int:
    """The size the title ``text`` is drawn at, so that it fits ``width`` (an ending's title and
    the campaign's are long in a small window); the smallest if none does."""
    return next((s for s in HEADING_SIZES if font(s, True).size(text)[0] <= width), HEADING_SIZES[-1])


class CampScene(Scene):
    music = "camp"
    tells_story = True

    def __init__(self, app: App, run: CampaignRun) -> None:
        self.run = run
        self.rules = load_ruleset()
        self.note = ""
        super().__init__(app)

    def story_script(self) -> str | None:
        return self.run.spec.names

    # -- widgets ------------------------------------------------------------------------------

    def build(self) -> None:
        w, h = self.app.size
        run = self.run
        self.actions: dict[UIButton, Callable[[CampaignProgress], CampaignProgress]] = {}  # button -> its order
        self.width = min(px(1100), w - 60)
        self.left = (w - self.width) // 2
        self.table_top = px(214)
        self.table_bottom = h - px(196)
        self.decision: DecisionView | None = None
        self.ending: EndingView | None = None
        waiting = camp.pending_decision(run.progress, run.spec)
        ending = camp.ending_of(run.progress, run.spec)
        if waiting is not None:
            self.decision = DecisionView(self.manager, self.rules, run.spec, run.progress, waiting)
            self.decision.build(
                pygame.Rect(self.left - 8, self.table_top - px(34), self.width + 16, h - px(56) - self.table_top)
            )
        elif ending is not None:
            self.ending = EndingView(self.manager, ending)
            results_h = px(RESULT_LINE) * len(run.progress.results)
            top = px(ENDING_TOP)
            self.ending.build(pygame.Rect(self.left, top, self.width, h - px(86) - results_h - px(14) - top))
        elif not run.finished:
            self._roster(self.table_bottom)
            self._recruits(self.table_bottom + 12)
        alone = run.finished or waiting is not None
        back_x = w // 2 - px(120) if alone else w // 2 - px(330)
        self.back_button = UIButton(pygame.Rect(back_x, h - px(72), px(240), px(44)), _("Campaigns"), self.manager)
        self.march_button = None
        if not alone:
            title = _(load_scenario(run.scenario_id).scenario.title)
            self.march_button = UIButton(
                pygame.Rect(w // 2 - px(70), h - px(76), px(400), px(50)),
                _("March on: {title}").format(title=title),
                self.manager,
                object_id="#big_button",
            )
        # The ending's page has no room for the note: the ending itself says the choice was made.
        note = "" if self.ending is not None else self.note
        self.note_label = UILabel(pygame.Rect(0, h - px(132), w, px(36)), note, self.manager, object_id="#subtitle")

    def columns(self) -> tuple[int, int, int]:
        """The widths of the name, men and experience columns: as designed, narrowed in a small
        window so that the orders keep at least two fifths of the table."""
        shares = (NAME_W, MEN_W, EXPERIENCE_W)
        wanted = [px(w) for w in shares]
        room = int(self.width * 0.6)
        if sum(wanted) <= room:
            return wanted[0], wanted[1], wanted[2]
        name, men, experience = (room * w // sum(shares) for w in shares)
        return name, men, experience

    def _roster(self, bottom: int) -> None:
        run, rules = self.run, self.rules
        formations = run.progress.roster.formations
        row_h, line_h = px(ROW_H), px(36)
        box = pygame.Rect(self.left, self.table_top, self.width, max(row_h, bottom - self.table_top))
        self.container = UIScrollingContainer(box, self.manager, allow_scroll_x=False)
        inner_w = self.width - 20
        self.container.set_scrollable_area_dimensions((inner_w, max(box.h - 4, len(formations) * row_h)))
        upgrades = [run.campaigns.upgrades[u] for u in run.spec.upgrades if u in run.campaigns.upgrades]
        name_w, men_w, experience_w = self.columns()
        ahead = load_scenario(run.scenario_id).scenario
        for i, c in enumerate(formations):
            y = i * row_h + 4
            UILabel(pygame.Rect(6, y, name_w, line_h), carried_name(rules, c), self.manager, container=self.container)
            men = (
                f"{format_men(c.men)} / {format_men(c.max_men)}"
                if c.men
                else _("wiped out: {n} regather").format(n=format_men(max(1, round(c.max_men * roster.STRAGGLERS))))
            )
            UILabel(pygame.Rect(name_w + 6, y, men_w, line_h), men, self.manager, container=self.container)
            UILabel(
                pygame.Rect(name_w + men_w + 6, y, experience_w, line_h),
                str(c.experience),
                self.manager,
                container=self.container,
            )
            x = name_w + men_w + experience_w + 10
            if not roster.takes_the_field(ahead, c):
                # Nothing to spend on a formation the next battle has no place for.
                away = _("Stays in camp: no part in {battle}").format(battle=_(ahead.title))
                UILabel(pygame.Rect(x, y, inner_w - x, line_h), away, self.manager, container=self.container)
                continue
            offer = run.spec.units.get(c.type)
            if offer is not None:
                try:
                    n, cost = camp.replenish_quote(run.progress, run.spec, c.key)
                except CampError:
                    n, cost = 0, 0
                if n > 0:
                    label = _("+{men} men · {coins}").format(men=format_men(n), coins=cost)
                elif c.men < c.max_men:
                    label = _("Men: {coins} per 100").format(coins=offer.cost)
                else:
                    label = _("At full strength")
                b = UIButton(pygame.Rect(x, y, px(200), line_h), label, self.manager, container=self.container)
                if n <= 0:
                    b.disable()
                self.actions[b] = partial(camp.replenish, spec=run.spec, key=c.key)
                x += px(200) + 6
            for up in upgrades:
                why = camp.upgrade_allowed(c, up, rules)
                if why in ("it shoots no missiles", "it carries no palm thunder"):
                    continue
                b = UIButton(
                    pygame.Rect(x, y, px(150), line_h),
                    f"{_(up.name)} · {up.cost}",
                    self.manager,
                    container=self.container,
                    tool_tip_text=_(up.description),
                )
                if why is not None or up.cost > run.progress.coins:
                    b.disable()
                self.actions[b] = partial(camp.buy_upgrade, spec=run.spec, key=c.key, upgrade=up, rules=rules)
                x += px(150) + 6

    def _recruits(self, y: int) -> None:
        run = self.run
        x = self.left
        for unit_type, offer in sorted(run.spec.units.items()):
            if offer.recruit <= 0 or unit_type not in self.rules.units:
                continue
            cost = camp.recruit_cost(run.spec, unit_type)
            label = _("Raise {men} {unit} · {coins}").format(
                men=format_men(offer.recruit), unit=_(self.rules.units[unit_type].name), coins=cost
            )
            b = UIButton(pygame.Rect(x, y, px(320), px(38)), label, self.manager)
            if cost > run.progress.coins:
                b.disable()
            self.actions[b] = partial(camp.recruit, spec=run.spec, unit_type=unit_type)
            x += px(320) + 10

    # -- drawing ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        run = self.run
        x, width = self.left, self.width
        if self.ending is not None:
            title = _(self.ending.ending.title)
        else:
            title = _("The campaign is won") if run.finished else _("Camp")
        title = f"{title} · {_(run.spec.title)}"
        y = heading(surface, title, x, px(24), size=heading_size(title, width))
        last = run.progress.results[-1] if run.progress.results else None
        if last is not None and last.won and self.ending is None:
            scenario = _(load_scenario(last.scenario_id).scenario.title)
            y = paragraph(
                surface,
                _("After {battle}: {souls} souls from the pouch became {coins} soul coins.").format(
                    battle=scenario, souls=format_men(last.souls), coins=format_men(last.coins)
                ),
                x,
                y + 4,
                width,
            )
        y = heading(surface, _("Soul coins: {n}").format(n=format_men(run.progress.coins)), x, y + 6, size=22)
        aim = aim_line(run.spec, run.progress)
        if aim:
            heading(surface, aim, x + px(300), y - px(30), size=17)
        if self.decision is not None:
            muted(surface, _("The campaign goes on once this is decided."), x, y + 2)
            panel(surface, self.decision.rect)
            self.decision.draw(surface)
            return
        if run.finished:
            outcome = aim_outcome(run.spec, run.progress)
            if outcome:
                muted(surface, outcome, x, y + 2)
            if self.ending is not None:
                self.ending.draw(surface)
                self._results(surface, self.ending.bottom + px(14), size=15)
            else:
                self._results(surface, y + 20)
            return
        muted(
            surface,
            _("Half of each formation's losses were only wounded and are back in the ranks; heroes carry on."),
            x,
            y + 2,
        )
        head = px(34)
        box = pygame.Rect(
            self.left - 8, self.table_top - head, self.width + 16, self.table_bottom - self.table_top + head + 4
        )
        panel(surface, box)
        y = self.table_top - head + 6
        columns = self.columns()
        for i, text in enumerate((_("Formation"), _("Men"), _("Experience"), _("Orders"))):
            muted(surface, text, self.left + 6 + sum(columns[:i]) + (10 if i == 3 else 0), y)

    def _results(self, surface: pygame.Surface, y: int, size: int = 17) -> None:
        x = self.left
        for r in self.run.progress.results:
            scenario = _(load_scenario(r.scenario_id).scenario.title)
            outcome = _("victory") if r.won else _("defeat")
            line = ngettext(
                "{battle}: {outcome} in {turns} turn, {souls} souls",
                "{battle}: {outcome} in {turns} turns, {souls} souls",
                r.turns,
            ).format(battle=scenario, outcome=outcome, turns=r.turns, souls=format_men(r.souls))
            y = paragraph(surface, line, x, y, self.width, size=size)

    # -- orders -------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if asks_back(event, self.back_button):
            self.back()
            return
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if event.ui_element is self.march_button:
            self.march_on()
        elif self.decision is not None and event.ui_element in self.decision.buttons:
            self.decide(self.decision.buttons[event.ui_element])
        elif event.ui_element in self.actions:
            order = self.actions[event.ui_element]
            refused = self.run.order(lambda p: order(p))
            self.note = _("Refused: {why}").format(why=refused) if refused else _("Done. Progress saved.")
            self.resize(self.app.size)

    def decide(self, option_id: str) -> None:
        """Take a course of the decision on screen; the camp then shows what follows (the army's
        orders and the next battle, or the ending)."""
        assert self.decision is not None
        decision = self.decision.decision
        refused = self.run.order(partial(camp.decide, spec=self.run.spec, decision_id=decision.id, option_id=option_id))
        option = decision.option(option_id)
        chosen = _(option.title) if option is not None else option_id
        self.note = (
            _("Refused: {why}").format(why=refused)
            if refused
            else _("Decided: {course}. Progress saved.").format(course=chosen)
        )
        self.resize(self.app.size)

    def march_on(self) -> None:
        self.app.go("briefing", run=self.run)

    def back(self) -> None:
        self.app.go("campaigns", saves_dir=self.run.saves_dir)
