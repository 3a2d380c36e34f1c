"""Why an order was refused, in the player's words: the engine's reason codes told with the
formations' display names (the engine's own message names ids and is for logs and tests)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..core.errors import IllegalAction
from ..i18n import N_, _

# Reason code -> what the player reads; ``{u}`` is the formation given the order.
REFUSALS: dict[str, str] = {
    "already_moved": N_("{u} has already moved this turn."),
    "already_acted": N_("{u} has already acted this turn."),
    "halted": N_("{u} is halted and cannot move this turn."),
    "held": N_("{u} holds its position until ordered."),
    "routed": N_("{u} is routed and obeys no orders."),
    "too_tired": N_("{u} is too tired to force-march."),
    "unreachable": N_("{u} cannot reach that hex this turn."),
    "off_map": N_("That hex is off the map."),
    "not_adjacent": N_("The target is not next to {u}."),
    "out_of_range": N_("The target is out of range of {u}."),
    "unseen": N_("Your side cannot see that target."),
    "not_an_enemy": N_("That is not an enemy of {u}."),
    "cannot_attack": N_("{u} cannot fight formed troops."),
    "fortress": N_("{u} cannot assault a fortress."),
    "charging": N_("{u} has left its bows to charge downhill."),
    "cannot_capture": N_("{u} cannot capture souls."),
    "no_souls": N_("There are no enemy souls within reach of {u}."),
    "no_missiles": N_("{u} has no missiles."),
    "no_ammo": N_("{u} has shot all its missiles."),
    "no_area_weapon": N_("{u} has no palm thunder."),
    "no_charges": N_("{u} has no palm thunder left."),
    "no_target": N_("No enemy in sight stands where the blast would fall."),
    "cooldown": N_("{u} cannot use that again yet."),
    "no_effect": N_("That would do nothing now."),
    "wrong_ground": N_("{u} does not stand on the ground that order needs."),
    "no_relief": N_("No enemy below {u} is engaged by its relief."),
    "duelling": N_("{u} is in single combat."),
    "in_duel": N_("That hero is in single combat."),
    "target_in_duel": N_("That hero is in single combat."),
    "target_routed": N_("That formation is routed; its hero is in no state to answer."),
    "target_no_hero": N_("That formation has no hero to challenge."),
    "no_hero": N_("{u} has no hero."),
    "no_duel": N_("No single combat is being fought."),
    "duel_pending": N_("A challenge to single combat awaits its answer."),
    "game_over": N_("The battle is over."),
    "not_your_unit": N_("That formation is not yours to command."),
}


def refusal_text(exc: IllegalAction, unit: str | None, names: Mapping[str, str]) -> str:
    """The line the player reads when an order of ``unit`` was refused. A reason without its
    own words falls back on the engine's message with every formation id replaced by its name."""
    who = names.get(unit, unit) if unit else ""
    words = REFUSALS.get(exc.reason)
    if words is not None and (who or "{u}" not in words):
        reason = _(words).format(u=who)
    else:
        reason = re.sub(r"[A-Za-z0-9_]+", lambda m: names.get(m.group(0), m.group(0)), exc.message)
    return _("Not allowed: {reason}").format(reason=reason)
