"""Wanyan Wuzhu's army (the Jin faction): it masses behind its vanguard to force a pass; when
losing, a rear guard that dies in place, the rest riding light for the refuge fort, and delaying
detachments; and a duel with Yue Fei."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core import duel, officers
from ..core.actions import Action, AnswerDuel, Challenge, Move, UseSkill
from ..core.hexgrid import Hex, disc, disc_set, distance, distance_to_area
from ..core.movement import max_steps
from ..core.state import Formation, GameState
from .persona import Destination, Persona
from .threat import blow

if TYPE_CHECKING:
    from .general import General

# Jin falls back when its men are below this share of the start or of the enemies in sight.
LOSING_SHARE = 0.5
LOSING_RATIO = 0.6
# Weight of an attack on a formation barring the pass the Jin mean to force.
PASS_WEIGHT = 1.5
# A delaying detachment is at most this share of the army.
DETACHMENT_SHARE = 0.25
# Wuzhu lets Yue Fei come into the host until he has cut down this many officers: then the battle
# cannot be won without stopping him, and Wuzhu rides out for him. Before that he seeks the duel
# only if it is more likely than not to wound Yue Fei alone (both wounded loses the battle too).
WAIT_OFFICERS = 2
FAVOURABLE_DUEL = 0.5
WUZHU = "wanyan_wuzhu"
YUE_FEI = "yue_fei"


class Jin(Persona):
    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.refuge = self.region(self.hints.refuge_region)
        self.pass_hexes = self.region(self.hints.pass_region)
        self.rear_guard = frozenset(self.hints.rear_guard)
        self.losing = False
        self.delaying: str | None = None
        # Forcing the pass: the formation leading into it, the enemies barring it, and whether
        # it has been forced (the vanguard stands in it and no enemy does).
        self.vanguard: str | None = None
        self.barring: frozenset[str] = frozenset()
        self.forced = False

    def observe(self, state: GameState, enemies: list[Formation]) -> None:
        side = state.side(self.g.side_id)
        own_men = state.men_of(self.g.side_id)
        rules = self.g.engine.rules
        ours = sum(blow(rules, f) for f in state.formations_of(self.g.side_id))
        theirs = sum(blow(rules, e) for e in enemies if not e.routed)
        self.losing = bool(self.refuge) and (
            own_men < LOSING_SHARE * side.men_start
            or (theirs > 0 and ours < LOSING_RATIO * theirs)
            or WUZHU in state.wounded_heroes  # his guards carry him to the refuge, and the host follows
        )
        self.delaying = self._detachment(state, enemies) if self.losing else None
        self._watch_the_pass(state, enemies)

    def _watch_the_pass(self, state: GameState, enemies: list[Formation]) -> None:
        self.vanguard, self.barring = None, frozenset()
        if not self.pass_hexes or self.forced or self.losing:
            return
        near = {h for p in self.pass_hexes for h in disc(p, 1)}
        self.barring = frozenset(e.id for e in enemies if e.pos in near and not e.routed)
        picks = [
            (min(distance(f.pos, h) for h in self.pass_hexes), f.id)
            for f in state.formations_of(self.g.side_id)
            if f.id not in self.rear_guard and f.hero != WUZHU and not f.routed and f.id not in self.reserves()
        ]
        if not picks:
            return
        self.vanguard = min(picks)[1]
        if state.formations[self.vanguard].pos in self.pass_hexes and not self.barring:
            self.forced, self.vanguard = True, None  # through: the army fights as it will

    def memory(self) -> Hashable:
        # Where the vanguard stands bounds where the rest may stop to strike.
        formations = self.g.engine.state.formations
        at = formations[self.vanguard].pos if self.vanguard in formations else None
        return (super().memory(), self.losing, self.delaying, self.vanguard, at, self.barring, self.forced)

    def target_weight(self, target: Formation) -> float:
        # Whoever bars the pass is struck first.
        return PASS_WEIGHT if target.id in self.barring else 1.0

    def allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        if f.hero == WUZHU:
            yue = self.hero_formation(YUE_FEI)
            if yue is not None and yue.side != f.side and self._seeks_the_duel(f, yue):
                return self._cut_off(yue) or None  # he comes at Yue Fei from between him and his men
        return self._allowed_hexes(f)

    def _allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        """While forcing the pass no one turns aside to strike: the vanguard stops only where it
        is no farther from the pass, the rest no farther from the vanguard."""
        held = super().allowed_hexes(f)
        if held is not None or self.vanguard is None or self.role(f) is not None:
            return held
        state = self.g.engine.state
        anchor = self.pass_hexes if f.id == self.vanguard else frozenset([state.formations[self.vanguard].pos])

        def away(h: Hex) -> int:
            return distance_to_area(h, anchor)

        limit = max(away(f.pos), 1)
        reach = max_steps(f, self.g.engine.rules)
        if len(anchor) == 1:
            # Near one hex: what the two discs share, found as sets.
            return disc_set(f.pos, reach) & disc_set(next(iter(anchor)), limit)
        return frozenset(h for h in disc(f.pos, reach) if away(h) <= limit)

    def _detachment(self, state: GameState, enemies: list[Formation]) -> str | None:
        """The small formation nearest the pursuers, left behind to delay them."""
        live = [e.pos for e in enemies if not e.routed]
        if not live:
            return None
        total = max(1, state.men_of(self.g.side_id))
        picks = [
            (min(distance(f.pos, e) for e in live), f.id)
            for f in state.formations_of(self.g.side_id)
            if f.id not in self.rear_guard and f.hero is None and f.men <= DETACHMENT_SHARE * total
        ]
        return min(picks)[1] if picks else None

    def role(self, f: Formation) -> str | None:
        if f.id in self.rear_guard:
            return "rear_guard"
        if f.id == self.delaying:
            return "rear_guard"
        if self.losing:
            return "flee"
        return super().role(f)

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if f.hero == WUZHU:
            yue = self.hero_formation(YUE_FEI)
            # He will not be drawn into lesser fights while Yue Fei is in the field, and waits
            # for him to come into the host.
            return yue is None or yue.side == f.side or (target.id == yue.id and self._seeks_the_duel(f, yue))
        if target.hero == YUE_FEI and self.hero_formation(WUZHU, self.g.side_id) is not None:
            return False  # "Nobody touches Yue Fei but me."
        return not (self.losing and self.role(f) == "flee" and f.hero != WUZHU)

    def destination(self, f: Formation, enemies: list[Formation], goals: frozenset[Hex]) -> Destination | None:
        role = self.role(f)
        if role == "rear_guard":
            return None  # stand and die where ordered
        yue = self.hero_formation(YUE_FEI)
        # He rides for Yue Fei unless the scenario has ordered him to keep some ground, cutting
        # through the Zhenguo line to come at him from between him and his men.
        if f.hero == WUZHU and yue is not None and yue.side != f.side and self.held_region(f.id) is None:
            if not self._seeks_the_duel(f, yue):
                return None  # he lets Yue Fei come on into the host before he rides out
            return self._cut_off(yue) or frozenset([yue.pos]), None
        if role == "flee":
            return self.refuge, None
        if self.vanguard is not None and self.held_region(f.id) is None and f.id not in self.reserves():
            if f.id == self.vanguard:
                return self.pass_hexes, None  # the vanguard drives into the pass
            # The rest close up behind it, so every blow at the pass is backed by the whole army.
            vanguard = self.g.engine.state.formations[self.vanguard].pos
            return frozenset(disc(vanguard, 2)) - {vanguard}, None
        return super().destination(f, enemies, goals)

    def _seeks_the_duel(self, wuzhu: Formation, yue: Formation) -> bool:
        """Whether Wuzhu rides out for Yue Fei, challenges him and takes up his challenge: when
        Yue Fei has ridden into the host, or when the duel as the field stands favours Wuzhu.
        Otherwise the battle can be won without it (the host holds its ground until the day is
        out) and he will not stake it on a fight he is likely to lose."""
        if self._yue_in_the_host():
            return True
        if wuzhu.hero is None or yue.hero is None:
            return False
        wins, _both, _loses = duel.current_odds(self.g.engine, wuzhu, yue)
        return wins > FAVOURABLE_DUEL

    def _yue_in_the_host(self) -> bool:
        """Whether Yue Fei has ridden into the host: he has cut down ``WAIT_OFFICERS`` officers.
        In a scenario with no named officers Wuzhu does not wait."""
        engine = self.g.engine
        if not engine.scenario.officers:
            return True
        return len(officers.slain(engine)) >= WAIT_OFFICERS

    def _cut_off(self, yue: Formation) -> frozenset[Hex]:
        """Free hexes next to Yue Fei that lie between him and his nearest friend: standing there
        cuts his line in two."""
        state, board = self.g.engine.state, self.g.engine.board
        friends = [o for o in state.formations_of(yue.side) if o.id != yue.id and not o.routed]
        if not friends:
            return frozenset()
        friend = min(friends, key=lambda o: (distance(o.pos, yue.pos), o.id))
        apart = distance(friend.pos, yue.pos)
        occupied = state.occupancy()
        return frozenset(
            h
            for h in disc(yue.pos, 1)
            if h != yue.pos and h in board and h not in occupied and distance(h, friend.pos) + 1 == apart
        )

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        # Once he seeks Yue Fei for single combat, Wuzhu challenges him whatever the odds, first
        # slipping in between him and his men if he can (the Zhenguo line cut in two).
        engine = self.g.engine
        for f in own:
            if f.hero != WUZHU:
                continue
            yue = self.hero_formation(YUE_FEI)
            if yue is None or yue.side == f.side or not self._seeks_the_duel(f, yue):
                continue
            if distance(yue.pos, f.pos) <= 1 and engine.can_move(f):
                cut = self._cut_off(yue)
                if cut and f.pos not in cut:
                    reach = sorted(engine.moves(f.id).destinations & cut)
                    if reach:
                        return Move(unit=f.id, to=reach[0])
            for challenge in self.g.challenges(f):
                target = self.g.engine.state.formations[challenge.target]
                if target.hero == YUE_FEI and not (duel.in_duel(f) and self.g.waits_out_the_duel(f, challenge)):
                    return Challenge(unit=f.id, target=target.id)
        return None

    def answer_duel(self) -> AnswerDuel | None:
        pending = self.g.game.state.pending_duel
        if pending is None:
            return None
        challenger = self.g.game.state.formations.get(pending.challenger)
        target = self.g.game.state.formations.get(pending.target)
        if challenger is not None and target is not None and target.hero == WUZHU and challenger.hero == YUE_FEI:
            # He takes up the challenge when he would have sought the duel himself, or when the
            # shame of refusing would break his guards (and leave him to be taken).
            return AnswerDuel(accept=self._seeks_the_duel(target, challenger) or self._refusal_breaks(target))
        return None

    def _refusal_breaks(self, f: Formation) -> bool:
        threshold = self.g.engine.rules.units[f.type].rout_threshold
        return f.morale + duel.REFUSE_MORALE < threshold

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        if self.g.engine.rules.skills[use.skill].effect == "ride_light":
            return self.losing
        return super().worth_using(f, use, enemies)
