"""The encyclopedia: an entry for every kind of troops, ground, person and skill, and the pouch,
its figures the rules' own; the screen's navigation and fit in every language; and the battle's
ways into it (a clicked formation's card, a row of the legend)."""

from __future__ import annotations

import pygame
import pytest
from conftest import Unit, current, frame, open_field

from game import i18n
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario, scenario_ids
from game.core.rules import Ruleset
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.encyclopedia_screen import EncyclopediaScene, all_entries, render_entry
from game.ui.help_pages import souls_text
from game.ui.help_screen import HelpScene
from game.ui.legend import ENTRIES, MORE
from game.view.encyclopedia import CATEGORIES, appearances, entries

pytestmark = pytest.mark.usefixtures("english")


def everything() -> list:  # type: ignore[type-arg]
    scenarios = [load_scenario(s).scenario for s in scenario_ids()]
    return entries(load_ruleset(), scenarios, souls_text, 25)


def test_every_kind_of_troops_ground_person_and_skill_has_one_entry() -> None:
    rules = load_ruleset()
    found = everything()
    ids = [e.id for e in found]
    assert len(ids) == len(set(ids))
    assert {i for i in ids if i.startswith("formations:")} == {f"formations:{u}" for u in rules.units}
    assert {i for i in ids if i.startswith("terrain:")} == {f"terrain:{t}" for t in rules.terrain}
    assert {i for i in ids if i.startswith("people:")} == {f"people:{h}" for h in rules.heroes}
    assert {i for i in ids if i.startswith("skills:")} == {f"skills:{s}" for s in rules.skills}
    assert "pouch:pouch" in ids
    assert [c for c, _t in CATEGORIES] == list(dict.fromkeys(e.category for e in found)), "grouped in order"
    assert all(e.title and (e.facts or e.text) for e in found)


def test_an_entry_s_figures_are_the_rules_own() -> None:
    rules = load_ruleset()
    by_id = {e.id: e for e in everything()}
    warrior = rules.units["warrior"]
    facts = dict(by_id["formations:warrior"].facts)
    assert facts["Fighting power"] == f"{warrior.melee:g} a man"
    assert facts["Sight"] == f"{warrior.vision} hexes"
    assert facts["Marching"].startswith(f"{warrior.movement // 2}")
    assert str(warrior.rout_threshold) in facts["Morale"]
    road = dict(by_id["terrain:road"].facts)
    assert road["Defence"].startswith(f"{rules.terrain['road'].defence:+d}%")
    han_xin = dict(by_id["people:han_xin"].facts)
    assert han_xin["Leadership"] == f"+{rules.heroes['han_xin'].leadership}% to the formation led"
    assert rules.skills["open_the_lane"].name in han_xin["Skills"]


def test_each_person_is_said_to_fight_where_the_scenarios_put_them() -> None:
    scenarios = {s: load_scenario(s).scenario for s in scenario_ids()}
    seen = appearances(list(scenarios.values()))
    assert scenarios["a1_valley_mouth"].title in seen["han_xin"]
    assert all(scenarios[s].title in seen["yue_fei"] for s in ("b1_the_valley", "b3_tangut_border"))
    assert not any(scenarios[s].title in seen["yue_fei"] for s in scenarios if s.startswith("a"))
    text = " ".join(next(e for e in everything() if e.id == "people:yue_fei").text)
    assert scenarios["b1_the_valley"].title in text


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
@pytest.mark.parametrize("size", [(800, 560), (1920, 1080)])
def test_the_screen_fits_and_every_entry_draws_within_its_page(lang: str, size: tuple[int, int]) -> None:
    i18n.set_language(lang)
    try:
        app = App(size)
        app.go("encyclopedia", entry="people:han_xin")
        frame(app)
        scene = current(app, EncyclopediaScene)
        window = pygame.Rect((0, 0), size)
        for button in [*scene.category_buttons, scene.back_button]:
            assert window.contains(button.rect)
        width = scene.page_rect.width - 16 - 20 - 8
        for entry in all_entries(lang, i18n.story_script()):
            picture = render_entry(entry, width)
            assert picture.get_width() == width
            assert all(e.title != e.id for e in [entry])
    finally:
        i18n.set_language("en")


def test_the_keys_go_through_entries_and_categories_and_esc_goes_back(app: App) -> None:
    app.go("help")
    help_scene = current(app, HelpScene)
    app.open("encyclopedia", entry="skills")
    frame(app)
    scene = current(app, EncyclopediaScene)
    assert scene.entry().category == "skills", "a category opens at its first entry"
    first = scene.entry_id

    def press(key: int) -> None:
        frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))

    press(pygame.K_DOWN)
    assert scene.entry_id != first and scene.entry().category == "skills"
    press(pygame.K_UP)
    assert scene.entry_id == first
    press(pygame.K_RIGHT)
    assert scene.entry().category == "pouch"
    lit = [b for b, cid in scene.category_buttons.items() if cid == "pouch"]
    assert lit and lit[0].is_selected
    press(pygame.K_ESCAPE)
    assert app.scene is help_scene


UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (1, 3)),
    Unit("b_near", "b", "soul_levy", 1500, (3, 3)),
]


def click(app: App, pos: tuple[int, int]) -> None:
    frame(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def test_a_click_on_a_clicked_enemy_s_card_opens_its_troops_entry(app: App, rules: Ruleset) -> None:
    scene = open_field(app, rules, ("..........",) * 8, UNITS)
    scene.click_hex(scene.state.formations["b_near"].pos)  # looked at: its card stays
    scene.hover = None
    frame(app)
    card = scene.panels.card_panel
    assert card.rect.width > 0 and card.links
    click(app, card.rect.center)
    opened = current(app, EncyclopediaScene)
    assert opened.entry_id == "formations:soul_levy"
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    assert isinstance(app.scene, BattleScene)


def test_a_hovered_card_says_nothing_of_a_click_it_cannot_take(app: App, rules: Ruleset) -> None:
    scene = open_field(app, rules, ("..........",) * 8, UNITS)
    scene.hover = scene.state.formations["b_near"].pos
    frame(app)
    card = scene.panels.card_panel
    assert card.rect.width > 0 and not card.links
    assert card.entry_at(card.rect.center) is None


@pytest.mark.parametrize("mark", ["souls", "morale", "hero"])
def test_a_click_on_a_row_of_the_legend_opens_what_explains_the_mark(app: App, rules: Ruleset, mark: str) -> None:
    scene = open_field(app, rules, ("..........",) * 8, UNITS)
    scene.panels.legend.visible = True
    frame(app)
    row = next(r for e, r in scene.panels.legend._rows if e.id == mark)
    click(app, row.center)
    route, at = MORE[mark]
    if route == "encyclopedia":
        opened = current(app, EncyclopediaScene)
        assert opened.entry_id == at or opened.entry().category == at
    else:
        assert current(app, HelpScene).page_id == at


def test_every_mark_of_the_legend_leads_somewhere() -> None:
    assert {e.id for e in ENTRIES} == set(MORE)
