"""Han Xin's coalition (the Yuqing faction)."""

from __future__ import annotations

from ..core.actions import UseSkill
from ..core.state import Formation
from .hailing import LIANG
from .persona import Persona


class Yuqing(Persona):
    """The Yuqing Palace coalition: the plain commander, except that Geng Gong's thirteen leave
    the Prince of Hailing a note and nothing else. For General Yeli's sake, who counted him a
    friend, they did not take him that day: the infiltrators turn no raid or sabotage on his
    guard (a player may)."""

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        target = self.g.engine.state.formations.get(use.target or "")
        if target is not None and target.hero == LIANG and self._infiltrator(f):
            return False
        return super().worth_using(f, use, enemies)

    def _infiltrator(self, f: Formation) -> bool:
        return "infiltrator" in self.g.engine.rules.units[f.type].abilities
