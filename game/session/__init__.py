"""The battle as it is played at one screen, without the screen (no pygame here): the match,
the formation chosen and the order flow, whose eyes are on the screen and the hand-over
between human sides. The battle screen draws it and forwards the player's input to it.
"""

from .battle_session import NOTHING, BattleSession, HandOver, Outcome

__all__ = ["NOTHING", "BattleSession", "HandOver", "Outcome"]
