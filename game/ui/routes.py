"""Every screen the app can show, by route name. Scenes ask the app for a route
(``app.go("result", match=...)``); only this table knows their classes."""

from __future__ import annotations

from collections.abc import Callable

from .battle import BattleScene
from .battle_briefing import BattleBriefingScene
from .battle_menu import BattleMenuScene, confirm_quit
from .briefing import BriefingScene
from .camp import CampScene
from .campaign_menu import CampaignMenuScene
from .credits import CreditsScene
from .dialog import DialogScene
from .duel_view import DuelPromptScene, DuelScene
from .encyclopedia_screen import EncyclopediaScene
from .handover import HandoverScene
from .help_screen import HelpScene
from .menu import MenuScene
from .quick_battle import QuickBattleScene
from .replay import ReplayScene
from .result import ResultScene
from .saves_screen import SaveScreen
from .scene import Scene
from .seal_setup import SealSetupScene
from .settings_screen import SettingsScene
from .watch_replay import WatchScene

ROUTES: dict[str, Callable[..., Scene]] = {
    "menu": MenuScene,
    "quick_battle": QuickBattleScene,
    "campaigns": CampaignMenuScene,
    "briefing": BriefingScene,
    "camp": CampScene,
    "battle": BattleScene,
    "battle_briefing": BattleBriefingScene,
    "battle_menu": BattleMenuScene,
    "confirm_quit": confirm_quit,
    "dialog": DialogScene,
    "settings": SettingsScene,
    "help": HelpScene,
    "credits": CreditsScene,
    "encyclopedia": EncyclopediaScene,
    "handover": HandoverScene,
    "watch": WatchScene,
    "duel": DuelScene,
    "duel_prompt": DuelPromptScene,
    "result": ResultScene,
    "saves": SaveScreen,
    "seal_setup": SealSetupScene,
    "replay": ReplayScene,
}
