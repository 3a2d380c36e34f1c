"""The general reads what it must do to win from the scenario's events and goes for it when the
turns left leave no time for anything else (game.ai.objectives)."""

from __future__ import annotations

import dataclasses

from game.ai import aimed_duels
from game.ai.general import General
from game.ai.objectives import SLACK, Objectives
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.core import combat
from game.core.actions import Challenge, EndTurn
from game.core.engine import Engine, GameSettings
from game.core.hexgrid import distance, distance_to_area, neighbours
from game.core.movement import are_enemies
from game.record.match import Match


def _match(scenario_id: str, seed: int = 1) -> Match:
    loaded = load_scenario(scenario_id)
    return Match(loaded, seed, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})


def test_aims_come_from_the_events_that_win_and_what_they_wait_for() -> None:
    match = _match("b1_the_valley")
    aims = Objectives(match.engine, "zhenguo").aims(match.state)
    kinds = {(a.kind, a.region, a.units) for a in aims}
    # field_won waits for two objectives: the rear guard broken (each of its three formations, each
    # at its own moment) and the relief at the hill's foot.
    for unit in ("rear_guard_1", "rear_guard_2", "rear_guard_3"):
        assert ("break", None, frozenset({unit})) in kinds
    assert ("reach", "hill_foot", frozenset({"yue_fei_riders"})) in kinds
    # The turn limit gives the Jin the battle: they have nothing to chase.
    assert Objectives(match.engine, "jin").aims(match.state) == []


def test_an_aim_already_won_is_no_longer_chased() -> None:
    match = _match("b1_the_valley")
    objectives = Objectives(match.engine, "zhenguo")
    match.state.fired_events.append("rear_broken")
    match.state.objectives["break_rear"] = "done"
    assert all(a.kind != "break" for a in objectives.aims(match.state))


def test_the_deadline_is_the_turn_the_enemy_wins_by_holding_out() -> None:
    loaded = load_scenario("a2_rear_guard_trap")
    # As A2 once was: the coalition won by holding out to turn 14 alone (now Han Xin must be back
    # in the pass too, which no turn brings of itself, so the deadline is the turn limit).
    held_out_wins = tuple(
        e.model_copy(update={"when": e.when.model_copy(update={"done": ("hold_out",)})}) if e.id == "rear_saved" else e
        for e in loaded.scenario.events
    )
    scenario = dataclasses.replace(loaded.scenario, events=held_out_wins)
    engine = Engine(scenario, load_ruleset(), 1)
    hailing = Objectives(engine, "hailing")
    # The Hailing must destroy Cao Zhi before the coalition has held out.
    assert hailing.deadline == 14 < scenario.turn_limit
    assert [(a.kind, a.units, a.destroy) for a in hailing.aims(engine.state)] == [
        ("break", frozenset({"cao_zhi_2000"}), True)
    ]
    assert Objectives(_match("a2_rear_guard_trap").engine, "hailing").deadline == scenario.turn_limit


def test_a_formation_leaves_its_post_for_the_aim_only_when_time_presses() -> None:
    match = _match("b1_the_valley")
    general = General(match.engine, "zhenguo")
    view = general.engine
    riders = view.state.formations["yue_fei_riders"]
    enemies = [e for e in view.state.formations.values() if are_enemies(view.state, "zhenguo", e.side)]
    objectives = general.objectives
    assert objectives.destination(view, riders, enemies) is None  # turn 1: the personality leads
    view.state.turn = objectives.deadline - SLACK + 1
    goals = objectives.destination(view, riders, enemies)
    assert goals is not None
    region = view.board.regions["hill_foot"]
    assert goals <= region or any(distance(g, h) <= 1 for g in goals for h in region)


def test_the_one_formation_whose_coming_wins_keeps_to_that_ground_when_other_aims_press() -> None:
    """B1's relief counts only Yue Fei at the foot of Tang Huai's hill; breaking the rear guard
    is anyone's work. With the turns pressing for both, he rides for the hill and the others go
    for the rear guard (he used to ride back across the field after it, three hexes from the
    hill, and the turns ran out before he came back)."""
    match = _match("b1_the_valley")
    state, board = match.state, match.engine.board
    hill_foot = board.regions["hill_foot"]
    riders = state.formations["yue_fei_riders"]
    riders.pos = next(
        h for h in sorted(board.hexes()) if distance_to_area(h, hill_foot) == 3 and h not in state.occupancy()
    )
    state.turn = 7
    state.action_index += 1
    objectives = Objectives(match.engine, "zhenguo")
    enemies = [e for e in state.formations.values() if are_enemies(state, "zhenguo", e.side)]
    rear_guard = {state.formations[u].pos for u in ("rear_guard_1", "rear_guard_2", "rear_guard_3")}
    others = objectives.destination(match.engine, state.formations["guo_yaoshi_riders"], enemies, slack=4)
    assert others is not None and rear_guard <= others  # the rear guard's breaking presses
    # Pressed or not, Yue Fei's own aim is the hill: the foot of it, or who stands on it.
    goals = objectives.destination(match.engine, riders, enemies, slack=4)
    assert goals is None or not goals & rear_guard
    state.turn = objectives.deadline - 1
    goals = objectives.destination(match.engine, riders, enemies, slack=4)
    assert goals is not None and not goals & rear_guard
    assert all(distance_to_area(g, hill_foot) <= 1 for g in goals)


def test_a_hard_general_sets_out_at_once_to_relieve_a_comrade_whose_fall_loses_the_battle() -> None:
    """The relief of Tang Huai's hill is forbidden by his company's fall, which comes at no set
    turn: the turns left cannot tell how long he holds. The hard general's free riders set out
    for the besiegers at the foot of his hill from the first turn (the normal one's only as the
    turns run short, as for any aim: both lost the same games, the hill taken at turn 7 or 8
    while Yue Fei was still fighting through to it); the company itself stays on its hill."""
    match = _match("b1_the_valley")
    objectives = Objectives(match.engine, "zhenguo")
    assert {a.region for a in objectives.aims(match.state) if a.forestalled} == {"hill_foot"}
    assert not any(a.forestalled for a in objectives.aims(match.state) if a.kind != "reach")
    besiegers = {f.pos for f in match.state.formations.values() if f.pos in match.engine.board.regions["hill_foot"]}
    assert besiegers
    for level, sets_out in (("hard", True), ("normal", False)):
        general = General(match.engine, "zhenguo", difficulty=level)
        state = general.engine.state
        enemies = general._enemies()
        aim = general._aim(state.formations["guo_yaoshi_riders"], enemies)
        assert (aim is not None) == sets_out
        if aim is not None:
            assert aim & besiegers  # the others clear the ground Yue Fei must stand on
        assert general._aim(state.formations["tang_huai_bows"], enemies) is None


def test_an_enemy_out_of_sight_is_looked_for_where_it_was_last_seen_not_where_it_is() -> None:
    match = _match("a2_rear_guard_trap")
    general = General(match.engine, "hailing")
    view = general.engine
    view.state.turn = general.objectives.deadline
    cao_zhi = match.state.formations["cao_zhi_2000"]
    ambush = next(f for f in view.state.formations_of("hailing") if not f.routed)
    seen = [e for e in view.state.formations.values() if are_enemies(view.state, "hailing", e.side)]
    assert all(e.id != "cao_zhi_2000" for e in seen)  # hidden from the Hailing at the start
    deployed = next(s.pos for s in match.engine.scenario.formations if s.id == "cao_zhi_2000")
    cao_zhi.pos = next(h for h in view.board.hexes() if distance(h, deployed) > 20)  # moved where no one saw
    goals = general.objectives.destination(view, ambush, seen)
    assert goals is not None and cao_zhi.pos not in goals


def test_a_hero_the_scenario_asks_to_wound_is_challenged_on_close_odds_and_not_struck() -> None:
    match = _match("b3_tangut_border")
    state = match.state
    yue, guards = state.formations["yue_fei_riders"], state.formations["wuzhu_guards"]
    occupied = state.occupancy()
    guards.pos = next(h for h in neighbours(yue.pos) if h in match.engine.board and h not in occupied)
    general = General(match.engine, "zhenguo")
    wanted = general.objectives.wound_heroes(general.engine.state)
    assert wanted == {"wanyan_wuzhu"}
    # Yue Fei (100) against Wuzhu (95): too close for a challenge of his own choosing, but he
    # wounds Wuzhu (alone or falling with him) nine times in ten, and that wins the battle.
    assert aimed_duels.challenge(general.engine, [yue], wanted) == Challenge(unit=yue.id, target=guards.id)
    assert aimed_duels.marked(general.engine, "zhenguo", wanted) == {guards.id}
    # The Jin have nothing to chase: the turn limit is theirs.
    assert General(match.engine, "jin").objectives.wound_heroes(state) == frozenset()


def test_ground_once_seen_empty_is_not_searched_again() -> None:
    """The general remembers where it has looked: once it has seen the spot an enemy was last
    seen at standing empty, it searches farther out, not back at the spot when it is out of sight
    again."""
    match = _match("b2_the_pursuit")
    state = match.state
    objectives = Objectives(match.engine, "zhenguo")
    column = state.formations.pop("jin_column")  # gone from where it stood, nobody saw where
    spot = column.pos
    assert objectives._search_ground(match.engine, "jin_column") == {spot}
    riders = state.formations["yue_fei_riders"]
    start = riders.pos
    riders.pos = next(h for h in neighbours(spot) if h in match.engine.board and h not in state.occupancy())
    state.action_index += 1
    objectives._look(match.engine, [])  # the riders see the spot, and nobody there
    riders.pos = start
    state.turn, state.action_index = 3, state.action_index + 1
    objectives._look(match.engine, [])  # two turns on, the spot is out of sight again
    search = objectives._search_ground(match.engine, "jin_column")
    assert search and spot not in search


def test_detachments_to_break_one_by_one_send_the_general_out_sooner() -> None:
    """Six formations to break each on its own (B2) leave no time to wait from the first turn;
    with one left, the personality leads again until the turns left press."""
    match = _match("b2_the_pursuit")
    state = match.state
    objectives = Objectives(match.engine, "zhenguo")
    riders = state.formations["yue_fei_riders"]
    enemies = [e for e in state.formations.values() if are_enemies(state, "zhenguo", e.side)]
    assert len([a for a in objectives.aims(state) if a.kind == "break"]) == 6
    assert objectives.destination(match.engine, riders, enemies, slack=1) is not None
    markers = ["ford_foot_broken", "ford_horse_broken", "woods_broken", "hill_broken", "wagons_broken"]
    state.fired_events.extend(markers)
    state.action_index += 1
    assert [a.units for a in objectives.aims(state) if a.kind == "break"] == [frozenset({"jin_column"})]
    assert objectives.destination(match.engine, riders, enemies, slack=1) is None


def test_the_one_guarding_ground_the_enemy_wins_by_taking_keeps_it_when_time_presses() -> None:
    """B2's column wins by slipping through the gap unopposed: the rider a hard general (who
    reads that ground) has standing in it stays there when the turns left send the others after
    the formations still to break."""
    match = _match("b2_the_pursuit")
    state = match.state
    gap = match.engine.board.regions["west_edge"]
    vanguard = state.formations["zhenguo_vanguard"]
    vanguard.pos = next(h for h in sorted(gap) if h not in state.occupancy())
    state.turn = 12
    general = General(match.engine, "zhenguo", difficulty="hard")
    view = general.engine
    enemies = [e for e in view.state.formations.values() if are_enemies(view.state, "zhenguo", e.side)]
    in_gap, riders = view.state.formations["zhenguo_vanguard"], view.state.formations["yue_fei_riders"]
    assert general.persona.guards_ground(in_gap)
    assert general.objectives.destination(view, in_gap, enemies) is not None  # the aims press...
    assert general._aim(in_gap, enemies) is None  # ...but it keeps the gap shut
    assert general._aim(riders, enemies) is not None


def test_a_hard_general_spares_the_men_round_a_hero_its_duel_must_wound() -> None:
    """B3: Yue Fei wins by wounding Wuzhu in a duel, which a rout next to Wuzhu's guards (costing
    them morale) can break off by breaking them mid-duel. A hard general leaves the Jin standing
    within reach of that morale loss, however good the blow; away from them, and for a normal
    general, the blow is scored as any other."""
    match = _match("b3_tangut_border")
    state = match.state
    guards = state.formations["wuzhu_guards"]
    occupied = state.occupancy()
    near = next(
        e
        for e in sorted(state.formations.values(), key=lambda x: x.id)
        if e.side == "jin" and e.id != guards.id and distance(e.pos, guards.pos) <= 2
    )
    board = match.engine.board
    spot = next(
        h
        for h in sorted(board.regions["the_line"])
        if distance(h, guards.pos) > 5 and h not in occupied and all(n in board for n in neighbours(h))
    )
    rider = state.formations["zhenguo_vanguard"]
    # Yue Fei rides up to the guards, so that his side sees them and the men about them.
    state.formations["yue_fei_riders"].pos = next(
        h for h in sorted(board.regions["before_walls"]) if distance(h, guards.pos) == 2 and h not in occupied
    )
    near.men, near.morale = 60, 20  # a remnant, shaken: the blow may well rout it
    far = near.model_copy(update={"pos": spot})
    scores = {}
    for level in ("hard", "normal"):
        general = General(match.engine, "zhenguo", difficulty=level)
        assert bool(general.spared()) == (level == "hard")
        for where, target in (("near", near), ("far", far)):
            at = next(h for h in neighbours(target.pos) if h in board and h not in occupied)
            scores[level, where] = general.attack_score(rider.model_copy(update={"pos": at}), target)
    assert scores["hard", "near"] < 0 < scores["normal", "near"]
    assert scores["hard", "far"] > 0 and scores["normal", "far"] > 0


def test_a_side_that_wins_by_a_kill_hunts_at_the_hard_level() -> None:
    """B1's Jin win outright by destroying Tang Huai's company: a hard Jin general weighs its own
    losses lightly there; the Zhenguo, who win by breaking and relieving, count every man, as
    every normal general does."""
    match = _match("b1_the_valley")
    assert Objectives(match.engine, "jin").wins_by_a_kill
    assert not Objectives(match.engine, "zhenguo").wins_by_a_kill
    weights = {
        (side, level): General(match.engine, side, difficulty=level)._loss_weight
        for side in ("jin", "zhenguo")
        for level in ("normal", "hard")
    }
    assert weights["jin", "hard"] < weights["zhenguo", "hard"] == weights["jin", "normal"] == 1.0


def test_a_hard_general_values_the_routs_a_rout_sets_off() -> None:
    """A rout costs the routed formation's friends nearby morale; a friend already so shaken that
    this breaks it routs too. A hard general counts that second rout into the blow's worth; a
    normal one scores the blow alike whether the friend is shaken or steady."""
    match = _match("b1_the_valley")
    state = match.state
    tang = state.formations["tang_huai_bows"]
    friend = state.formations["guo_yaoshi_riders"]
    occupied = state.occupancy()
    friend.pos = next(h for h in sorted(neighbours(tang.pos)) if h in match.engine.board and h not in occupied)
    tang.morale = 25  # shaken: the blow may rout it
    striker = state.formations["vanguard"]
    scores = {}
    for level in ("hard", "normal"):
        general = General(match.engine, "jin", difficulty=level)
        view = general.engine.state
        view.formations[friend.id] = friend.model_copy()  # in sight, next to the hill
        threshold = match.engine.rules.units[friend.type].rout_threshold
        for mood, morale in (("steady", 100), ("shaken", threshold + 2)):
            view.formations[friend.id].morale = morale
            scores[level, mood] = general.attack_score(view.formations[striker.id], view.formations[tang.id])
    assert scores["hard", "shaken"] > scores["hard", "steady"]
    assert scores["normal", "shaken"] == scores["normal", "steady"]


def test_a_hard_general_herding_a_broken_host_does_not_seek_routs_that_spread() -> None:
    """Where the battle waits on a broken formation caught whole (the valley mouth's herd), a
    rout that sets off its neighbours' scatters them out of the sacks' reach: the hard general
    scores the blow alike whether the defender's friend is shaken or steady; until the host has
    broken it still counts the second rout."""
    scores = {}
    for broken in (False, True):
        match = _match("a1_valley_mouth")
        state = match.state
        levy, friend = state.formations["liang_levy_1"], state.formations["liang_levy_2"]
        striker = state.formations["xiang_yu_500"]
        occupied = state.occupancy()
        striker.pos = next(h for h in sorted(neighbours(levy.pos)) if h in match.engine.board and h not in occupied)
        levy.morale = 25  # shaken: the blow may rout it
        if broken:
            state.fired_events.append("host_broken")
            state.objectives["break_host"] = "done"
        general = General(match.engine, "coalition", difficulty="hard")
        assert any(a.kind == "herd" for a in general.objectives.aims(general.engine.state)) == broken
        view = general.engine.state
        view.formations[friend.id] = friend.model_copy()  # in sight, next to the levy
        threshold = match.engine.rules.units[friend.type].rout_threshold
        assert distance(view.formations[friend.id].pos, levy.pos) <= 2
        for mood, morale in (("steady", 100), ("shaken", threshold + 2)):
            view.formations[friend.id].morale = morale
            scores[broken, mood] = general.attack_score(view.formations[striker.id], view.formations[levy.id])
    assert scores[False, "shaken"] > scores[False, "steady"]
    assert scores[True, "shaken"] == scores[True, "steady"]


def test_a_hard_general_pursuing_an_aim_marches_heedless_of_the_counter_attack() -> None:
    """Once the turns left send a formation after the scenario's aims, a hard general marches it
    the shortest good way however the enemy threatens the ground; a general that weighs the
    counter-attack on the march would rather stand than cross ground it fears."""
    match = _match("b2_the_pursuit")
    state = match.state
    gap = match.engine.board.regions["west_edge"]
    state.formations["zhenguo_vanguard"].pos = next(h for h in sorted(gap) if h not in state.occupancy())
    state.turn = 12
    moves = {}
    for heedless in (True, False):
        general = General(match.engine, "zhenguo", difficulty="hard")
        general.style = dataclasses.replace(general.style, heedless_pursuit=heedless, exposure=0.1)
        view = general.engine
        riders = view.state.formations["yue_fei_riders"]
        enemies = [e for e in view.state.formations.values() if are_enemies(view.state, "zhenguo", e.side)]
        assert general._aim(riders, enemies) is not None

        def feared(f: object, at: object, here: object = riders.pos) -> float:
            return 0.0 if at == here else 1e6  # every step away from here is deadly

        general.exposure = feared  # type: ignore[method-assign]
        moves[heedless] = general._movement(riders, enemies, frozenset())
    assert moves[True] is not None and moves[False] is None


def test_a_forced_march_order_drives_the_formation_past_its_pace() -> None:
    """A2: once the thirty thousand show themselves Han Xin's order back to the pass is a forced
    march (the chronicle's), so his five thousand end their move nearer the pass than their own
    pace could take them; before the ambush his march back is at an ordinary pace."""
    match = _match("a2_rear_guard_trap")
    state = match.state
    general = General(match.engine, "coalition", difficulty="normal")
    han = general.engine.state.formations["han_xin_5000"]
    pass_ = match.engine.board.regions["the_pass"]
    assert not general.persona.forcing(han)
    before = general._march(han, pass_, None)
    assert before is not None and not before.forced
    state.fired_events.append("ambush_sprung")
    general = General(match.engine, "coalition", difficulty="normal")
    han = general.engine.state.formations["han_xin_5000"]
    assert general.persona.forcing(han)
    move = general._march(han, pass_, None)
    assert move is not None and move.forced
    paced = general.engine.moves(han.id).destinations
    assert move.to not in paced
    nearest_paced = min(min(distance(h, p) for p in pass_) for h in paced)
    assert min(distance(move.to, p) for p in pass_) < nearest_paced
    match.apply(move)  # the engine takes it: the forced march is a legal order
    assert state.formations["han_xin_5000"].pos == move.to


def test_who_bags_harder_while_the_battle_waits_on_the_pouch_goes_by_the_level() -> None:
    """A3 is won only with thirty thousand souls in the pouch: while the pouch is short, the souls
    a capture would bag weigh more for every hand of a hard general and for the soul-catchers of a
    normal one (its fighters fight on), and no more once it is full; an easy general weighs them
    alike throughout."""
    match = _match("a3_besiege_wei")
    state = match.state
    objectives = Objectives(match.engine, "coalition")
    assert objectives.souls_wanted(state) == 30000
    assert Objectives(match.engine, "hailing").souls_wanted(state) == 0
    catchers, fighters = state.formations["cao_zhi_2000"], state.formations["han_xin_5000"]
    for f in (catchers, fighters):
        state.field_souls[f.pos.key()] = {"hailing": 500}
    scores = {}
    for pouch in (0, 30000):
        state.side("coalition").pouch = pouch
        for level in ("hard", "normal", "easy"):
            general = General(match.engine, "coalition", difficulty=level)
            for f in (catchers, fighters):
                scores[level, f.id, pouch] = general._capture_score(general.engine.state.formations[f.id])
    for f in (catchers, fighters):
        assert scores["easy", f.id, 0] == scores["easy", f.id, 30000] > 0
        assert scores["hard", f.id, 0] > scores["hard", f.id, 30000] == scores["easy", f.id, 30000]
    assert scores["normal", catchers.id, 0] == scores["hard", catchers.id, 0]
    assert scores["normal", catchers.id, 30000] == scores["easy", catchers.id, 30000]
    assert scores["normal", fighters.id, 0] == scores["normal", fighters.id, 30000] < scores["hard", fighters.id, 0]


def test_a_formation_marches_as_near_as_it_can_to_goals_it_has_no_way_onto() -> None:
    """Riders sent to look over mountain ground they cannot enter still go toward it (to bring
    it into sight) rather than stand where they are."""
    match = _match("b2_the_pursuit")
    general = General(match.engine, "zhenguo", difficulty="normal")
    view = general.engine
    riders = view.state.formations["yue_fei_riders"]
    board, rules = view.board, view.rules
    move_class = rules.units[riders.type].move_class
    closed = frozenset(h for h in board.hexes() if board.move_cost(h, move_class) is None)
    goal = min(
        (h for h in closed if all(n not in board or n in closed for n in neighbours(h))),
        key=lambda h: (distance(riders.pos, h), h),
    )
    move = general._march(riders, frozenset({goal}), None)
    assert move is not None
    assert distance(move.to, goal) < distance(riders.pos, goal)


def test_the_style_weighs_a_blow_from_a_flank_as_it_weighs_a_pincer() -> None:
    """A friend beside the defender (not opposite the striker) gives the blow a flank: the
    style's pincer weight counts it, so a general that seeks flanks scores it higher."""
    match = _match("b1_the_valley")
    state = match.state
    tang = state.formations["tang_huai_bows"]
    striker = state.formations["vanguard"]
    occupied = state.occupancy()
    at = next(h for h in sorted(neighbours(tang.pos)) if h in match.engine.board and h not in occupied)
    striker.pos = at
    behind = (2 * tang.pos.q - at.q, 2 * tang.pos.r - at.r)
    beside = next(
        h
        for h in sorted(neighbours(tang.pos))
        if h in match.engine.board and h not in occupied and h != at and (h.q, h.r) != behind
    )
    state.formations["besiegers_1"].pos = beside
    scores = {}
    for weight in (0.0, 0.3):
        general = General(match.engine, "jin", difficulty="hard")
        general.style = dataclasses.replace(general.style, pincer=weight)
        view = general.engine.state
        view.formations["besiegers_1"] = state.formations["besiegers_1"].model_copy()
        scores[weight] = general.attack_score(view.formations[striker.id], view.formations[tang.id])
    setup = combat.setup_attack(state, match.engine.board, match.engine.rules, striker, tang, "melee")
    assert not setup.pincer and any(m.name == combat.FLANKING_MODIFIER for m in setup.modifiers)
    assert scores[0.3] > scores[0.0] > 0


def test_ground_that_must_be_clear_at_the_last_turn_goes_before_breaking_a_scattered_host() -> None:
    match = _match("a1_valley_mouth")
    general = General(match.engine, "coalition")
    view = general.engine
    view.state.fired_events += ["trapped_broken", "valley_swept"]
    aims = general.objectives.aims(view.state)
    # host_stayed_away wins unless the host stands in order before the defile at its last turn.
    assert any(a.kind == "clear" and a.region == "around_the_defile" for a in aims)
    region = view.board.regions["around_the_defile"]
    han_xin = view.state.formations["han_xin_5000"]
    han_xin.pos = next(h for h in view.board.hexes() if min(distance(h, g) for g in region) == 6)
    enemies = [e for e in view.state.formations.values() if are_enemies(view.state, "coalition", e.side)]
    # Nobody before the defile yet: the host is the aim while there is time, but as the end nears,
    # go and stand on the ground, and nowhere else.
    # (A general with a slack of one turn, the normal one; one with four, the hard one, roams
    # farther after the aims and is called back two turns sooner.)
    for slack, sooner in ((1, 0), (4, 2)):
        view.state.turn = view.state.turn_limit - 2 - sooner
        assert general.objectives.destination(view, han_xin, enemies, slack) != region
        view.state.turn = view.state.turn_limit - 1 - sooner
        assert general.objectives.destination(view, han_xin, enemies, slack) == region
    # One of the host comes into it: that one is the aim.
    levy = match.state.formations["liang_levy_1"]
    levy.pos = next(h for h in sorted(region) if h not in {f.pos for f in view.state.formations.values()})
    view.state.turn = view.state.turn_limit - 1
    view.state.action_index += 1
    assert general.objectives.destination(view, han_xin, [*enemies, levy], 1) == frozenset({levy.pos})
    # Routed there, it holds nothing: the ground is to be stood on again.
    levy.routed = True
    view.state.action_index += 1
    assert general.objectives.destination(view, han_xin, [*enemies, levy], 1) == region


def test_once_the_host_has_broken_its_formations_are_to_be_caught_whole() -> None:
    match = _match("a1_valley_mouth")
    objectives = Objectives(match.engine, "coalition")
    state = match.state
    assert all(a.kind != "herd" for a in objectives.aims(state))  # nothing to catch before the rout
    state.fired_events += ["trapped_broken", "valley_swept", "host_broken"]
    state.objectives["sweep_valley"] = state.objectives["break_host"] = "done"
    herd = [a for a in objectives.aims(state) if a.kind == "herd"]
    host = ("riders_1", "levy_1", "levy_2", "levy_3", "levy_4", "levy_5", "riders_2")
    assert [a.units for a in herd] == [frozenset(f"liang_{u}" for u in host)]
    # Rallied or routed, every one of them is a target for it.
    state.formations["liang_levy_2"].routed = True
    enemies = [e for e in state.formations.values() if are_enemies(state, "coalition", e.side)]
    assert {"liang_levy_1", "liang_levy_2"} <= objectives.targets(state, enemies)


def test_a_general_herding_a_broken_host_moves_next_to_a_routed_formation_to_bag_it_whole() -> None:
    """Once the valley mouth's host is broken and the battle waits on catching it whole, the
    general moves a formation next to a routed one of the host that its capture can bag, and bags
    it rather than cut it down; before the host breaks, the routed levy is struck as any other."""
    results = {}
    for broken in (False, True):
        match = _match("a1_valley_mouth")
        state = match.state
        for fid in list(state.formations):
            if fid not in ("xiang_yu_500", "liang_levy_1", "liang_levy_2", "liang_levy_3"):
                del state.formations[fid]
        levy, riders = state.formations["liang_levy_1"], state.formations["xiang_yu_500"]
        levy.routed, levy.men, levy.morale = True, 150, 5
        board = match.engine.board
        riders.pos = next(h for h in sorted(board.hexes()) if distance(h, levy.pos) == 3 and board.terrain_at(h).open)
        # The rest of the host far off and in order (more than a fifth of it: not yet broken).
        far = max((h for h in board.hexes() if board.terrain_at(h).open), key=lambda h: distance(h, levy.pos))
        state.formations["liang_levy_2"].pos = far
        walkable = (h for h in sorted(board.hexes()) if 1 <= distance(h, far) <= 2 and board.terrain_at(h).open)
        state.formations["liang_levy_3"].pos = next(walkable)
        # The valley swept and the army at the defile: no souls wanted, the Hegemon-King free.
        state.fired_events += ["trapped_broken", "valley_swept", "army_joins"]
        state.objectives.update(sweep_valley="done", hold_front="done")
        if broken:
            state.fired_events.append("host_broken")
            state.objectives["break_host"] = "done"
        general = General(match.engine, "coalition", difficulty="normal")
        assert any(a.kind == "herd" for a in general.objectives.aims(general.engine.state)) == broken
        for _ in range(4):
            action = general.next_action()
            if isinstance(action, EndTurn) or state.over:
                break
            match.apply(action)
        caught = state.side("coalition").pouch == 150
        results[broken] = (caught, "liang_levy_1" in state.formations)
    assert results == {False: (False, False), True: (True, False)}  # cut down, or caught whole
    assert state.objectives["herd_rout"] == "done"
