"""Hotseat hand-over: the board is hidden until the next player says they are at the screen, by a
deliberate act (``deliberate.DeliberateAct``): nothing queued before the curtain, no double-click
and no held key passes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.elements import UIButton, UILabel

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
        self.ready = UIButton(
            pygame.Rect(w // 2 - px(140), h // 2 + px(20), px(280), px(52)),
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
                pygame.Rect(w // 2 - px(140), h // 2 + px(84), px(280), px(40)),
                _("Watch what your formations saw"),
                self.manager,
                tool_tip_text=_("Replays the other side's turn as your own formations saw it (W)"),
            )

    def handle(self, event: pygame.event.Event) -> None:
        used = self.act.feed(event, (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_w))
        if used is None:
            return
        if used is self.ready or used in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.app.back()
        elif self.watch is not None and (used is self.watch or used == pygame.K_w):
            self.app.swap("watch", session=self.session, side_id=self.side_id, start=self.watch_start)

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
