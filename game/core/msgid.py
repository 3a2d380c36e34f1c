"""``N_``: marks an English msgid for extraction (tools/extract_messages.py) without translating it.

The rules name things the player reads (skills, marks, officers, duel outcomes) but translate
nothing: the screens translate each text when they show it. One marker for the rules and the
screens alike (``game.i18n`` re-exports it).
"""

from __future__ import annotations


def N_(message: str) -> str:
    return message
