"""Duels between heroes (单挑, DESIGN §3 "Duels"): challenge, answer, and the fight.

A hero next to an enemy hero may challenge him; that spends the challenger's action and leaves
the game waiting for the challenged side's answer (``state.pending_duel``), which is an action
of its own so records replay. Refusing costs morale. An accepted duel is fought in rounds of
martial skill plus a roll: the first to win ``WINS_NEEDED`` rounds (or the better after
``ROUNDS``) wounds the other, and a close fight wounds both. A wounded hero leaves the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import morale, vision
from .actions import Challenge
from .errors import IllegalAction
from .events import DuelChallenged, DuelFought, DuelRefused, DuelRound, Event, HeroWounded
from .hexgrid import distance
from .rng import Rng
from .sides import are_enemies
from .state import Formation, PendingDuel

if TYPE_CHECKING:
    from .engine import Engine


def N_(message: str) -> str:
    """Marks an English msgid for extraction; the UI translates it when it shows it."""
    return message


ROUNDS = 5
WINS_NEEDED = 3
# Each round a hero scores his martial skill plus a roll of 1..ROLL.
ROLL = 40
# A fight won by at most this many rounds leaves both heroes wounded.
CLOSE = 1
# Morale: the wounded hero's own formation, his side's formations within RADIUS; the winner's.
LOSER_MORALE = -25
LOSER_SIDE_MORALE = -10
WINNER_MORALE = 15
WINNER_SIDE_MORALE = 5
BOTH_WOUNDED_MORALE = -15
BOTH_WOUNDED_SIDE_MORALE = -5
RADIUS = 3
# Refusing a challenge shames the refusing formation and heartens the challenger.
REFUSE_MORALE = -15
CHALLENGER_MORALE = 5

HERO_WOUNDED = N_("Our hero wounded")
HERO_WOUNDED_NEARBY = N_("A hero wounded nearby")
DUEL_WON = N_("Duel won")
DUEL_WON_NEARBY = N_("Our hero won a duel")
REFUSED = N_("Refused a duel")
UNANSWERED = N_("Challenge unanswered")


# -- wounds -------------------------------------------------------------------------------------


def wound_hero(engine: Engine, f: Formation, own_delta: int, area_delta: int, radius: int, reason: str) -> list[Event]:
    """The hero of ``f`` is carried from the field: he leaves the formation for good, it and
    his side's formations within ``radius`` lose heart."""
    state, rules = engine.state, engine.rules
    hero = f.hero
    assert hero is not None
    f.hero = None
    if hero not in state.wounded_heroes:
        state.wounded_heroes.append(hero)
    events: list[Event] = [HeroWounded(hero=hero, unit=f.id, side=f.side)]
    events += morale.change_morale(rules, f, own_delta, reason)
    for o in state.formations_of(f.side):
        if o.id != f.id and distance(o.pos, f.pos) <= radius:
            events += morale.change_morale(rules, o, area_delta, HERO_WOUNDED_NEARBY)
    return events


def _hearten(engine: Engine, f: Formation, own_delta: int, area_delta: int) -> list[Event]:
    rules = engine.rules
    events = morale.change_morale(rules, f, own_delta, DUEL_WON)
    for o in engine.state.formations_of(f.side):
        if o.id != f.id and not o.routed and distance(o.pos, f.pos) <= RADIUS:
            events += morale.change_morale(rules, o, area_delta, DUEL_WON_NEARBY)
    return events


# -- challenge ----------------------------------------------------------------------------------


def check_challenge(engine: Engine, challenger: Formation, target: Formation) -> None:
    """Beyond the challenger being ready to act and seeing the target (the engine checks those)."""
    state = engine.state
    if challenger.hero is None:
        raise IllegalAction("no_hero", f"{challenger.id} has no hero to issue a challenge")
    if target.hero is None:
        raise IllegalAction("target_no_hero", f"{target.id} has no hero to challenge")
    if not are_enemies(state, challenger.side, target.side):
        raise IllegalAction("not_an_enemy", f"{target.id} is not an enemy of {challenger.id}")
    if distance(challenger.pos, target.pos) != 1:
        raise IllegalAction("not_adjacent", f"{target.id} is not next to {challenger.id}")
    if target.routed:
        raise IllegalAction("target_routed", f"{target.id} is routed; its hero is in no state to answer")


def challenge(engine: Engine, challenger: Formation, target: Formation) -> list[Event]:
    challenger.acted = True
    challenger.moved = True
    engine.state.pending_duel = PendingDuel(challenger=challenger.id, target=target.id)
    return [DuelChallenged(challenger=challenger.id, target=target.id)]


def legal_challenges(engine: Engine, unit_id: str) -> list[Challenge]:
    """Every Challenge action the formation's hero could issue now."""
    state = engine.state
    f = state.formations.get(unit_id)
    if f is None or f.hero is None or not engine.can_act(f):
        return []
    out = []
    for target in (state.formations[k] for k in sorted(state.formations)):
        if target.id == f.id or distance(target.pos, f.pos) != 1:
            continue
        if not vision.sees_formation(state, engine.board, engine.rules, f.side, target):
            continue
        try:
            check_challenge(engine, f, target)
        except IllegalAction:
            continue
        out.append(Challenge(unit=f.id, target=target.id))
    return out


# -- the fight ----------------------------------------------------------------------------------


def fight(rng: Rng, challenger_martial: int, target_martial: int) -> tuple[list[DuelRound], int, int]:
    """The rounds and the rounds won by each hero. Draws: the challenger's roll, then the target's,
    round by round."""
    rounds: list[DuelRound] = []
    won_c = won_t = 0
    while len(rounds) < ROUNDS and max(won_c, won_t) < WINS_NEEDED:
        c = challenger_martial + rng.randint(1, ROLL)
        t = target_martial + rng.randint(1, ROLL)
        rounds.append(DuelRound(challenger_score=c, target_score=t))
        if c > t:
            won_c += 1
        elif t > c:
            won_t += 1
    return rounds, won_c, won_t


def duel_odds(challenger_martial: int, target_martial: int) -> tuple[float, float, float]:
    """The exact chances of a duel's three ends, as ``fight`` and ``_duel`` decide them: the
    challenger wounds the target, both are wounded, the target wounds the challenger."""
    c_wins = t_wins = 0
    for c in range(1, ROLL + 1):
        for t in range(1, ROLL + 1):
            score_c, score_t = challenger_martial + c, target_martial + t
            c_wins += score_c > score_t
            t_wins += score_t > score_c
    p_c, p_t = c_wins / ROLL**2, t_wins / ROLL**2
    p_tie = 1.0 - p_c - p_t
    # Walk every way the rounds can fall: (rounds fought, won by challenger, won by target).
    ends = [0.0, 0.0, 0.0]
    paths: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    while paths:
        nxt: dict[tuple[int, int, int], float] = {}
        for (played, wc, wt), p in paths.items():
            if played == ROUNDS or max(wc, wt) >= WINS_NEEDED:
                ends[0 if wc - wt > CLOSE else 2 if wt - wc > CLOSE else 1] += p
                continue
            for step, q in (((1, 0), p_c), ((0, 1), p_t), ((0, 0), p_tie)):
                key = (played + 1, wc + step[0], wt + step[1])
                nxt[key] = nxt.get(key, 0.0) + p * q
        paths = nxt
    return ends[0], ends[1], ends[2]


def answer(engine: Engine, accept: bool) -> list[Event]:
    state = engine.state
    pending = state.pending_duel
    assert pending is not None
    state.pending_duel = None
    challenger = state.formations.get(pending.challenger)
    target = state.formations.get(pending.target)
    if challenger is None or target is None or challenger.hero is None or target.hero is None:
        return []  # the challenge lapsed: one of them is gone
    if not accept:
        return _refuse(engine, challenger, target)
    return _duel(engine, challenger, target)


def _refuse(engine: Engine, challenger: Formation, target: Formation) -> list[Event]:
    rules = engine.rules
    events: list[Event] = [DuelRefused(challenger=challenger.id, target=target.id)]
    events += morale.change_morale(rules, target, REFUSE_MORALE, REFUSED)
    events += morale.change_morale(rules, challenger, CHALLENGER_MORALE, UNANSWERED)
    return events + morale.check_routs(engine.state, rules)


def _duel(engine: Engine, challenger: Formation, target: Formation) -> list[Event]:
    rules = engine.rules
    c_hero, t_hero = challenger.hero, target.hero
    assert c_hero is not None and t_hero is not None
    rounds, won_c, won_t = fight(engine.rng(), rules.heroes[c_hero].martial, rules.heroes[t_hero].martial)
    if abs(won_c - won_t) <= CLOSE:
        losers, winner = [challenger, target], None
    elif won_c > won_t:
        losers, winner = [target], challenger
    else:
        losers, winner = [challenger], target
    fought = DuelFought(
        challenger=challenger.id,
        target=target.id,
        challenger_hero=c_hero,
        target_hero=t_hero,
        rounds=tuple(rounds),
        wounded=tuple(f.hero for f in losers if f.hero is not None),
    )
    events: list[Event] = [fought]
    for f in losers:
        if winner is None:
            events += wound_hero(engine, f, BOTH_WOUNDED_MORALE, BOTH_WOUNDED_SIDE_MORALE, RADIUS, HERO_WOUNDED)
        else:
            events += wound_hero(engine, f, LOSER_MORALE, LOSER_SIDE_MORALE, RADIUS, HERO_WOUNDED)
    if winner is not None:
        events += _hearten(engine, winner, WINNER_MORALE, WINNER_SIDE_MORALE)
    return events + morale.check_routs(engine.state, rules)
