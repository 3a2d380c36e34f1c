"""Where the enemy can strike next turn: the threat a side's view shows is exactly what the
engine would let its enemies in sight attack, and an enemy it does not see adds nothing."""

from __future__ import annotations

from conftest import EngineFactory, Unit, loaded_for, make_scenario

from game.core import vision
from game.core.actions import Blast, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.errors import IllegalAction
from game.core.hexgrid import Hex, distance, neighbours
from game.core.legal import legal_actions
from game.core.rules import Ruleset
from game.core.state import Formation, copy_state
from game.record.match import Match
from game.view.side_view import SideView
from game.view.threat import strike_reach, threat_map

# b sees the whole field and a sees all of b (decapitation squads on hills are their eyes), so
# no move can stop short on something it did not see. The ground costs: a fortress, hills, a
# marsh, a river with a ford, a mountain, a road; a's line at column 7 holds a zone of control.
FIELD = (
    "..........~~d~~.",
    "..F.............",
    "...........h....",
    "..x.h..M........",
    ".=====..........",
    "................",
    "................",
)
UNITS = [
    Unit("a_fort", "a", "han_soldier", 2000, (2, 1)),  # in the fortress: no storming it without siege
    Unit("a_north", "a", "han_soldier", 2000, (7, 2)),
    Unit("a_south", "a", "han_soldier", 2000, (7, 4)),
    Unit("a_eyes", "a", "decapitation_squad", 13, (11, 2)),
    Unit("b_bow", "b", "crossbowman", 1500, (12, 3)),  # missiles (range 2) and palm thunder
    Unit("b_vet", "b", "jurchen_veteran", 2000, (13, 5)),
    Unit("b_horse", "b", "zhenguo_rider", 800, (14, 1)),
    Unit("b_eyes", "b", "decapitation_squad", 13, (4, 3)),  # fights no formed troops: reaches nothing
]
SIDES = (("a", "yuqing", "player"), ("b", "zhenguo", "enemy"))


def probe(at: Hex) -> Formation:
    return Formation(id="probe", side="a", type="retainer", men=100, max_men=100, morale=60, pos=at)


def strikes(eng: Engine, unit: str, target: str) -> bool:
    """Whether ``unit`` may now attack, shoot at or blast ``target``, as the engine rules."""
    if target in eng.attack_targets(unit) or target in eng.fire_targets(unit):
        return True
    at = eng.state.formations[target].pos
    for aim in (at, *neighbours(at)):
        trial = Engine(eng.scenario, eng.rules, eng.seed, eng.settings, state=copy_state(eng.state))
        try:
            trial.apply(Blast(unit=unit, at=aim))
        except IllegalAction:
            continue
        return True
    return False


def brute_force(eng: Engine, unit: str, reach: int) -> frozenset[Hex]:
    """Every hex where a formation of side a would be struck by ``unit`` in b's next turn: put
    one there (unless a's own stands there), end a's turn, and try every move b's legal
    actions offer, then every attack on it."""
    out = set()
    for h in eng.board.hexes():
        occupant = eng.state.formation_at(h)
        if occupant is not None and occupant.side != "a":
            continue
        state = copy_state(eng.state)
        if occupant is None:
            state.formations["probe"] = probe(h)
        target = "probe" if occupant is None else occupant.id
        trial = Engine(eng.scenario, eng.rules, eng.seed, eng.settings, state=state)
        trial.apply(EndTurn())
        mover = trial.state.formations[unit]
        start = mover.pos
        stands = {start} | {
            Hex(*a.to) for a in legal_actions(trial, forced_marches=True) if isinstance(a, Move) and a.unit == unit
        }
        for at in sorted(stands):
            if distance(at, h) > reach:
                continue  # nothing strikes that far: spare the engine the asking
            mover.pos = at  # no walk can stop short here: b sees the whole field
            if strikes(trial, unit, target):
                out.add(h)
                break
        mover.pos = start
    return frozenset(out)


def field(small_engine: EngineFactory) -> Engine:
    eng = small_engine(FIELD, UNITS, sides=SIDES)
    state = eng.state
    # Worn out: the riders stood still and get their breath back for a forced march; the
    # veterans marched and do not.
    state.formations["b_horse"].fatigue = 90
    vet = state.formations["b_vet"]
    vet.fatigue, vet.moved = 90, True
    return eng


def test_the_threat_covers_exactly_what_the_engine_lets_the_enemy_attack(small_engine: EngineFactory) -> None:
    eng = field(small_engine)
    board = eng.board
    assert vision.visible_hexes(eng.state, board, eng.rules, "b") == frozenset(board.hexes())
    view = SideView(eng.state, board, eng.rules, "a")
    assert view.seen_ids == set(eng.state.formations)
    threat = view.threat
    union: set[Hex] = set()
    for unit, reach in (("b_bow", 3), ("b_vet", 1), ("b_horse", 1), ("b_eyes", 1)):
        expected = brute_force(eng, unit, reach)
        assert threat.of(unit) == expected, unit
        assert view.enemy_reach(unit) == expected
        union |= expected
    assert threat.hexes == union
    assert set(threat.reach) == {"b_bow", "b_vet", "b_horse"}  # the squad cannot fight a line
    # Not a trivial case: ground far behind a's line is safe, and the fortress holds against
    # all but missiles and thunder.
    assert len(union) < len(list(board.hexes())) - 20
    fort = eng.state.formations["a_fort"].pos
    assert fort not in threat.of("b_vet") and fort not in threat.of("b_horse")
    line = eng.state.formations["a_north"].pos
    assert threat.attackers(line) == sorted(k for k in threat.reach if line in threat.of(k))


def test_a_zone_of_control_holds_the_enemy_back(small_engine: EngineFactory) -> None:
    eng = field(small_engine)
    held = SideView(eng.state, eng.board, eng.rules, "a").threat
    for unit in ("a_north", "a_south"):
        del eng.state.formations[unit]
    free = SideView(eng.state, eng.board, eng.rules, "a").threat
    assert held.of("b_horse") < free.of("b_horse")


def test_only_what_may_still_strike_reaches(small_engine: EngineFactory, rules: Ruleset) -> None:
    eng = field(small_engine)
    state, board = eng.state, eng.board
    bow = state.formations["b_bow"]
    full = strike_reach(state, board, rules, bow, "a")
    bow.ammo, bow.charges = 0, 0
    hand = strike_reach(state, board, rules, bow, "a")
    assert hand < full  # out of missiles and thunder it strikes only next door
    assert all(any(distance(h, p) == 1 for p in _stands(eng, "b_bow")) for h in hand)
    bow.routed = True
    assert strike_reach(state, board, rules, bow, "a") == frozenset()
    assert strike_reach(state, board, rules, state.formations["a_north"], "a") == frozenset()  # not an enemy
    assert "a_north" not in threat_map(state, board, rules, "a").reach


def _stands(eng: Engine, unit: str) -> set[Hex]:
    f = eng.state.formations[unit]
    moves = vision.search_moves_seen(eng.state, eng.board, eng.rules, f, forced=True)
    return {f.pos} | set(moves.destinations)


# -- what a side does not see ------------------------------------------------------------------

# Three rows: a's men in the middle close the strip to the levy east of them.
STRIP = (".......f................", "........................", "........................")
FOG_UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (10, 1)),
    Unit("b_levy", "b", "soul_levy", 4000, (13, 2)),
    # Lying in ambush in the wood west of a, in its sight but not next to it: a cannot see it.
    Unit("b_hidden", "b", "ambush_host", 3000, (7, 0), hidden=True),
]


def test_an_enemy_the_side_does_not_see_adds_nothing_to_its_threat(rules: Ruleset) -> None:
    scenario = make_scenario(rules, STRIP, FOG_UNITS, turn_limit=5)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "human"})
    state, board = match.state, scenario.board
    a_view = SideView(state, board, rules, "a")
    assert "b_hidden" not in a_view.seen_ids and "b_levy" in a_view.seen_ids
    assert a_view.enemy_reach("b_hidden") == frozenset()
    assert set(a_view.threat.reach) == {"b_levy"}
    # Everything known, the ambush host would add ground of its own: that is what a must not learn.
    everything = threat_map(state, board, rules, "a").within(a_view.explored)
    assert everything.of("b_hidden") - everything.of("b_levy")
    assert a_view.threat.hexes == everything.of("b_levy")
    # And the other way round: b's view fears a's men.
    b_view = SideView(state, board, rules, "b")
    assert set(b_view.threat.reach) == {"a_foot"}


def test_ground_never_seen_shows_no_threat(rules: Ruleset) -> None:
    scenario = make_scenario(rules, STRIP, FOG_UNITS, turn_limit=5)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats={"a": "human", "b": "human"})
    view = SideView(match.state, scenario.board, rules, "a")
    everything = threat_map(view.state, scenario.board, rules, "a")
    assert everything.hexes - view.explored  # the levy could march beyond what a has seen
    assert view.threat.hexes == everything.hexes & view.explored
    assert view.enemy_reach("b_levy") <= view.explored


def test_a_spectator_has_no_enemies_to_fear(small_engine: EngineFactory) -> None:
    eng = small_engine(FIELD, UNITS, sides=SIDES)
    view = SideView(eng.state, eng.board, eng.rules, None)
    assert view.threat.hexes == frozenset() and view.enemy_reach("b_bow") == frozenset()


def test_an_enemy_that_already_marched_and_fought_strikes_again_next_turn(small_engine: EngineFactory) -> None:
    """Its last turn is behind it: the flags it left are reset before it strikes again."""
    eng = small_engine(FIELD, UNITS, sides=SIDES)
    before = SideView(eng.state, eng.board, eng.rules, "a").threat
    for f in eng.state.formations_of("b"):
        f.moved = f.acted = True
    assert SideView(eng.state, eng.board, eng.rules, "a").threat == before
