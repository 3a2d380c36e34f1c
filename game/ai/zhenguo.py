"""Yue Fei's army (the Zhenguo faction)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from ..core import combat, skill_marks, skills
from ..core.actions import Action, Attack, UseSkill
from ..core.hexgrid import Hex, distance
from ..core.movement import max_steps
from ..core.state import Formation, GameState
from .persona import Persona
from .scenario_reading import losing_ground, vital_units

if TYPE_CHECKING:
    from .general import General

# A formation whose loss loses the battle strikes only if the worst case leaves it at least a
# quarter of its men.
VITAL_RISK = 0.75
# Turns to spare by which the keeper of a gap must be able to ride back before an enemy that
# would take it could reach it.
GATE_MARGIN = 2
# A turn more for a duel the scenario asks for: the enemy hero may refuse the challenge or ride
# off before it is joined (against an opponent that did, Yue Fei often began the duel at the
# Tangut border too late to finish it; between equal generals Wuzhu seeks it himself, and the
# turn changes nothing there).
WOUND_SLACK = 1
# Slack that makes an aim pressing at once: more turns than any battle has.
AT_ONCE = 1000


class Zhenguo(Persona):
    """Yue Fei's army: a formation riding to the ground it is ordered to (a comrade's besieged
    hill) leaves the stragglers and their souls to the wind until it gets there; a formation
    whose loss loses the battle (Tang Huai's company) strikes only blows it is sure to survive,
    and comes down its hill on the besiegers once the relief has struck them."""

    def __init__(self, general: General) -> None:
        super().__init__(general)
        self.vital = vital_units(general)
        # The enemy formations this side sees at the decision in hand.
        self._in_sight: frozenset[str] = frozenset()
        # Every enemy formation it has seen in this battle.
        self._seen: frozenset[str] = frozenset()
        # Enemy formations it has seen and then lost from sight: once hunted, always hunted.
        self._hunted: frozenset[str] = frozenset()
        # Where each enemy formation was last seen; until then, where the scenario deploys it in
        # the open (what both sides know before the battle, never the game's state: a general
        # made for a game loaded halfway through must not learn where the enemy stands now).
        self._last_seen: dict[str, Formation] = {
            spec.id: Formation(
                id=spec.id,
                side=spec.side,
                type=spec.type,
                men=spec.men,
                max_men=spec.max_men or spec.men,
                morale=spec.morale if spec.morale is not None else 100,
                hero=spec.hero,
                pos=spec.pos,
            )
            for spec in general.game.scenario.formations
            if spec.side != general.side_id and not spec.hidden
        }
        # Ours kept at ground whose unopposed taking by the enemy loses the battle (the gap in the
        # border ridge): post -> the enemy formations whose taking of it loses (empty: any).
        self._gates: dict[str, tuple[frozenset[Hex], tuple[str, ...]]] = {}
        for _spec, region, when in losing_ground(general):
            assert when.ground is not None
            for unit, posts in self.posts.items():
                if any(post[0] == region for post in posts):
                    self._gates[unit] = (region, when.ground[3])

    def observe(self, state: GameState, enemies: list[Formation]) -> None:
        self._in_sight = frozenset(e.id for e in enemies)
        self._hunted |= self._seen - self._in_sight
        self._seen |= self._in_sight
        for e in enemies:
            self._last_seen[e.id] = e

    def held_region(self, unit: str) -> frozenset[Hex] | None:
        region = super().held_region(unit)
        if region is None or unit not in self._gates or self._gate_threatened(unit):
            return region
        return None

    def _gate_threatened(self, unit: str) -> bool:
        """Whether an enemy that loses us the battle by taking the ground ``unit`` keeps could be
        on it before ``unit`` could ride back, as far as this side has seen: while none could,
        the keeper of the gap rides with the rest (an opponent that never makes for the gap does
        not hold a quarter of the army idle there all battle)."""
        state, rules = self.g.engine.state, self.g.engine.rules
        keeper = state.formations.get(unit)
        region, takers = self._gates[unit]
        if keeper is None:
            return True
        back = min(distance(keeper.pos, h) for h in region) / max(1, max_steps(keeper, rules))
        for e in self._last_seen.values():
            if takers and e.id not in takers:
                continue
            if e.id in self._in_sight and e.routed:
                continue
            there = min(distance(e.pos, h) for h in region) / max(1, max_steps(e, rules))
            if there <= back + GATE_MARGIN:
                return True
        return False

    def memory(self) -> Hashable:
        # Whether an aim is searched for at once changes what a formation may strike on the way.
        return (super().memory(), self._hunted)

    def allowed_hexes(self, f: Formation) -> frozenset[Hex] | None:
        allowed = super().allowed_hexes(f)
        region = self.held_region(f.id)
        if allowed is not None or region is None:
            return allowed
        # Riding for its post (the foot of a besieged comrade's hill), it strikes on the way only
        # where the blow leaves it no farther from the post: riders that followed a fleeing
        # besieger off to the far end of the field came back to the hill after the turns ran out.
        return self._nearer(region, f.pos, max_steps(f, self.g.engine.rules), slack=1)

    def pursuit_slack(self, f: Formation, slack: int) -> int:
        # A formation to break that has been seen and then lost from sight is searched for at
        # once: an opponent that will not stand scatters its detachments over the field, and one
        # that has rallied out of sight is not where it was last seen. Setting out for it only
        # when the march alone still fitted in the turns left, the army found it too late or not
        # at all. Once found again it is struck, not left for a fight nearer at hand: riders that
        # turned back to the fight in the valley whenever the rear guard came in sight and rode
        # out again when it was lost let it wander the field unbroken until the turns ran out. A
        # formation kept at its post (the gap in the border ridge) stays there. An enemy hero to
        # wound is gone for a turn sooner (WOUND_SLACK).
        if self.held_region(f.id) is not None:
            return slack
        aims = self.g.objectives.aims(self.g.engine.state)
        if any(a.kind == "break" and a.units & self._hunted for a in aims):
            return AT_ONCE
        return slack + WOUND_SLACK if any(a.kind == "wound" for a in aims) else slack

    def may_capture(self, f: Formation) -> bool:
        region = self.held_region(f.id)
        return region is None or f.pos in region

    def may_blast(self, f: Formation) -> bool:
        # The company whose loss loses the battle has few charges: it lives by bow and crossbow
        # and throws palm thunder only once the assault has cost it half its men, and keeps the
        # last in hand for the moment the relief comes.
        if f.id not in self.vital:
            return True
        return f.charges > 1 and f.men * 2 <= f.max_men

    def may_strike(self, f: Formation, target: Formation) -> bool:
        if self.marching(f):
            return self._in_the_way(f, target)
        if not super().may_strike(f, target):
            return False
        if f.id not in self.vital or (f.id in self.charging and f.men * 2 > f.max_men):
            # A hero ordered to charge (Yue Fei at the border) weighs his losses lightly, while
            # he has half his men: with fewer, a charge into fresh horse lost the battle with them.
            return True
        engine = self.g.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, f, target)
        # Coming down the hill on men the relief is fighting below, the company counts on the
        # likely losses, not the worst: the besiegers are turned toward the relief.
        likely = 1 if skill_marks.DOWNHILL in f.effects else 2
        return combat.forecast_from(setup).attacker_losses[likely] < f.men * VITAL_RISK

    def _in_the_way(self, f: Formation, target: Formation) -> bool:
        """A formed enemy standing nearer the post ``f`` marches to than ``f`` does: riding to a
        besieged comrade, it cuts through what bars the road, and leaves the rest."""
        post = self.held_region(f.id)
        if post is None or target.routed:
            return False
        return min(distance(target.pos, h) for h in post) < min(distance(f.pos, h) for h in post)

    def worth_using(self, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool | None:
        rules = self.g.engine.rules
        skill = rules.skills[use.skill]
        if skill.effect != "downhill_charge":
            return None
        # When the blow it opens is one the company can survive (charging, it cannot shoot).
        return self._downhill_blow(f) is not None

    def special_action(self, own: list[Formation], enemies: list[Formation]) -> Action | None:
        # Down the hill the moment the order is given: the blow follows the charge at once.
        for f in own:
            if skill_marks.DOWNHILL in f.effects and self.g.engine.can_attack(f):
                target = self._downhill_blow(f)
                if target is not None:
                    return Attack(unit=f.id, target=target.id)
        return None

    def _downhill_blow(self, f: Formation) -> Formation | None:
        """The enemy below ``f`` its downhill charge would strike hardest and survive, as soon as
        the relief stands next to it: the hill comes down while the relief strikes from below (上下
        對衝), not after the relief's blow has already broken the besiegers."""
        engine = self.g.engine
        skill = skill_marks.effect_skill(engine.rules, skill_marks.DOWNHILL)
        if skill is None:
            return None
        charging = f.model_copy(update={"effects": {**f.effects, skill_marks.DOWNHILL: engine.state.turn + 1}})
        scored = [
            (self.g.attack_score(charging, e), e.id, e)
            for e in skills.downhill_targets(engine, f, skill)
            if self.may_strike(charging, e)
        ]
        return max(scored, key=lambda x: (x[0], x[1]))[2] if scored else None
