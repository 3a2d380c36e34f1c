"""History and this battle side by side: for each set piece of the chronicle, what the story says
happened and what happened here (the turn, who, how many), in the reader's language.

Pure: no pygame. The screens lay the lines out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..chronicle.spec import Happened, SetPiece, Survives
from ..chronicle.watch import Occurrence
from ..core.rules import Ruleset
from ..i18n import _, format_men, ngettext, sentences
from .names import hero_name


@dataclass(frozen=True)
class Comparison:
    title: str
    history: str  # what the chronicle says, translated
    battle: str  # what happened in this battle
    came: bool


def _who(rules: Ruleset, names: dict[str, str], who: str | None) -> str | None:
    if who is None:
        return None
    if who in names:
        return names[who]
    return hero_name(rules, who) if who in rules.heroes else None


def _battle_line(piece: SetPiece, came: Occurrence | None, rules: Ruleset, names: dict[str, str]) -> str:
    if came is None:
        if isinstance(piece.when, Survives):
            return _("In this battle: they did not last to the end.")
        return _("In this battle: it did not happen.")
    sign = piece.when
    if isinstance(sign, Survives):
        return _("In this battle: still {men} men strong when it ended, on turn {turn}.").format(
            men=format_men(came.count or 0), turn=came.turn
        )
    who = _who(rules, names, came.who)
    line = (
        _("In this battle: on turn {turn}, by {who}.").format(turn=came.turn, who=who)
        if who
        else _("In this battle: on turn {turn}.").format(turn=came.turn)
    )
    if isinstance(sign, Happened) and came.count:
        if sign.counting == "formations":
            many = ngettext("{n} formation struck.", "{n} formations struck.", came.count).format(n=came.count)
        else:
            many = _("{men} men.").format(men=format_men(came.count))
        line = sentences(line, many)
    return line


def compare(
    report: Sequence[tuple[SetPiece, Occurrence | None]], rules: Ruleset, names: dict[str, str]
) -> list[Comparison]:
    """The chronicle beside this battle, set piece by set piece; ``names`` are the battle's
    formation names (``formation_names``)."""
    return [
        Comparison(_(piece.title), _(piece.history), _battle_line(piece, came, rules, names), came is not None)
        for piece, came in report
    ]
