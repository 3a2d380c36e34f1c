"""What the help pages say: the keys, and the rules that decide battles.

Every number is read from the rules and the content (the constants of game.core and the unit
and terrain data), never typed into the prose, so the help says what the game does; the few
facts the prose states in words are pinned by tests (tests/test_help.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import i18n
from ..core import combat, duel, fatigue, herding, morale, movement
from ..core.rules import Ruleset, TerrainType, UnitType
from ..i18n import N_, _


@dataclass(frozen=True)
class Page:
    id: str
    title: str  # msgid
    # The page's paragraphs, translated, with the rules' numbers in them.
    text: Callable[[Ruleset], list[str]]


def join(names: Sequence[str]) -> str:
    """A short list in the reader's language: "a, b and c", or 甲、乙、丙."""
    if i18n.language() in i18n.CHINESE:
        return "、".join(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{items} and {last}").format(items=", ".join(names[:-1]), last=names[-1])


def _units(rules: Ruleset, keep: Callable[[UnitType], bool]) -> list[UnitType]:
    return [u for u in rules.units.values() if keep(u)]


def _names(items: Sequence[UnitType]) -> str:
    return join([_(item.name) for item in items])


def _ground(items: Sequence[TerrainType]) -> str:
    """Terrain names in running text: "plain, steppe and road" (English names are capitalised)."""
    names = [_(t.name) for t in items]
    if i18n.language() == "en":
        names = [n[0].lower() + n[1:] for n in names]
    return join(names)


def missile_type(rules: Ruleset) -> UnitType:
    """The troops with missiles and palm thunder (one type has them; a test makes sure)."""
    return next(u for u in rules.units.values() if u.ranged > 0)


# -- keys -----------------------------------------------------------------------------------

# (keys, what they do), in the order a newcomer meets them; a bare key name is the same in every
# language and is not a msgid. The orders bar's keys are listed by order id so a test can check
# each order of game.ui.orders has its row.
MOUSE_ROWS: tuple[tuple[str, str], ...] = (
    (
        N_("Left click a formation of yours"),
        N_(
            "Select it: lit hexes, bordered in yellow, are where it can move; red rings every enemy it can strike "
            "this turn"
        ),
    ),
    (N_("Hover a lit hex"), N_("Show the path it would take")),
    (N_("Left click a lit hex"), N_("Move there")),
    (
        N_("Left click a ringed enemy"),
        N_(
            "The forecast: the losses on both sides, the chance of a rout and every modifier; for an enemy a "
            "march away, from the hex the march leads to"
        ),
    ),
    (N_("Attack button or Enter"), N_("March there if need be, and strike as forecast")),
    (N_("Right click or Esc"), N_("Drop the forecast, the target being aimed, or the selection")),
    ("Tab", N_("Select the next formation that can still act")),
    (N_("E, Shift+Enter or End turn"), N_("End your turn")),
    (N_("Drag the map, arrow keys or WASD"), N_("Pan the map")),
    (N_("Mouse wheel, + and -"), N_("Zoom")),
)
ORDER_ROWS: dict[str, tuple[str, str]] = {
    "forced": ("F", N_("Forced march on or off: half as far again, for much more fatigue")),
    "capture": ("C", N_("Capture the enemy souls on the formation's hex and the six around it")),
    "rest": ("R", N_("Rest instead of moving: fatigue falls and morale rises")),
    "thunder": (N_("T, then click a hex"), N_("Palm thunder on that hex and its neighbours")),
    "undo": (N_("U or Ctrl+Z"), N_("Take back the last move, if it revealed nothing")),
}
OTHER_ROWS: tuple[tuple[str, str], ...] = (
    (N_("Buttons in the unit panel"), N_("A hero's skills and challenge; some then ask you to click a target")),
    (
        N_("Hover or click any formation in sight"),
        N_("Its card: men, morale, fatigue, reach, hero and what it is doing"),
    ),
    ("H", N_("Shade every hex the enemies in sight could strike next turn")),
    ("K", N_("The legend of the marks on a banner")),
    ("N", N_("The list of your formations; a click centres the map on one")),
    ("L", N_("Open the whole battle's log; the wheel over it scrolls it")),
    ("P", N_("Place names and the outlines of the places the objectives name")),
    (N_("Click the minimap"), N_("Move the view there")),
    ("O", N_("Show or hide the objectives")),
    (N_("Space"), N_("Show the computer's moves fast, or one by one again")),
    (N_("Esc while the computer moves"), N_("Do not show the rest of its turn (its moves are still made)")),
    (N_("Esc with nothing selected"), N_("The battle menu: save, load, settings, help, leave")),
    ("F1", N_("This help")),
    ("F2", N_("The save screen")),
    ("F5 / F9", N_("Quick save / quick load")),
)


def key_rows() -> list[tuple[str, str]]:
    """Every key and click of the battle, translated."""
    rows = [*MOUSE_ROWS, *ORDER_ROWS.values(), *OTHER_ROWS]
    return [(_(keys), _(does)) for keys, does in rows]


def keys_text(rules: Ruleset) -> list[str]:
    return [
        _(
            "Each side in turn gives its orders. A formation may move and then act once: attack, "
            "shoot, capture souls, rest or use a skill. In the help, Up and Down change the page."
        )
    ]


# -- the rules ------------------------------------------------------------------------------


def zoc_text(rules: Ruleset) -> list[str]:
    slip = _units(rules, lambda u: bool(movement.ZOC_IGNORING.intersection(u.abilities)))
    return [
        _(
            "Every formed formation holds a zone of control: the six hexes around it. An enemy "
            "that steps into the zone stops there for the turn, though it may still attack. A "
            "formation that starts inside a zone may walk out of it, but it stops again at the "
            "first hex of a zone it enters."
        ),
        _(
            "Friends can be passed through, enemies never, and only one formation stands on a "
            "hex. {names} slip through zones of control; a routed formation holds none."
        ).format(names=_names(slip)),
    ]


def flanks_text(rules: Ruleset) -> list[str]:
    return [
        _(
            "Each friend standing next to the enemy you attack adds {flank}% to your blow, up to "
            "{most} friends. A friend on the hex directly opposite you closes a pincer: {pincer}% "
            "more, and the shock alone costs the defender {shock} morale."
        ).format(
            flank=combat.FLANK_BONUS,
            most=combat.MAX_FLANKERS,
            pincer=combat.PINCER_BONUS,
            shock=combat.PINCER_SHOCK,
        ),
        _(
            "Routed friends do not count, and only blows in melee are helped. The defender "
            "strikes back with the men it has left, unless it is routed or taken by surprise. "
            "The forecast names every modifier before you commit."
        ),
    ]


def charge_text(rules: Ruleset) -> list[str]:
    chargers = _units(rules, lambda u: "charge" in u.abilities)
    open_ground = [t for t in rules.terrain.values() if t.open]
    return [
        _(
            "Horsemen who can charge ({names}) strike {bonus}% harder when the last {run} hexes "
            "of their move were open ground, and the shock costs the defender {shock} morale."
        ).format(names=_names(chargers), bonus=combat.CHARGE_BONUS, run=combat.CHARGE_RUN, shock=combat.CHARGE_SHOCK),
        _(
            "Open ground is {open}; any other hex breaks the run and the count starts again. So "
            "ride in over the open and strike in the same turn."
        ).format(open=_ground(open_ground)),
    ]


def morale_text(rules: Ruleset) -> list[str]:
    tenth = round(morale.LOSS_MORALE_PER_PERCENT * 10)
    return [
        _(
            "Morale is the bar left of each banner. It falls with losses ({tenth} for every tenth "
            "of the men lost in one blow), with the shock of pincers, charges and surprise, and by "
            "{nearby} when a friend within {radius} hexes routs."
        ).format(tenth=tenth, nearby=morale.NEARBY_ROUT_MORALE, radius=morale.NEARBY_ROUT_RADIUS),
        _(
            "Below its threshold a formation routs (溃): it takes no orders, holds no zone of "
            "control, strikes no blow back, and is hit {caught}% harder."
        ).format(caught=combat.ROUTED_BONUS),
        _(
            "At the start of its turn it flees if an enemy is within {flee} hexes. With none "
            "within {clear} it rallies by {rally} a turn (twice that near a friendly hero, less "
            "when tired) and re-forms {margin} above its threshold."
        ).format(
            flee=morale.FLEE_TRIGGER,
            clear=morale.RALLY_CLEAR,
            rally=morale.RALLY_MORALE,
            margin=morale.RALLY_MARGIN,
        ),
        _("A formation with no way out fights {bonus}% harder: death ground.").format(bonus=combat.DEATH_GROUND_BONUS),
        _(
            "A routed formation with enemies within {radius} hexes on two sides can only run along "
            "the open side between them: {stragglers} men in a hundred fall as it runs, and capturers "
            "bag it {factor} times as fast."
        ).format(
            radius=herding.HEMMED_RADIUS,
            stragglers=herding.HEMMED_STRAGGLERS,
            factor=herding.HEMMED_BAG_FACTOR,
        ),
    ]


# Fatigue takes power from this much on, half its value in percent, never more than the cap
# (game.core.combat._side_modifiers; a test checks both).
FATIGUE_FELT = 10
FATIGUE_CAP = 50


def fatigue_text(rules: Ruleset) -> list[str]:
    return [
        _(
            "A march costs {move} fatigue, a forced march {forced}, an attack {attack} and being "
            "attacked {defend}; retainers tire twice as fast. From {felt} fatigue on, a formation "
            "strikes weaker by half its fatigue in percent, at most {cap}%."
        ).format(
            move=fatigue.MOVE_FATIGUE,
            forced=fatigue.FORCED_MARCH_FATIGUE,
            attack=fatigue.ATTACK_FATIGUE,
            defend=fatigue.DEFEND_FATIGUE,
            felt=FATIGUE_FELT,
            cap=FATIGUE_CAP,
        ),
        _(
            "Forced march (F, before moving) carries a formation half as far again; above "
            "{most} fatigue it cannot force-march."
        ).format(most=movement.MAX_FATIGUE_TO_FORCE),
        _(
            "A formation that neither moves nor acts sheds {idle} at the start of its next turn. "
            "Rest (R, instead of moving) sheds {rest} and restores {morale} morale."
        ).format(idle=fatigue.IDLE_FATIGUE, rest=fatigue.REST_FATIGUE, morale=fatigue.REST_MORALE),
    ]


def souls_text(rules: Ruleset) -> list[str]:
    units = rules.units
    return [
        _(
            "Every man who falls becomes a wandering soul (魂) on the hex where he fell. Capture "
            "(C) spends a formation's action, after its move if you like, to bag the enemy souls "
            "on its own hex and the six around it into your side's pouch."
        ),
        _(
            "{best} bag up to {best_n} souls for every hundred men, {other} only {other_n}. A "
            "routed soul formation beside the capturers is bagged first, as many of its men as "
            "they can take."
        ).format(
            best=_(units["retainer"].name),
            best_n=round(100 * units["retainer"].capture_rate),
            other=_(units["han_soldier"].name),
            other_n=round(100 * units["han_soldier"].capture_rate),
        ),
        _(
            "Hailing souls left lying drift back into their host, a third each turn, unless an "
            "enemy stands on or beside them; other souls fade, a quarter each turn. The pouch wins "
            "objectives, and in a campaign it pays for the camp."
        ),
    ]


def fog_text(rules: Ruleset) -> list[str]:
    visions = [u.vision for u in rules.units.values()]
    terrain = rules.terrain.values()
    return [
        _(
            "You see what your formations and your allies see: {low} to {high} hexes by troop "
            "type, farther from high ground ({heights}). The view ends at {blocking}: what lies "
            "behind them is hidden."
        ).format(
            low=min(visions),
            high=max(visions),
            heights=_ground([t for t in terrain if t.vision_bonus > 0]),
            blocking=_ground([t for t in terrain if t.blocks_sight]),
        ),
        _(
            "Ambushers (伏) hidden in {cover} are seen only from next to them. A move stops at once "
            "when it springs an ambush, sights an enemy it had not seen, or enters the zone of "
            "control of one it now sees; such a move cannot be undone."
        ).format(cover=_ground([t for t in terrain if t.cover])),
        _(
            "An attack out of hiding is a surprise: {bonus}% harder, {shock} morale shock, and no blow comes back."
        ).format(bonus=combat.SURPRISE_BONUS, shock=combat.SURPRISE_SHOCK),
    ]


def missiles_text(rules: Ruleset) -> list[str]:
    bows = missile_type(rules)
    return [
        _(
            "{bows} shoot at an enemy up to {range} hexes away: select them and click the target. "
            "No blow comes back, but each volley spends one of their {ammo} shots (矢), and flanks, "
            "pincers and charges count only in melee."
        ).format(bows=_(bows.name), range=bows.range, ammo=bows.ammo),
        _(
            "Palm thunder (T, then a hex within {range}) strikes that hex and the six around it: "
            "every enemy seen there, never a friend. It uses one of {charges} charges (雷). "
            "Shooting or throwing ends the formation's turn, though it may move first."
        ).format(range=max(1, bows.range), charges=bows.area_charges),
    ]


def duels_text(rules: Ruleset) -> list[str]:
    return [
        _(
            "A hero next to an enemy hero may challenge him from the unit panel, which spends his "
            "action. Refusing costs the refuser {refuse} morale and heartens the challenger by {cheer}."
        ).format(refuse=-duel.REFUSE_MORALE, cheer=duel.CHALLENGER_MORALE),
        _(
            "A duel lasts several turns, one exchange a side-turn: martial skill plus a roll of 1 to "
            "{roll}, plus {support} for each friend next to either hero (at most {most}), less a point "
            "for every {weary} of his men's fatigue. The better score lands a blow; scores within "
            "{clash} of each other trade blows. The first to land {wins} blows ends it: ahead by "
            "{margin} or more, the other hero is wounded; closer, both are."
        ).format(
            roll=duel.ROLL,
            support=duel.SUPPORT,
            most=duel.MAX_SUPPORTERS,
            weary=duel.WEARINESS,
            clash=duel.CLASH - 1,
            wins=duel.WINS_NEEDED,
            margin=duel.CLOSE + 1,
        ),
        _(
            "While they fight, the two formations stay locked together and nobody may strike them; "
            "fighting within {radius} hexes of them goes at half strength while both armies watch. "
            "Each hero fights the next exchange on his side's turn; a duel left for a whole turn is "
            "broken off."
        ).format(radius=duel.WATCH_RADIUS),
        _(
            "A wounded hero leaves the field: his formation loses {own} morale and friends within "
            "{radius} hexes {near}, while the winner gains {win} and his friends {win_near}."
        ).format(
            own=-duel.LOSER_MORALE,
            radius=duel.RADIUS,
            near=-duel.LOSER_SIDE_MORALE,
            win=duel.WINNER_MORALE,
            win_near=duel.WINNER_SIDE_MORALE,
        ),
    ]


PAGES: tuple[Page, ...] = (
    Page("keys", N_("Keys and mouse"), keys_text),
    Page("zoc", N_("Zones of control"), zoc_text),
    Page("flanks", N_("Flanks and pincers"), flanks_text),
    Page("charge", N_("Charge"), charge_text),
    Page("morale", N_("Morale and rout"), morale_text),
    Page("fatigue", N_("Fatigue and forced march"), fatigue_text),
    Page("souls", N_("Souls and capture"), souls_text),
    Page("fog", N_("Fog and ambush"), fog_text),
    Page("missiles", N_("Missiles and palm thunder"), missiles_text),
    Page("duels", N_("Duels"), duels_text),
)
PAGE_IDS = tuple(p.id for p in PAGES)


def page(page_id: str) -> Page:
    return next(p for p in PAGES if p.id == page_id)
