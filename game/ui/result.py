"""The end of a battle: who won and why, what it cost each side, the story's debriefing, and
where to go next (the camp, the battle again, the replay, the menus).

What is shown is derived by ``game.view.outcome`` (the deciding event or objective and its turn,
annihilation or the last turn) and ``game.view.summary`` (the table), so a game loaded already
finished reads the same as one just played. Each way out is one small method (``to_menu``,
``to_campaigns``, ``to_camp``, ``retry``, ``watch_replay``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIScrollingContainer, UITextBox

from ..chronicle.replayed import set_pieces_of
from ..content.campaigns import names_script
from ..core import campaign as camp
from ..core.engine import initial_state
from ..i18n import _, format_men, ngettext, sentences
from ..record.campaign_run import CampaignRun
from ..record.errors import SaveError
from ..record.match import Match
from ..view.battle_figures import FiguresWatch
from ..view.history import compare
from ..view.names import formation_names, hero_name, save_name, side_name
from ..view.outcome import debriefing, decide, headline, headline_text, reason_text
from ..view.side_texts import objectives_as_read, result_reader
from ..view.summary import summarise, took_part
from .figures_panel import figures_picture
from .hud import BAD, GOLD, GOOD, MUTED, TEXT
from .narration import wrap
from .scale import px
from .scene import Scene
from .story_box import coloured_html, line_height
from .summary_table import SummaryTable

if TYPE_CHECKING:
    from .app import App

MARGIN = 20
GAP = 16
BUTTON_H = 44
NOTE_H = 28
# The story box is never narrower than this beside the table (else it goes below the table),
# nor wider than reads comfortably.
STORY_MIN_W = 260
STORY_MAX_W = 760
# pygame_gui's text box: its border and padding on each side, and a scroll bar's width.
BOX_INSET = 6
SCROLLBAR_W = 22
# Below this window height the title takes its smaller size.
SMALL_H = 700


class Paragraph(NamedTuple):
    text: str
    colour: tuple[int, int, int]
    # The next paragraph follows on the next line, not after a blank one (a heading, a list).
    joined: bool = False


class ResultScene(Scene):
    tells_story = True

    def __init__(self, app: App, match: Match) -> None:
        self.match = match
        scenario = match.loaded.scenario
        self.tell_story()  # before anything is named
        # A campaign battle: counted (and the progress saved) once, as the screen opens.
        self.run: CampaignRun | None = match.campaign if isinstance(match.campaign, CampaignRun) else None
        self.save_problem = ""
        if self.run is not None:
            try:
                self.run.battle_over(match)
            except SaveError as exc:
                self.save_problem = str(exc)
        self.outcome = decide(scenario, match.state)
        self.headline = headline(match.state, match.seats.humans())
        engine = match.engine
        rows = summarise(scenario, engine.rules, engine.settings, match.state)
        roles = {s.id: s.role for s in match.state.sides}
        self.summary = [r for r in rows if took_part(r, roles[r.side])]
        self.names = formation_names(engine.rules, scenario, match.record.settings.roster)
        # One re-run of the record reads both the set pieces and the figures turn by turn.
        watch = FiguresWatch(initial_state(scenario, engine.rules, engine.settings))
        self.history = compare(set_pieces_of(match.record, match.loaded, also=[watch]), engine.rules, self.names)
        self.figures = watch.figures()
        # The body shows the story and the table, or the battle in figures (a button swaps them).
        self.showing_figures = False
        self.figures_surface: pygame.Surface | None = None
        super().__init__(app)

    # -- what it says ------------------------------------------------------------------------

    def _won(self) -> bool:
        return self.run is not None and self.match.state.winner == self.run.spec.side

    def title_text(self) -> str:
        return headline_text(self.match.state, self.match.loaded.scenario, self.match.seats.humans())

    def reason(self) -> str:
        m = self.match
        return reason_text(self.outcome, m.loaded.scenario, m.engine.rules, m.state)

    def campaign_card(self) -> str:
        """What the battle means for the campaign (empty outside one)."""
        run = self.run
        if run is None:
            return ""
        if not self._won():
            return _(
                "The battle is lost, and nothing from it is kept: fight it again with the army as it stood "
                "before, or leave for the campaigns and come back to it later."
            )
        last = run.progress.results[-1] if run.progress.results else None
        souls, coins = (last.souls, last.coins) if last is not None and last.won else (0, 0)
        marching = len(run.progress.roster.formations)
        text = _("{souls} souls from the pouch become {coins} soul coins; the war chest holds {total}.").format(
            souls=format_men(souls), coins=format_men(coins), total=format_men(run.progress.coins)
        )
        waiting = camp.pending_decision(run.progress, run.spec)
        if waiting is not None:
            waits = _("At the camp a decision waits for you: {decision}.").format(decision=_(waiting.title))
            return sentences(text, waits)
        if run.finished:
            won = _("Every battle of the campaign is won.")
            if camp.ending_of(run.progress, run.spec):
                return sentences(text, won, _("The camp tells how it ends."))
            return sentences(text, won)
        return sentences(
            text,
            ngettext(
                "{n} formation marches on to the next battle.", "{n} formations march on to the next battle.", marching
            ).format(n=marching),
        )

    def story(self) -> list[Paragraph]:
        """The paragraphs of the story box."""
        m = self.match
        scenario, rules = m.loaded.scenario, m.engine.rules
        out: list[Paragraph] = []
        card = self.campaign_card()
        if card:
            out.append(Paragraph(card, GOLD))
        event = self.outcome.event
        if event is not None:
            marks = {"done": (_("Achieved"), GOOD), "failed": (_("Failed"), BAD), "open": (_("Not achieved"), MUTED)}
            # The side whose debriefing is shown reads its own objectives.
            reader = result_reader(scenario, m.state, m.seats.humans())
            objectives = objectives_as_read(scenario, reader, event.objectives)
            for i, (spec, status) in enumerate(objectives):
                word, colour = marks.get(status, marks["open"])
                text = _("{status}: {objective}").format(status=word, objective=_(spec.text))
                out.append(Paragraph(text, colour, joined=i < len(objectives) - 1))
            if event.narration is not None:
                words = _(event.narration.text)
                speaker = event.narration.speaker
                if speaker:
                    line = _('"{words}" — {speaker}').format(words=words, speaker=hero_name(rules, speaker))
                else:
                    line = _('"{words}"').format(words=words)
                out.append(Paragraph(line, TEXT))
        if self.outcome.shares:
            shares = _(" · ").join(
                _("{side} {share}%").format(side=side_name(scenario, s), share=round(100 * v))
                for s, v in self.outcome.shares
            )
            out.append(Paragraph(_("Share of the enemy's men destroyed: {shares}").format(shares=shares), TEXT))
        # Each side reads its own; with people on both sides, the winner's (never the loser's).
        text = debriefing(scenario, m.state, result_reader(scenario, m.state, m.seats.humans()))
        told = self.run.spec.debriefings.get(scenario.id) if self.run is not None and self._won() else None
        if told is not None:  # the campaign goes on from this victory in its own words
            text = told.debriefing_victory
        if text:
            out.append(Paragraph(_("Debriefing"), GOLD, joined=True))
            out.append(Paragraph(_(text), TEXT))
        if self.history:
            out.append(Paragraph(_("History and your battle"), GOLD, joined=True))
            for c in self.history:
                out.append(Paragraph(c.title, TEXT, joined=True))
                out.append(Paragraph(_("The chronicle: {history}").format(history=c.history), MUTED, joined=True))
                out.append(Paragraph(c.battle, GOOD if c.came else BAD))
        souls = m.state.souls_on_field()
        if souls:
            out.append(Paragraph(_("Wandering souls left on the field: {n}").format(n=format_men(souls)), MUTED))
        return out

    # -- layout ------------------------------------------------------------------------------

    def story_script(self) -> str | None:
        return names_script(self.match.loaded.scenario.campaign)

    def build(self) -> None:
        w, h = self.app.size
        theme = self.manager.get_theme()
        content_w = min(w - 2 * MARGIN, px(1400))

        title = self.title_text()
        too_wide = theme.get_font(["#title", "label"]).get_rect(title).width > w - 2 * MARGIN
        title_id = "#title_small" if too_wide or h < SMALL_H else "#title"
        title_h = theme.get_font([title_id, "label"]).get_rect(title).height + 4
        reason_lines = wrap(self.reason(), 22, content_w - 20)
        reason_h = theme.get_font(["#subtitle", "label"]).get_rect("Ag國").height + 4
        head_h = title_h + len(reason_lines) * reason_h + GAP
        footer_h = px(BUTTON_H) + px(NOTE_H) + 4
        room = h - MARGIN - head_h - GAP - footer_h  # for the table and the story

        # The story beside the table if it has room there (narrowing the side columns, whose
        # names then wrap, if that makes room), else below it.
        names = {r.side: self._side_name(r.side) for r in self.summary}
        self.table = SummaryTable(self.manager, self.summary, names)
        self.table.fit(content_w)
        story_min_w = px(STORY_MIN_W)
        if content_w - self.table.width - GAP < story_min_w:
            narrow = SummaryTable(self.manager, self.summary, names)
            narrow.fit(content_w - story_min_w - GAP)
            if content_w - narrow.width - GAP >= story_min_w:
                self.table = narrow
        side_by_side = content_w - self.table.width - GAP >= story_min_w
        self.story_box: UITextBox | None = None
        self.body: UIScrollingContainer | None = None
        if self.showing_figures:  # the charts take all the room the table and story had
            y = self._head(MARGIN // 2, title, title_id, title_h, reason_lines, reason_h)
            body_h = h - footer_h - MARGIN // 2 - GAP - y
            self._build_figures(pygame.Rect((w - content_w) // 2, y, content_w, body_h))
            self._buttons(y + body_h + GAP)
            return
        story_w = min(px(STORY_MAX_W), content_w - self.table.width - GAP if side_by_side else content_w - SCROLLBAR_W)
        html, lines = self._story_html(story_w)
        line_h = line_height(self.manager)
        story_need = lines * line_h + 2 * BOX_INSET + 8 if lines else 0
        if side_by_side:
            body_h = max(self.table.height, min(story_need, room))
        else:
            body_h = min(room, self.table.height + (GAP + story_need if lines else 0))
        # The whole block in the middle of the window when there is room to spare.
        y = max(MARGIN // 2, (h - head_h - body_h - GAP - footer_h) // 2)
        y = self._head(y, title, title_id, title_h, reason_lines, reason_h)
        if side_by_side:
            x = (w - story_w - GAP - self.table.width) // 2
            self.table.build(x + story_w + GAP, y)
            if lines:
                rect = pygame.Rect(x, y, story_w, min(story_need, room))
                self.story_box = UITextBox(html, rect, self.manager)
        elif self.table.height + GAP + story_need <= room or not lines:
            self.table.build((w - self.table.width) // 2, y)
            if lines:
                rect = pygame.Rect((w - story_w) // 2, y + self.table.height + GAP, story_w, story_need)
                self.story_box = UITextBox(html, rect, self.manager)
        else:
            # Too little room for both: they scroll together, the story at its full length.
            box = pygame.Rect((w - content_w) // 2, y, content_w, body_h)
            self.body = UIScrollingContainer(box, self.manager, allow_scroll_x=False)
            inner = content_w - SCROLLBAR_W
            self.table.build((inner - self.table.width) // 2, 0, container=self.body)
            rect = pygame.Rect((inner - story_w) // 2, self.table.height + GAP, story_w, story_need)
            self.story_box = UITextBox(html, rect, self.manager, container=self.body)
            self.body.set_scrollable_area_dimensions((inner, rect.bottom))
        self._buttons(min(h - footer_h - MARGIN // 2, y + body_h + GAP))

    def _head(self, y: int, title: str, title_id: str, title_h: int, reason_lines: list[str], reason_h: int) -> int:
        """The title and the reason from ``y`` down; returns where the body starts."""
        w = self.app.size[0]
        self.title_label = UILabel(pygame.Rect(0, y, w, title_h), title, self.manager, object_id=title_id)
        y += title_h
        self.reason_labels = []
        for line in reason_lines:
            rect = pygame.Rect(0, y, w, reason_h)
            self.reason_labels.append(UILabel(rect, line, self.manager, object_id="#subtitle"))
            y += reason_h
        return y + GAP

    def _build_figures(self, rect: pygame.Rect) -> None:
        """The battle in figures drawn for ``rect`` (blitted by ``draw``)."""
        state, rules = self.match.state, self.match.engine.rules
        side_names = {s.id: self._side_name(s.id) for s in state.sides}
        colours = {s.id: rules.factions[s.faction].colour for s in state.sides}
        self.figures_surface = figures_picture(rect.size, self.figures, side_names, colours, self.names)
        self.figures_at = rect.topleft

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.showing_figures and self.figures_surface is not None:
            surface.blit(self.figures_surface, self.figures_at)

    def toggle_figures(self) -> None:
        """Swap the body between the story with its table and the battle in figures."""
        self.showing_figures = not self.showing_figures
        self.figures_surface = None
        self.resize(self.app.size)

    def _buttons(self, y: int) -> None:
        w = self.app.size[0]
        self.camp_button = self.retry_button = None
        big: UIButton | None = None
        labels = [
            _("Save the record"),
            _("Watch the replay"),
            _("The story") if self.showing_figures else _("In figures"),
        ]
        if self.run is not None:
            if self._won():
                labels.append(_("To the camp") if not self.run.finished else _("The campaign is won"))
            else:
                labels.append(_("Fight the battle again"))
        labels.append(_("Campaigns") if self.run is not None else _("Main menu"))
        font = self.manager.get_theme().get_font(["button"])
        gap = 12
        widths = [max(px(160), font.get_rect(t).width + 36) for t in labels]
        if sum(widths) + gap * (len(widths) - 1) > w - MARGIN:  # a narrow window: each as wide as its words
            widths = [font.get_rect(t).width + 28 for t in labels]
        total = sum(widths) + gap * (len(widths) - 1)
        x = (w - total) // 2
        buttons = []
        for text, bw in zip(labels, widths, strict=True):
            buttons.append(UIButton(pygame.Rect(x, y, bw, px(BUTTON_H)), text, self.manager))
            x += bw + gap
        self.save_button, self.replay_button, self.figures_button = buttons[0], buttons[1], buttons[2]
        self.menu_button = buttons[-1]
        if self.run is not None:
            big = buttons[3]
            if self._won():
                self.camp_button = big
            else:
                self.retry_button = big
        self.note_y = y + px(BUTTON_H) + 2
        self.note: UILabel | None = None
        self.say(self.save_problem)

    def say(self, text: str) -> None:
        """A line under the buttons (saved where, or why not); in the smaller font if it is long."""
        if self.note is not None:
            self.note.kill()
        w = self.app.size[0]
        theme = self.manager.get_theme()
        big = theme.get_font(["#subtitle", "label"]).get_rect(text).width <= w - 2 * MARGIN
        object_id = "#subtitle" if big else None
        font = theme.get_font(["#subtitle", "label"] if big else ["label"])
        width = min(w, font.get_rect(text).width + 12)
        rect = pygame.Rect((w - width) // 2, self.note_y, width, px(NOTE_H) + 4)
        self.note = UILabel(rect, text, self.manager, object_id=object_id)
        self.note_text = text

    def _story_html(self, width: int) -> tuple[str, int]:
        """The story as text-box markup (``coloured_html``), and how many lines it takes."""
        # The text box lays text out in its width less about 38 pixels (border, padding, scroll
        # bar), and breaks a line that nearly fills that again with a blank line after it: room
        # to spare keeps our lines whole.
        inner = width - 2 * BOX_INSET - SCROLLBAR_W - 24
        return coloured_html(((p.text, p.colour, p.joined) for p in self.story()), inner)

    def _side_name(self, side_id: str | None) -> str:
        return side_name(self.match.loaded.scenario, side_id)

    # -- where to go -------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        actions = {
            self.save_button: self.save,
            self.replay_button: self.watch_replay,
            self.figures_button: self.toggle_figures,
            self.menu_button: self.to_campaigns if self.run is not None else self.to_menu,
        }
        if self.camp_button is not None:
            actions[self.camp_button] = self.to_camp
        if self.retry_button is not None:
            actions[self.retry_button] = self.retry
        action = actions.get(event.ui_element)
        if action is not None:
            action()

    def save(self) -> None:
        name = save_name(self.match.record.name, self.match.loaded.scenario, self.match.state.turn)
        try:
            name = self.app.saves.save_game(self.match, name)
            self.say(_("Saved as “{name}”").format(name=name))
        except SaveError as exc:
            self.say(str(exc))

    def watch_replay(self) -> None:
        """The replay viewer on this battle, from its first move."""
        try:
            self.app.go("replay", record=self.match.saved_record())
        except SaveError as exc:
            self.say(_("Cannot show the replay: {reason}").format(reason=str(exc)))

    def to_menu(self) -> None:
        self.app.go("menu")

    def to_campaigns(self) -> None:
        assert self.run is not None
        self.app.go("campaigns", saves_dir=self.run.saves_dir)

    def to_camp(self) -> None:
        assert self.run is not None
        self.app.go("camp", run=self.run)

    def retry(self) -> None:
        assert self.run is not None
        self.app.go("briefing", run=self.run)
