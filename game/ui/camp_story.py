"""The camp when the story is the question rather than the war chest: a decision put to the
player (the counsel, and each course with what follows from it) and the ending of a campaign
that is over. The camp scene places these views and carries out the course chosen."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextBox

from .. import i18n
from ..content.scenarios import load_scenario
from ..core.campaign import CampaignProgress
from ..core.campaign_spec import CampaignSpec, DecisionOption, DecisionSpec, EndingSpec
from ..core.rules import Ruleset
from ..i18n import _, format_men
from .fonts import font
from .hud import GOLD, MUTED, TEXT
from .pages import heading, paragraph, paragraph_height
from .scale import px, ui_scale
from .story_box import Colour, coloured_html, line_height

# pygame_gui's text box lays text out in its width less its border, padding and scroll bar; the
# lines are wrapped here to fit inside that (it would split Chinese with hyphens). Sizes here are
# at 100% (``px``).
BOX_SPARE = 60
OPTION_BUTTON_W = 300
OPTION_GAP = 14
PORTRAIT = 56


def story_html(paragraphs: list[tuple[str, Colour]], width: int) -> tuple[str, int]:
    """Paragraphs (text, colour) as text-box markup wrapped to fit a box ``width`` wide, with a
    blank line between them; and how many lines it takes."""
    return coloured_html(((text, colour, False) for text, colour in paragraphs), width - px(BOX_SPARE))


def box_height(manager: pygame_gui.UIManager, lines: int, room: int | None = None) -> int:
    """A text box's height for ``lines`` of text, or for as many whole lines as fit in ``room``."""
    line_h = line_height(manager)
    if room is not None:
        lines = max(1, min(lines, (room - px(20)) // line_h))
    return lines * line_h + px(20)


def consequence(option: DecisionOption, spec: CampaignSpec, progress: CampaignProgress) -> tuple[str, str]:
    """What taking ``option`` means: the counsel's words for it, and under them in the camp's
    own words what it pays and where the campaign goes next."""
    outcome = []
    if option.coins:
        outcome.append(_("+{coins} soul coins").format(coins=format_men(option.coins)))
    if option.ending is not None and option.ending in spec.endings:
        outcome.append(_("Ending: {ending}").format(ending=_(spec.endings[option.ending].title)))
    elif progress.stage < len(spec.scenarios):
        title = _(load_scenario(spec.scenarios[progress.stage]).scenario.title)
        outcome.append(_("Next battle: {title}").format(title=title))
    return _(option.description), _(" · ").join(outcome)


def draw_portrait(surface: pygame.Surface, rules: Ruleset, hero_id: str, box: pygame.Rect) -> None:
    """The hero's banner, as the battle's narration shows it: his surname in his colours."""
    hero = rules.heroes[hero_id]
    faction = rules.factions.get(hero.faction)
    colour = faction.colour if faction else (90, 90, 90)
    trim = faction.trim if faction else TEXT
    pygame.draw.circle(surface, colour, box.center, box.w // 2)
    pygame.draw.circle(surface, trim, box.center, box.w // 2, 2)
    # The font scales by itself: its size is the box's at 100%.
    glyph = font(round(box.h / ui_scale()) * 5 // 9, bold=True).render(i18n.name(hero.surname), True, trim)
    surface.blit(glyph, glyph.get_rect(center=box.center))


class DecisionView:
    """The counsel and one button per course, each with what follows beside it."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        rules: Ruleset,
        spec: CampaignSpec,
        progress: CampaignProgress,
        decision: DecisionSpec,
    ) -> None:
        self.manager, self.rules, self.decision = manager, rules, decision
        self.spec, self.progress = spec, progress
        self.buttons: dict[UIButton, str] = {}  # button -> option id
        self.rows: list[tuple[pygame.Rect, str, str]] = []  # each course's consequence and outcome
        self.rect = pygame.Rect(0, 0, 0, 0)

    def build(self, rect: pygame.Rect) -> None:
        self.rect = rect
        d = self.decision
        speaker = d.speaker if d.speaker in self.rules.heroes else None
        pad, button_w, button_h = px(16), px(OPTION_BUTTON_W), px(44)
        self.text_x = rect.x + pad + (px(PORTRAIT + 26) if speaker else 0)
        top = rect.y + px(14) + font(22, True).get_linesize() + px(8)
        text_w = rect.right - pad - self.text_x
        cons_x = rect.x + pad + button_w + pad
        cons_w = rect.right - pad - cons_x
        options = [(o, *consequence(o, self.spec, self.progress)) for o in d.options]
        heights = [paragraph_height(t, cons_w, 16) + paragraph_height(u, cons_w, 15, True) for _o, t, u in options]
        rows_h = [max(button_h, n) for n in heights]
        need_options = sum(rows_h) + px(OPTION_GAP) * len(rows_h) + px(8)
        # The counsel as plain text when it fits, else in a box that scrolls (a small window).
        room = rect.bottom - top - need_options
        self.counsel: UITextBox | None = None
        self.counsel_text = _(d.text)
        counsel_h = paragraph_height(self.counsel_text, text_w, 16)
        if counsel_h > room:
            html, lines = story_html([(self.counsel_text, TEXT)], text_w)
            counsel_h = box_height(self.manager, lines, room)
            self.counsel = UITextBox(html, pygame.Rect(self.text_x - 6, top, text_w + 12, counsel_h), self.manager)
        self.counsel_rect = pygame.Rect(self.text_x, top, text_w, counsel_h)
        counsel_h = max(px(PORTRAIT), counsel_h)
        y = top + counsel_h + px(OPTION_GAP)
        for (option, text, outcome), row_h, need in zip(options, rows_h, heights, strict=True):
            button = UIButton(
                pygame.Rect(rect.x + pad, y + (row_h - button_h) // 2, button_w, button_h),
                _(option.title),
                self.manager,
                object_id="#big_button",
            )
            self.buttons[button] = option.id
            self.rows.append((pygame.Rect(cons_x, y + (row_h - need) // 2, cons_w, row_h), text, outcome))
            y += row_h + px(OPTION_GAP)
        # The panel ends below the last course, not at the foot of the room it was given.
        self.rect = pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, y - rect.y))

    def draw(self, surface: pygame.Surface) -> None:
        d, rect = self.decision, self.rect
        heading(surface, _(d.title), self.text_x, rect.y + px(12), size=22)
        if d.speaker is not None and d.speaker in self.rules.heroes:
            box = pygame.Rect(rect.x + px(16), rect.y + px(14), px(PORTRAIT), px(PORTRAIT))
            draw_portrait(surface, self.rules, d.speaker, box)
            name = font(14).render(i18n.name(self.rules.heroes[d.speaker].name), True, MUTED)
            surface.blit(name, name.get_rect(midtop=(box.centerx, box.bottom + px(4))))
        if self.counsel is None:
            r = self.counsel_rect
            paragraph(surface, self.counsel_text, r.x, r.y, r.w, size=16)
        for row, text, outcome in self.rows:
            y = paragraph(surface, text, row.x, row.y, row.w, size=16)
            paragraph(surface, outcome, row.x, y, row.w, size=15, colour=GOLD, bold=True)


def ending_paragraphs(ending: EndingSpec) -> list[tuple[str, tuple[int, int, int]]]:
    """The ending's text, a paragraph each (its last word is shown apart, always in view)."""
    return [(p, TEXT) for p in _(ending.text).split("\n\n")]


def aim_outcome(spec: CampaignSpec, progress: CampaignProgress) -> str:
    """Whether the war aim was met, once the campaign is over (empty without one)."""
    if not spec.souls_aim:
        return ""
    bagged, aim = format_men(progress.souls_bagged()), format_men(spec.souls_aim)
    if progress.souls_bagged() >= spec.souls_aim:
        return _("The souls asked for are bagged: {n} of {aim}.").format(n=bagged, aim=aim)
    return _("Fewer souls than were asked for: {n} bagged of {aim}.").format(n=bagged, aim=aim)


class EndingView:
    """The ending of a finished campaign: its text (in a box that scrolls if the window is small),
    and under it, set apart and never scrolled out of sight, its last word."""

    LAST_WORD_SIZE = 17
    TEXT_SIZE = 17

    def __init__(self, manager: pygame_gui.UIManager, ending: EndingSpec) -> None:
        self.manager, self.ending = manager, ending
        self.last_rect: pygame.Rect | None = None

    def build(self, rect: pygame.Rect) -> None:
        last = self.ending.last_word
        last_h = 0
        if last is not None:
            words = self.last_words()
            inner = rect.w - px(32)
            last_h = (
                px(20) + font(16, True).get_linesize() + px(6) + paragraph_height(words, inner, self.LAST_WORD_SIZE)
            )
            self.last_rect = pygame.Rect(rect.x, rect.bottom - last_h, rect.w, last_h)
            last_h += px(12)
        # The text as plain paragraphs when it fits, else in a box that scrolls (a small window).
        self.paragraphs = [text for text, _colour in ending_paragraphs(self.ending)]
        room = rect.h - last_h
        plain_h = sum(paragraph_height(t, rect.w, self.TEXT_SIZE) for t in self.paragraphs)
        plain_h += px(10) * (len(self.paragraphs) - 1)
        self.box: UITextBox | None = None
        if plain_h <= room:
            self.rect = pygame.Rect(rect.x, rect.y, rect.w, plain_h)
        else:
            html, lines = story_html(ending_paragraphs(self.ending), rect.w)
            self.rect = pygame.Rect(rect.x, rect.y, rect.w, box_height(self.manager, lines, room))
            self.box = UITextBox(html, self.rect, self.manager)
        if self.last_rect is not None:  # right under the text, not at the foot of the room
            self.last_rect.y = self.rect.bottom + px(12)

    def last_words(self) -> str:
        assert self.ending.last_word is not None
        return _('"{words}"').format(words=_(self.ending.last_word.text))

    @property
    def bottom(self) -> int:
        return self.last_rect.bottom if self.last_rect is not None else self.rect.bottom

    def draw(self, surface: pygame.Surface) -> None:
        if self.box is None:
            y = self.rect.y
            for text in self.paragraphs:
                y = paragraph(surface, text, self.rect.x, y, self.rect.w, size=self.TEXT_SIZE) + px(10)
        if self.last_rect is None or self.ending.last_word is None:
            return
        r = self.last_rect
        layer = pygame.Surface(r.size, pygame.SRCALPHA)
        layer.fill((60, 52, 36, 150))
        surface.blit(layer, r.topleft)
        pygame.draw.rect(surface, GOLD, r, 1, border_radius=4)
        y = heading(surface, _(self.ending.last_word.title), r.x + px(16), r.y + px(10), size=16)
        paragraph(
            surface, self.last_words(), r.x + px(16), y + px(2), r.w - px(32), size=self.LAST_WORD_SIZE, colour=GOLD
        )
