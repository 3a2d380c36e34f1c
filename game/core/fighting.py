"""One attack carried out, from setup to morale: the same setup the forecast showed, rolled with
the dice of the action being applied, then experience, fatigue, morale, skills and souls."""

from __future__ import annotations

from . import combat, morale, skills, souls, tallies, vision
from .events import Attacked, Event, SideJoined
from .fatigue import ATTACK_FATIGUE, DEFEND_FATIGUE, tire
from .rules import MAX_EXPERIENCE
from .state import Formation
from .table import Table


def resolve(
    table: Table, attacker: Formation, defender: Formation, mode: combat.Mode, spend_action: bool = True
) -> list[Event]:
    """``attacker`` strikes ``defender`` (checked already). Without ``spend_action`` (a blast's
    several targets) the attacker's action is not spent and routs are checked by the caller."""
    state, board, rules = table.state, table.board, table.rules
    events: list[Event] = []
    defender_side = state.side(defender.side)
    if defender_side.role == "neutral" and attacker.side not in defender_side.hostile_to:
        defender_side.hostile_to.append(attacker.side)
        events.append(SideJoined(side=defender_side.id, against=attacker.side))
    setup = combat.setup_attack(state, board, rules, attacker, defender, mode)
    attacker_losses, defender_losses = combat.roll_exchange(setup, table.rng())
    if spend_action:
        attacker.acted = True
        attacker.moved = True  # no moving after fighting
    if attacker.hidden:
        attacker.hidden = False
        events += vision.revealed(attacker)
    attacker.experience = min(MAX_EXPERIENCE, attacker.experience + 1)
    defender.experience = min(MAX_EXPERIENCE, defender.experience + 1)
    tire(rules, attacker, ATTACK_FATIGUE)
    tire(rules, defender, DEFEND_FATIGUE)
    events.append(
        Attacked(
            unit=attacker.id,
            target=defender.id,
            attacker_losses=attacker_losses,
            defender_losses=defender_losses,
            mode=mode,
            surprise=setup.surprise,
            pincer=setup.pincer,
            charge=setup.charge,
        )
    )
    events += morale.change_morale(rules, defender, -combat.defender_morale_loss(setup, defender_losses), "Losses")
    events += morale.change_morale(rules, attacker, -morale.loss_morale(attacker_losses, setup.attacker_men), "Losses")
    if defender_losses >= 2 * max(1, attacker_losses):
        events += morale.change_morale(rules, attacker, morale.VICTORY_MORALE, "Victory")
    elif attacker_losses > defender_losses:
        events += morale.change_morale(rules, defender, morale.VICTORY_MORALE, "Victory")
    events += skills.after_attack(table, attacker, defender, setup)
    tallies.credit_blows(table.scenario, state, attacker, defender, attacker_losses, defender_losses)
    events += souls.take_losses(state, defender, defender_losses)
    events += souls.take_losses(state, attacker, attacker_losses)
    if spend_action:
        events += morale.check_routs(state, rules)
    events += skills.after_combat(table, attacker, defender, events)
    return events
