"""The encyclopedia: every kind of formation, ground, person of the chronicles, skill and the
pouch, each an entry whose figures are read from the rules and the scenarios (so it never says
other than the game does), in the reader's language.

Pure: no pygame, no files. The screen (game.ui.encyclopedia_screen) lays the entries out; the
battle opens it at a formation's entry from its card, and at a banner mark's from the legend.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.rules import Hero, Ruleset, Skill, TerrainType, UnitType
from ..core.scenario import Scenario
from ..core.scenario_events import Reinforce
from ..i18n import N_, _, format_men
from .names import hero_name

# Category ids, in the order the screen lists them, with their titles.
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("formations", N_("Formations")),
    ("terrain", N_("Ground")),
    ("people", N_("People of the chronicles")),
    ("skills", N_("Skills")),
    ("pouch", N_("The qiankun pouch")),
)

ABILITY_WORDS: dict[str, str] = {
    "skirmisher": N_("Skirmishers: no enemy zone of control holds them."),
    "infiltrator": N_("Infiltrators: no zone of control holds them, and they are hard to see."),
    "ambush": N_("Lie in ambush: they may hide in forest, hills and passes."),
    "charge": N_("Charge: riders who strike over open ground after a run."),
    "no_line_combat": N_("Do not fight formed troops: they may not attack a formation that stands."),
    "siege": N_("Siege: they may assault a fortress."),
    "soul": N_("Made of souls: routed, the whole formation can be bagged."),
    "sword_spirit": N_("One of the twelve spirits of the Sealing Sword."),
}

MOVE_CLASSES: dict[str, str] = {"foot": N_("on foot"), "horse": N_("mounted")}


@dataclass(frozen=True)
class Entry:
    id: str  # "<category>:<content id>", e.g. "formations:han_soldier"
    category: str
    title: str
    facts: tuple[tuple[str, str], ...]  # (what, value) rows
    text: tuple[str, ...]  # paragraphs


def entry_id(category: str, item: str) -> str:
    return f"{category}:{item}"


def _halves(half_hexes: int) -> str:
    """Movement points are half-hexes of open ground: a count of them said in hexes."""
    whole, half = divmod(half_hexes, 2)
    return f"{whole}½" if half and whole else ("½" if half else str(whole))


def _formation(rules: Ruleset, u: UnitType) -> Entry:
    facts: list[tuple[str, str]] = [
        (_("Army"), _(rules.factions[u.faction].name)),
        (
            _("Marching"),
            _("{n} hexes of open ground a turn, {how}").format(
                n=_halves(u.movement), how=_(MOVE_CLASSES.get(u.move_class, u.move_class))
            ),
        ),
        (_("Fighting power"), _("{n} a man").format(n=f"{u.melee:g}")),
        (_("Toughness"), _("{n} a man").format(n=f"{u.defence:g}")),
    ]
    if u.ranged > 0 and u.range > 0:
        shots = _("unlimited") if u.ammo is None else str(u.ammo)
        volleys = _("{n} a man, {range} hexes, volleys: {shots}").format(n=f"{u.ranged:g}", range=u.range, shots=shots)
        facts.append((_("Missiles"), volleys))
    if u.area_power > 0 and u.area_charges > 0:
        facts.append((_("Palm thunder"), _("{n} charges").format(n=u.area_charges)))
    facts += [
        (_("Sight"), _("{n} hexes").format(n=u.vision)),
        (_("Morale"), _("{morale}, breaks below {threshold}").format(morale=u.morale, threshold=u.rout_threshold)),
        (_("Bags souls"), _("up to {n} for every hundred men").format(n=format_men(round(100 * u.capture_rate)))),
    ]
    text = [_(u.description)] if u.description else []
    text += [_(ABILITY_WORDS[a]) for a in u.abilities if a in ABILITY_WORDS]
    return Entry(entry_id("formations", u.id), "formations", f"{_(u.name)} · {u.char}", tuple(facts), tuple(text))


def _terrain(rules: Ruleset, t: TerrainType) -> Entry:
    facts: list[tuple[str, str]] = []
    for move_class, cost in sorted(t.move_cost.items()):
        how = _("Marching {how}").format(how=_(MOVE_CLASSES.get(move_class, move_class)))
        facts.append((how, _("each hex as {n} hexes of open ground").format(n=_halves(cost))))
    if not t.move_cost:
        facts.append((_("Marching"), _("Impassable")))
    facts.append((_("Defence"), _("{n}% toughness to those who stand on it").format(n=f"{t.defence:+d}")))
    text: list[str] = []
    if t.cover:
        text.append(_("Troops who lie in ambush may hide here."))
    if t.blocks_sight:
        text.append(_("It blocks sight: what lies beyond is not seen across it."))
    if t.vision_bonus:
        text.append(_("Those who stand on it see {n} hexes further.").format(n=t.vision_bonus))
    if t.fortress:
        text.append(_("A fortress: only troops who can lay siege may assault it."))
    if not t.open:
        text.append(_("Broken ground: no charge can be ridden over it."))
    return Entry(entry_id("terrain", t.id), "terrain", _(t.name), tuple(facts), tuple(text))


def appearances(scenarios: Sequence[Scenario]) -> dict[str, list[str]]:
    """Hero id -> the titles of the battles in which the hero takes the field (at the start or
    with a column that arrives), in the order given."""
    out: dict[str, list[str]] = {}
    for sc in scenarios:
        heroes = {f.hero for f in sc.formations if f.hero}
        for event in sc.events:
            for action in event.actions:
                if isinstance(action, Reinforce):
                    heroes |= {f.hero for f in action.formations if f.hero}
        for hero in heroes:
            out.setdefault(hero, []).append(sc.title)
    return out


def _person(rules: Ruleset, h: Hero, battles: Sequence[str]) -> Entry:
    facts: list[tuple[str, str]] = [
        (_("Army"), _(rules.factions[h.faction].name)),
        (_("Leadership"), _("+{n}% to the formation led").format(n=h.leadership)),
        (_("Martial skill"), str(h.martial)),
    ]
    if h.skills:
        facts.append((_("Skills"), _(" · ").join(_(rules.skills[s].name) for s in h.skills if s in rules.skills)))
    text = [_(h.description)] if h.description else []
    if battles:
        text.append(_("Takes the field in: {battles}.").format(battles=_(", ").join(_(b) for b in battles)))
    return Entry(entry_id("people", h.id), "people", hero_name(rules, h.id), tuple(facts), tuple(text))


def _skill(rules: Ruleset, s: Skill) -> Entry:
    bearers = [hero_name(rules, h.id) for h in rules.heroes.values() if s.id in h.skills]
    facts: list[tuple[str, str]] = []
    if bearers:
        facts.append((_("Who"), _(", ").join(bearers)))
    if s.passive:
        facts.append((_("Use"), _("Always in force")))
    elif s.cooldown:
        facts.append((_("Use"), _("Again after {n} turns").format(n=s.cooldown)))
    if s.range:
        facts.append((_("Reach"), _("{n} hexes").format(n=s.range)))
    return Entry(entry_id("skills", s.id), "skills", _(s.name), tuple(facts), (_(s.description),))


def entries(
    rules: Ruleset,
    scenarios: Sequence[Scenario],
    pouch_text: Callable[[Ruleset], list[str]],
    souls_per_coin: int,
) -> list[Entry]:
    """Every entry, category by category in ``CATEGORIES`` order, alphabetical within one.
    ``pouch_text``: the rules' own words on souls and capture (the help's page)."""
    seen_in = appearances(scenarios)
    out: list[Entry] = []
    out += sorted((_formation(rules, u) for u in rules.units.values()), key=lambda e: e.title)
    out += sorted((_terrain(rules, t) for t in rules.terrain.values()), key=lambda e: e.title)
    out += sorted((_person(rules, h, seen_in.get(h.id, [])) for h in rules.heroes.values()), key=lambda e: e.title)
    out += sorted((_skill(rules, s) for s in rules.skills.values()), key=lambda e: e.title)
    camp = _(
        "In a campaign, the souls in the pouch after a victory become soul coins at the camp, one for "
        "every {n} souls, to replenish the formations, raise new ones and buy drill and quivers."
    ).format(n=souls_per_coin)
    out.append(Entry(entry_id("pouch", "pouch"), "pouch", _("The qiankun pouch"), (), (*pouch_text(rules), camp)))
    return out
