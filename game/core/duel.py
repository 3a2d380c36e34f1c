"""Duels between heroes (单挑; README "How to play"): challenge, answer, and the fight.

A hero next to an enemy hero may challenge him; that spends the challenger's action and leaves
the game waiting for the challenged side's answer (``state.pending_duel``), which is an action
of its own so records replay. Refusing costs morale.

An accepted duel is a set piece over several turns while both armies watch. The heroes close at
once for the first exchange; after that, each side's hero fights the next exchange as his
formation's action (a ``Challenge`` of the opponent he is already fighting). An exchange is one
round: martial skill, a bonus for friends close round the duel less the men's weariness, and a
roll each; the better
score lands a blow, and when the scores are within ``CLASH`` of each other the heroes trade
blows and both land one. The first to land ``WINS_NEEDED`` blows wounds the other, and a close
fight (won by at most ``CLOSE`` blows) wounds both. A wounded hero leaves the field. A scenario
may fight its duels by numbers of its own for these two (its ``[duel]`` table, ``DuelRules``).

While they fight, the two formations are marked ``DUELLING`` (a formation effect, so a save needs
no new field; the blows each hero has landed are marks too): they cannot move or fight anyone else,
no one may strike them, and fighting within ``WATCH_RADIUS`` of them goes at half strength. A
duel that neither side presses for a whole turn, or whose hero is gone or routed, is broken off.
"""

from __future__ import annotations

from . import morale, vision
from .actions import Challenge
from .errors import IllegalAction
from .events import (
    DuelBegun,
    DuelBroken,
    DuelChallenged,
    DuelFought,
    DuelRefused,
    DuelRound,
    Event,
    HeroWounded,
    Narration,
)
from .hexgrid import distance, neighbours, ring_of_six
from .msgid import N_
from .rng import Rng
from .scenario import DuelRules
from .sides import are_allied, are_enemies
from .state import Formation, GameState, PendingDuel
from .table import Table
from .trigger_kinds.duel_refused import note_refusal

WINS_NEEDED = 4
# Each round a hero scores his martial skill, his support and a roll of 1..ROLL.
ROLL = 40
# The game's own rule, where a scenario sets none:
GAME_RULES = DuelRules()
# scores closer than this trade blows: both heroes land one (so close fights often wound both);
CLASH = GAME_RULES.clash
# a fight won by at most this many rounds leaves both heroes wounded.
CLOSE = GAME_RULES.close
# Support: each formed friend next to the opponent (pressing on him) adds this to a hero's score.
SUPPORT = 3
MAX_SUPPORTERS = 2
# A hero fights as tired as his men: a point off his score for every this much of their fatigue.
WEARINESS = 8
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

# The duel in progress, as formation effects (effect id -> the turn at whose start it lapses).
DUELLING = "duelling"
ROUND_WON = "duel_blow_"  # + 1 .. WINS_NEEDED - 1: the blows this hero has landed so far
# An exchange keeps the marks this many turns: a side that lets a whole turn pass breaks it off.
MARK_TURNS = 2
# Both armies watch: fighting this near a duellist goes at this percent of its strength.
WATCH_RADIUS = 2
WATCH_PERCENT = -50

HERO_WOUNDED = N_("Our hero wounded")
HERO_WOUNDED_NEARBY = N_("A hero wounded nearby")
DUEL_WON = N_("Duel won")
DUEL_WON_NEARBY = N_("Our hero won a duel")
REFUSED = N_("Refused a duel")
UNANSWERED = N_("Challenge unanswered")
WATCHING = N_("Watching the duel")
# Told as the last turn ends on a duel a scenario fights out.
DUSK = N_("Dusk falls on the two of them still fighting. Neither army will part them: the duel is fought to its end.")


# -- wounds -------------------------------------------------------------------------------------


def wound_hero(engine: Table, f: Formation, own_delta: int, area_delta: int, radius: int, reason: str) -> list[Event]:
    """The hero of ``f`` is carried from the field: he leaves the formation for good, it and
    his side's formations within ``radius`` lose heart."""
    state, rules = engine.state, engine.rules
    hero = f.hero
    assert hero is not None
    f.hero = None
    _unmark(f)
    if hero not in state.wounded_heroes:
        state.wounded_heroes.append(hero)
    events: list[Event] = [HeroWounded(hero=hero, unit=f.id, side=f.side)]
    events += morale.change_morale(rules, f, own_delta, reason)
    for o in state.formations_of(f.side):
        if o.id != f.id and distance(o.pos, f.pos) <= radius:
            events += morale.change_morale(rules, o, area_delta, HERO_WOUNDED_NEARBY)
    return events


def _hearten(engine: Table, f: Formation, own_delta: int, area_delta: int) -> list[Event]:
    rules = engine.rules
    events = morale.change_morale(rules, f, own_delta, DUEL_WON)
    for o in engine.state.formations_of(f.side):
        if o.id != f.id and not o.routed and distance(o.pos, f.pos) <= RADIUS:
            events += morale.change_morale(rules, o, area_delta, DUEL_WON_NEARBY)
    return events


# -- the duel in progress -----------------------------------------------------------------------


def in_duel(f: Formation) -> bool:
    return DUELLING in f.effects


def opponent(state: GameState, f: Formation) -> Formation | None:
    """The enemy hero ``f``'s hero is fighting now: next to it, marked, both heroes present."""
    if not in_duel(f) or f.hero is None:
        return None
    around = set(neighbours(f.pos))
    for o in (state.formations[k] for k in sorted(state.formations)):
        if o.pos in around and in_duel(o) and o.hero is not None and are_enemies(state, f.side, o.side):
            return o
    return None


def rounds_won(f: Formation) -> int:
    return sum(1 for k in f.effects if k.startswith(ROUND_WON))


def _mark(state: GameState, f: Formation, won: int) -> None:
    _unmark(f)
    until = state.turn + MARK_TURNS
    f.effects[DUELLING] = until
    for i in range(1, won + 1):
        f.effects[f"{ROUND_WON}{i}"] = until


def _unmark(f: Formation) -> None:
    for k in [k for k in f.effects if k == DUELLING or k.startswith(ROUND_WON)]:
        del f.effects[k]


def support(state: GameState, f: Formation, opp: Formation) -> int:
    """What ``f``'s friends close round the duel add to its hero's score: formed, unrouted
    formations of its side (or allies) next to either hero, ``f`` itself not counted. Those next
    to the opponent press on him; those next to their own hero guard his back."""
    around = set(neighbours(opp.pos)) | set(neighbours(f.pos))
    friends = [
        o
        for o in state.formations.values()
        if o.id != f.id and o.pos in around and not o.routed and are_allied(state, o.side, f.side)
    ]
    return SUPPORT * min(MAX_SUPPORTERS, len(friends))


def edge(state: GameState, f: Formation, opp: Formation) -> int:
    """What the field adds to ``f``'s hero's score against ``opp``: his friends' support, less
    his men's weariness."""
    return support(state, f, opp) - f.fatigue // WEARINESS


def watching(state: GameState, *formations: Formation) -> bool:
    """Whether a fight between these formations is watched by both armies: a duel goes on within
    ``WATCH_RADIUS`` of one of them."""
    duellists = [o.pos for o in state.formations.values() if DUELLING in o.effects]  # in_duel, for every blow weighed
    return any(distance(f.pos, d) <= WATCH_RADIUS for f in formations for d in duellists)


def check_not_duelling(attacker: Formation, defender: Formation) -> None:
    """Nobody strikes a hero in single combat, and a duellist's men fight no one else."""
    for f in (attacker, defender):
        if in_duel(f):
            raise IllegalAction("duelling", f"{f.id} is in single combat")


def start_of_turn(engine: Table, side_id: str) -> list[Event]:
    """Duels that have lapsed (a side let a whole turn go by), or whose hero is gone, routed or
    no longer face to face with his opponent, are broken off."""
    state = engine.state
    events: list[Event] = []
    for f in [state.formations[k] for k in sorted(state.formations)]:
        if not in_duel(f):
            continue
        opp = opponent(state, f)
        if opp is not None and not f.routed and not opp.routed:
            continue
        _unmark(f)
        if opp is not None:
            _unmark(opp)
        events.append(DuelBroken(unit=f.id, opponent=opp.id if opp is not None else None))
    return events


def fight_out(engine: Table) -> list[Event]:
    """At the end of the last turn, in a scenario whose duels are ``fought_out``: every duel
    still under way is fought exchange by exchange to its end, the heroes pressing in turn (the
    one whose side moves first, first)."""
    if not engine.scenario.duel.fought_out:
        return []
    state = engine.state
    order = {s.id: i for i, s in enumerate(state.sides)}
    rng = engine.rng()
    events: list[Event] = []
    for f in sorted(state.formations.values(), key=lambda x: (order.get(x.side, 0), x.id)):
        opp = opponent(state, f)
        if opp is None or f.routed or opp.routed:
            continue
        if not events:
            events.append(Narration(text=DUSK))
        presser, other = f, opp
        while in_duel(presser) and presser.hero is not None and other.hero is not None:
            events += _exchange(engine, presser, other, rng)
            presser, other = other, presser
    return events


# -- challenge ----------------------------------------------------------------------------------


def check_challenge(engine: Table, challenger: Formation, target: Formation) -> None:
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
    facing = opponent(state, challenger)
    if in_duel(challenger) and (facing is None or facing.id != target.id):
        raise IllegalAction("in_duel", f"{challenger.id}'s hero is fighting another duel")
    if in_duel(target) and opponent(state, target) is not challenger:
        raise IllegalAction("target_in_duel", f"{target.id}'s hero is fighting another duel")


def challenge(engine: Table, challenger: Formation, target: Formation) -> list[Event]:
    """A new challenge waits for its answer; against the opponent already faced, it is the
    next exchange of the duel."""
    if in_duel(challenger):
        return _exchange(engine, challenger, target)
    challenger.acted = True
    challenger.moved = True
    engine.state.pending_duel = PendingDuel(challenger=challenger.id, target=target.id)
    return [DuelChallenged(challenger=challenger.id, target=target.id)]


def legal_challenges(engine: Table, unit_id: str) -> list[Challenge]:
    """Every Challenge action the formation's hero could issue now (in a duel: the next exchange)."""
    state = engine.state
    f = state.formations.get(unit_id)
    if f is None or f.hero is None or not engine.can_act(f):
        return []
    out = []
    around = ring_of_six(f.pos)
    for target in sorted((t for t in state.formations.values() if t.pos in around), key=lambda t: t.id):
        if not vision.sees_neighbour(state, engine.board, engine.rules, f, target):
            continue
        try:
            check_challenge(engine, f, target)
        except IllegalAction:
            continue
        out.append(Challenge(unit=f.id, target=target.id))
    return out


# -- the fight ----------------------------------------------------------------------------------


def round_winner(score: int, other: int, duel_rules: DuelRules = GAME_RULES) -> int:
    """1 if ``score`` lands a blow, -1 if ``other`` does, 0 when they trade blows (both land one)."""
    if score - other >= duel_rules.clash:
        return 1
    if other - score >= duel_rules.clash:
        return -1
    return 0


def roll_round(rng: Rng, martial: int, other_martial: int, bonus: int = 0, other_bonus: int = 0) -> DuelRound:
    """One exchange's scores: the presser's roll first, then his opponent's."""
    score = martial + bonus + rng.randint(1, ROLL)
    other = other_martial + other_bonus + rng.randint(1, ROLL)
    return DuelRound(challenger_score=score, target_score=other)


def ending(won: int, other_won: int, duel_rules: DuelRules = GAME_RULES) -> int | None:
    """None while the duel goes on; else 0 (the first wounds the other), 1 (both wounded: a
    close fight) or 2 (the other wounds the first)."""
    if max(won, other_won) < WINS_NEEDED:
        return None
    if won - other_won > duel_rules.close:
        return 0
    if other_won - won > duel_rules.close:
        return 2
    return 1


def fight(
    rng: Rng,
    challenger_martial: int,
    target_martial: int,
    challenger_bonus: int = 0,
    target_bonus: int = 0,
    duel_rules: DuelRules = GAME_RULES,
) -> tuple[list[DuelRound], int, int]:
    """A whole duel at once, exchange by exchange as the game rolls them (for tests and odds):
    the rounds and the rounds won by each hero."""
    rounds: list[DuelRound] = []
    won_c = won_t = 0
    while ending(won_c, won_t, duel_rules) is None:
        r = roll_round(rng, challenger_martial, target_martial, challenger_bonus, target_bonus)
        rounds.append(r)
        blow = round_winner(r.challenger_score, r.target_score, duel_rules)
        won_c += blow >= 0
        won_t += blow <= 0
    return rounds, won_c, won_t


def duel_odds(
    challenger_martial: int,
    target_martial: int,
    challenger_bonus: int = 0,
    target_bonus: int = 0,
    won: tuple[int, int] = (0, 0),
    duel_rules: DuelRules = GAME_RULES,
) -> tuple[float, float, float]:
    """The exact chances of a duel's three ends, as ``fight`` and the exchanges decide them, from
    the blows ``won`` so far with the support as it stands: the challenger wounds the target,
    both are wounded, the target wounds the challenger."""
    counts = {1: 0, 0: 0, -1: 0}
    for c in range(1, ROLL + 1):
        for t in range(1, ROLL + 1):
            score, other = challenger_martial + challenger_bonus + c, target_martial + target_bonus + t
            counts[round_winner(score, other, duel_rules)] += 1
    steps = [((1, 0), counts[1] / ROLL**2), ((0, 1), counts[-1] / ROLL**2), ((1, 1), counts[0] / ROLL**2)]
    ends = [0.0, 0.0, 0.0]
    paths: dict[tuple[int, int], float] = {won: 1.0}
    while paths:
        nxt: dict[tuple[int, int], float] = {}
        for (wc, wt), p in paths.items():
            end = ending(wc, wt, duel_rules)
            if end is not None:
                ends[end] += p
                continue
            for (dc, dt), q in steps:
                key = (wc + dc, wt + dt)
                nxt[key] = nxt.get(key, 0.0) + p * q
        paths = nxt
    return ends[0], ends[1], ends[2]


def current_odds(engine: Table, f: Formation, opp: Formation) -> tuple[float, float, float]:
    """The odds of the duel ``f`` fights or would fight with ``opp``, as things stand: its
    blows landed, both sides' support and weariness, the battle's rule (``f`` as the challenger)."""
    rules, state = engine.rules, engine.state
    assert f.hero is not None and opp.hero is not None
    won = (rounds_won(f), rounds_won(opp)) if opponent(state, f) is opp else (0, 0)
    return duel_odds(
        rules.heroes[f.hero].martial,
        rules.heroes[opp.hero].martial,
        edge(state, f, opp),
        edge(state, opp, f),
        won,
        engine.scenario.duel,
    )


def answer(engine: Table, accept: bool) -> list[Event]:
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
    _mark(state, challenger, 0)
    _mark(state, target, 0)
    begun = DuelBegun(challenger=challenger.id, target=target.id)
    return [begun, *_exchange(engine, challenger, target)]


def _refuse(engine: Table, challenger: Formation, target: Formation) -> list[Event]:
    rules = engine.rules
    events: list[Event] = [DuelRefused(challenger=challenger.id, target=target.id)]
    note_refusal(engine, target, challenger)
    events += morale.change_morale(rules, target, REFUSE_MORALE, REFUSED)
    events += morale.change_morale(rules, challenger, CHALLENGER_MORALE, UNANSWERED)
    return events + morale.check_routs(engine.state, rules)


def _exchange(engine: Table, f: Formation, opp: Formation, rng: Rng | None = None) -> list[Event]:
    """One exchange, pressed by ``f``'s hero: a round, the marks kept up, and the end of the
    duel if a hero has won enough rounds. ``rng``: the stream to roll on, where one action
    fights several exchanges (the action's own, by default)."""
    state, rules = engine.state, engine.rules
    hero, other = f.hero, opp.hero
    assert hero is not None and other is not None
    f.acted = True
    f.moved = True
    r = roll_round(
        rng or engine.rng(),
        rules.heroes[hero].martial,
        rules.heroes[other].martial,
        edge(state, f, opp),
        edge(state, opp, f),
    )
    blow = round_winner(r.challenger_score, r.target_score, engine.scenario.duel)
    won, other_won = rounds_won(f) + (blow >= 0), rounds_won(opp) + (blow <= 0)
    end = ending(won, other_won, engine.scenario.duel)
    losers = [] if end is None else [[opp], [f, opp], [f]][end]
    fought = DuelFought(
        challenger=f.id,
        target=opp.id,
        challenger_hero=hero,
        target_hero=other,
        rounds=(r,),
        wounded=tuple(x.hero for x in losers if x.hero is not None),
        tally=(won, other_won),
        goes_on=end is None,
    )
    events: list[Event] = [fought]
    if end is None:
        _mark(state, f, won)
        _mark(state, opp, other_won)
        return events
    _unmark(f)
    _unmark(opp)
    winner = {0: f, 2: opp}.get(end)
    for x in losers:
        if winner is None:
            events += wound_hero(engine, x, BOTH_WOUNDED_MORALE, BOTH_WOUNDED_SIDE_MORALE, RADIUS, HERO_WOUNDED)
        else:
            events += wound_hero(engine, x, LOSER_MORALE, LOSER_SIDE_MORALE, RADIUS, HERO_WOUNDED)
    if winner is not None:
        events += _hearten(engine, winner, WINNER_MORALE, WINNER_SIDE_MORALE)
    return events + morale.check_routs(state, rules)
