"""Faction behaviour on top of the tactical core: the commander each faction's general plays.

``Persona`` (``persona``) is the plain commander; ``Hailing`` is Wanyan Liang, ``Jin`` Wanyan
Wuzhu, ``Yuqing`` Han Xin's coalition and ``Zhenguo`` Yue Fei's army, each in a module of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hailing import PRIDE_RADIUS, Hailing
from .jin import Jin
from .persona import Persona
from .yuqing import Yuqing
from .zhenguo import Zhenguo

if TYPE_CHECKING:
    from .general import General

__all__ = ["PRIDE_RADIUS", "Persona", "for_faction"]


def for_faction(faction: str, general: General) -> Persona:
    if faction == "hailing":
        return Hailing(general)
    if faction == "jin":
        return Jin(general)
    if faction == "zhenguo":
        return Zhenguo(general)
    if faction == "yuqing":
        return Yuqing(general)
    return Persona(general)
