"""Hotseat hand-over: the board is hidden until the next player says they are at the screen, by a
deliberate act (``deliberate.DeliberateAct``): nothing queued before the curtain, no double-click
and no held key passes it. A side sealed by a pass phrase (``record.seal``) passes it only with its
phrase typed: a wrong one is refused in a line that says nothing of the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine

from ..i18n import _
from ..session import BattleSession
from .deliberate import DeliberateAct
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App


class HandoverScene(Scene):
    def __init__(self, app: App, session: BattleSession, side_id: str) -> None:
        self.session = session
        self.side_id = side_id
        # Only a fresh press made after the curtain is up, and its release, pass it.
        self.act = DeliberateAct.opening_now()
        # A finished game is open to anyone: only a running one keeps its sides sealed.
        self.seal = None if session.state.over else session.match.seats.seal(side_id)
        # Why the last try did not pass (a wrong phrase), shown under the field.
        self.refusal = ""
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        name = self.session.side_name(self.side_id)
        UILabel(pygame.Rect(0, h // 2 - px(128), w, px(86)), name, self.manager, object_id="#title")
        UILabel(
            pygame.Rect(0, h // 2 - px(40), w, px(34)),
            _("Pass the screen to the commander of this side."),
            self.manager,
            object_id="#subtitle",
        )
        top = h // 2 + px(20)
        self.phrase: UITextEntryLine | None = None
        if self.seal is not None:
            UILabel(
                pygame.Rect(w // 2 - px(140), top - px(6), px(280), px(28)), _("This side's pass phrase:"), self.manager
            )
            self.phrase = UITextEntryLine(pygame.Rect(w // 2 - px(140), top + px(22), px(280), px(36)), self.manager)
            self.phrase.set_text_hidden(True)
            self.phrase.focus()
            self.refusal_label = UILabel(
                pygame.Rect(0, top + px(62), w, px(30)), self.refusal, self.manager, object_id="#note"
            )
            top += px(104)
        self.ready = UIButton(
            pygame.Rect(w // 2 - px(140), top, px(280), px(52)),
            _("I am ready"),
            self.manager,
            object_id="#big_button",
        )
        # Once the player is here, they may first watch the turns they waited through, through
        # their own formations' eyes.
        self.watch_start = self.session.watch.replay_start(self.side_id, self.session.state.action_index)
        self.watch: UIButton | None = None
        if self.watch_start is not None:
            self.watch = UIButton(
                pygame.Rect(w // 2 - px(140), top + px(64), px(280), px(40)),
                _("Watch what your formations saw"),
                self.manager,
                tool_tip_text=_("Replays the other side's turn as your own formations saw it (W)"),
            )

    def keys(self) -> tuple[int, ...]:
        """The keys that pass the curtain: only Enter while a phrase is typed (a space or a W is
        part of the phrase then)."""
        enter = (pygame.K_RETURN, pygame.K_KP_ENTER)
        return enter if self.seal is not None else (*enter, pygame.K_SPACE, pygame.K_w)

    def handle(self, event: pygame.event.Event) -> None:
        used = self.act.feed(event, self.keys())
        if used is None:
            return
        if not self.unsealed():
            return
        if used is self.ready or used in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.app.back()
        elif self.watch is not None and (used is self.watch or used == pygame.K_w):
            self.app.swap("watch", session=self.session, side_id=self.side_id, start=self.watch_start)

    def unsealed(self) -> bool:
        """Whether the side is open, or the phrase typed opens its seal; a wrong phrase is
        refused, emptied and asked again, and nothing of the battle is shown."""
        if self.seal is None or self.phrase is None:
            return True
        if self.seal.opens(self.phrase.get_text()):
            return True
        self.refusal = _("That is not this side's pass phrase.")
        self.refusal_label.set_text(self.refusal)
        self.phrase.set_text("")
        self.phrase.focus()
        return False

    def draw(self, surface: pygame.Surface) -> None:
        # Nothing of the battle: no map, no units, no numbers.
        surface.fill((16, 17, 20))
        faction = self.session.rules.factions[self.session.state.side(self.side_id).faction]
        w, h = surface.get_size()
        pygame.draw.rect(
            surface,
            faction.colour,
            pygame.Rect(w // 2 - px(60), h // 2 - px(200), px(120), px(60)),
            border_radius=6,
        )
