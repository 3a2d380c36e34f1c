"""The computer general's levels: how difficulty changes its choices (``Style``), and the level
each side is played at."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..core.engine import Engine


@dataclass(frozen=True)
class Style:
    """How difficulty changes the general's choices."""

    exposure: float  # weight of the counter-attack waiting at a destination
    loss_weight: float  # weight of our own expected losses
    noise: float  # deterministic jitter on scores (an easy general misjudges)
    min_gain: float  # share of our value an attack must win to be worth it
    pincer: float  # extra weight for attacks that pincer or flank (a hard general seeks them)
    # Share of formations whose orders come a turn late: they stand where they are this turn
    # (an easy general cannot watch the whole field), drawn afresh every turn.
    hesitation: float = 0.0
    # Whether it marches on ground a scenario event names as winning the battle.
    objectives: bool = False
    # Turns, beyond the march, that it leaves for fighting for the scenario's aims when time
    # runs out (game.ai.objectives): the more, the sooner it leaves its post to go for them.
    pursuit_slack: int = 1
    # Whether it spares the enemies next to a hero it means to wound in a duel: a rout near his
    # formation costs it morale, and a formation that routs mid-duel breaks the duel off.
    spare_duel: bool = False
    # Weight of the routs a rout would set off among the defender's shaken neighbours (each rout
    # costs friends nearby morale): a hard general strikes where the enemy line will break,
    # except while a broken formation must be caught whole (``Striker._herding``).
    cascade: float = 0.0
    # Weight of our own losses for a side that wins outright by destroying an enemy formation
    # (None: ``loss_weight``): it pays for the blows that bring the kill nearer.
    hunt_loss_weight: float | None = None
    # Whether a formation the turns left send after the scenario's aims marches heedless of the
    # counter-attack on its way (it has no time to pick safe ground).
    heedless_pursuit: bool = False
    # Whether it sets out at once for an aim that a loss at no set turn may forestall (the relief
    # of a besieged comrade whose fall loses the battle): its time is however long he holds, not
    # the turns left, which is all the objectives can count.
    rescue_at_once: bool = False
    # Weight of its own losses for a formation left behind to delay the enemy (a rear guard):
    # its men are the time it buys, and a sally that trades them away opens the road sooner.
    rear_guard_loss_weight: float = 1.0
    # Who bags first and foremost while a winning event waits on the pouch, the soul-catchers
    # sweeping on when the turns left call the rest to the scenario's other aims
    # (``Striker.minds_the_pouch``): nobody, the soul-catchers, or every hand.
    pouch: Literal["nobody", "catchers", "all"] = "nobody"


# Caution loses battles here: in mirror battles on generated fields a general that weighed the
# counter-attack fully (exposure 1.0) hung back, let the enemy strike first and won 3 games in
# 40 against the easy one. The hard general counts its losses and the counter-attack as the
# normal one does (struck lightly, as the easy one strikes, they lost it the battles against the
# normal general in A1, A2 and B2), but pays for blows where a kill wins the battle (B1's Jin at
# Tang Huai's hill won 26 of 30 so, 10 of 30 counting every man), weighs the routs a rout sets
# off, seeks flanks, spares the men round a hero its duel must wound, sets out at once to relieve
# a comrade whose fall loses the battle, reads the scenario's objectives, and keeps its rear
# guards from sallies that trade away the men whose standing is the time they buy (B2's
# detachments so held the normal Zhenguo general to 9 wins in 30, against 16 before). While a
# winning event waits on the pouch every hand of the hard general bags, the normal general's
# soul-catchers bag and sweep on while its fighters fight, and the easy general lets the souls
# fade (A4's normal coalition against the easy Hailing won 91 of 100 on the strength bench's
# seeds so, 90 with nobody bagging first and 93 with every hand, but every hand held A1's charge
# into the host back in half the games) (bench/strength.py measures the levels against each
# other, bench/win_rates.py on mirror fields).
STYLES: dict[str, Style] = {
    "easy": Style(exposure=0.0, loss_weight=0.6, noise=0.5, min_gain=0.0, pincer=0.0, hesitation=0.25),
    "normal": Style(exposure=0.1, loss_weight=1.0, noise=0.0, min_gain=0.0, pincer=0.1, pouch="catchers"),
    "hard": Style(
        exposure=0.1,
        loss_weight=1.0,
        noise=0.0,
        min_gain=0.0,
        pincer=0.3,
        objectives=True,
        pursuit_slack=4,
        spare_duel=True,
        cascade=1.0,
        hunt_loss_weight=0.6,
        heedless_pursuit=True,
        rescue_at_once=True,
        rear_guard_loss_weight=2.0,
        pouch="all",
    ),
}


def difficulty_for(engine: Engine, side_id: str) -> str:
    settings = engine.settings
    of = getattr(settings, "difficulty_of", None)
    level = of(side_id) if callable(of) else getattr(settings, "difficulty", "normal")
    return level if level in STYLES else "normal"
