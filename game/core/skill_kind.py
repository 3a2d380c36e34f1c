"""What every skill effect kind is made of (README "How to play", a hero's skills).

A skill in skills.toml names its ``effect``; the kind of that name, a module of
``game.core.skill_kinds``, says which of the skill's fields it reads (its part of the data
model), checks them (content), refuses a use the rules do not allow and works the effect, names
the msgid the screens show for it (the mark it leaves or the reason a morale change gives), and
tells the computer general when a use pays (its hint). What the kinds share is here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from . import morale, vision
from .errors import IllegalAction
from .hexgrid import distance
from .rules import Ruleset, Skill
from .sides import are_enemies
from .skill_marks import EFFECT_NAMES, area_radius, friends_within

if TYPE_CHECKING:
    from .actions import UseSkill
    from .events import Event
    from .state import Formation
    from .table import Table

# (ids of the formations it worked on, whether it succeeded where it may fail, its events)
Outcome = tuple[list[str], bool | None, list["Event"]]


class Advisor(Protocol):
    """The general a hint advises: the game it plays, its side, and the one judgement a hint
    cannot make alone (which enemy a charge down a lane hurts most)."""

    @property
    def engine(self) -> Table: ...
    @property
    def side_id(self) -> str: ...
    def lane_target(self, f: Formation, skill_id: str) -> str | None: ...


def in_area(advisor: Advisor, f: Formation, use: UseSkill) -> list[Formation]:
    """The advisor's formations within the area of the skill ``f`` would use."""
    rules = advisor.engine.rules
    radius = area_radius(rules, f, rules.skills[use.skill])
    return [o for o in advisor.engine.state.formations_of(advisor.side_id) if distance(o.pos, f.pos) <= radius]


def until(table: Table, skill: Skill) -> int:
    """The turn at whose start, for the user's side, an effect laid now ends."""
    return table.state.turn + skill.duration


def enemy_target(table: Table, f: Formation, skill: Skill, action: UseSkill) -> Formation:
    """The enemy formation a use is aimed at, if the rules allow aiming it there."""
    if action.target is None or action.at is not None:
        raise IllegalAction("bad_target", f"{skill.id} is aimed at an enemy formation")
    target = table.formation(action.target)
    if not vision.sees_formation(table.state, table.board, table.rules, f.side, target):
        raise IllegalAction("unseen", f"{f.side} cannot see {target.id}")
    if not are_enemies(table.state, f.side, target.side):
        raise IllegalAction("not_an_enemy", f"{target.id} is not an enemy of {f.id}")
    if distance(f.pos, target.pos) > skill.range:
        raise IllegalAction("out_of_range", f"{target.id} is out of range of {skill.id}")
    return target


class SkillKind(ABC):
    """A skill effect kind, named after its module. ``passive`` kinds work on their own and are
    never used as orders."""

    name: ClassVar[str]
    # The fields of ``Skill`` this kind reads, beyond those every skill has.
    reads: ClassVar[tuple[str, ...]] = ()
    passive: ClassVar[bool] = False
    # The msgid the screens show for it: the mark it leaves, or the reason it gives.
    description: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.__module__.rsplit(".", 1)[1]

    def check(self, skill: Skill) -> list[tuple[str, str]]:
        """(field, message) for each thing wrong with a skill of this kind in skills.toml."""
        return []

    def allows(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
        """Raises IllegalAction for a use this kind refuses beyond what every skill checks."""
        return None  # most kinds ask nothing more

    def affected(self, table: Table, f: Formation, skill: Skill) -> list[Formation]:
        """The formations of the user's side a self, area or side-wide use works on."""
        state, rules = table.state, table.rules
        if skill.target == "self":
            pool = [f]
        elif skill.target == "ally_area":
            pool = friends_within(state, f, area_radius(rules, f, skill))
        elif skill.target == "none":
            pool = state.formations_of(f.side)
        else:
            return []
        return [o for o in pool if not o.routed and _touches(rules, skill, o)]

    def idle(self, table: Table, f: Formation, skill: Skill) -> bool:
        """An unaimed use with nothing to work on."""
        return skill.target in ("self", "ally_area", "none") and not self.affected(table, f, skill)

    @abstractmethod
    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        """Work a use ``check`` accepted."""

    @abstractmethod
    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        """Whether a plain general uses it now."""


def _touches(rules: Ruleset, skill: Skill, o: Formation) -> bool:
    if skill.affects and o.type not in skill.affects:
        return False
    return not skill.move_classes or rules.units[o.type].move_class in skill.move_classes


class Passive(SkillKind):
    """A skill that works on its own, through the rules that read it."""

    passive = True

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        raise IllegalAction("passive_skill", f"{skill.id} works by itself and cannot be used")

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return False


class Marker(SkillKind):
    """A skill that marks the formations it works on until it ends (and, with a ``reason``,
    changes their morale by the skill's ``morale``)."""

    mark: ClassVar[str]
    reason: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "description" not in cls.__dict__ and "mark" in cls.__dict__:
            cls.description = cls.reason or EFFECT_NAMES[cls.mark]

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        affected = self.affected(table, f, skill)
        events: list[Event] = []
        for o in affected:
            o.effects[self.mark] = until(table, skill)
            if self.reason:
                events += morale.change_morale(table.rules, o, skill.morale, self.reason)
        return [o.id for o in affected], None, events
