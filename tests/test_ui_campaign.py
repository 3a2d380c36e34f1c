"""The campaign screens headless: begin a campaign, fight, count the battle, the camp's orders,
a retry after a defeat, progress saved all the way."""

from __future__ import annotations

import warnings
from functools import partial
from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import at_each_scale, current, in_roster, root_elements, saves_folder_at
from pygame_gui.elements import UIButton

from game import i18n
from game.content.campaigns import load_campaigns
from game.core.actions import EndTurn
from game.core.campaign import CampaignProgress
from game.core.campaign_spec import CampaignSpec
from game.record.campaign_run import CampaignRun
from game.record.campaign_saves import load_progress
from game.ui import scale
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.briefing import BriefingScene
from game.ui.camp import CampScene
from game.ui.campaign_menu import CampaignMenuScene
from game.ui.menu import MenuScene
from game.ui.result import ResultScene
from game.ui.scene import Scene

SIZE = (1280, 800)


# The screens are checked in English (their own tests switch language where it matters).
pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def two_battles(monkeypatch: pytest.MonkeyPatch) -> CampaignSpec:
    """The Yuqing campaign as two battles (the valley mouth twice), so a camp lies between them."""
    campaigns = load_campaigns()
    spec = campaigns.campaigns["yuqing"]
    longer = spec.model_copy(update={"scenarios": (spec.scenarios[0], spec.scenarios[0])})
    monkeypatch.setitem(campaigns.campaigns, "yuqing", longer)
    return longer


def push(app: App, button: object) -> None:
    assert isinstance(button, UIButton), button
    assert button.is_enabled, button.text
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)], 0.0)
    app.step([], 0.0)


def saved_progress(folder: Path) -> CampaignProgress:
    """The Yuqing campaign's progress as saved in ``folder`` (the test expects one there)."""
    progress = load_progress("yuqing", folder)
    assert progress is not None
    return progress


def begin(app: App, saves: Path) -> BattleScene:
    menu = CampaignMenuScene(app, saves)
    app.switch(menu)
    app.step([], 0.0)
    push(app, menu.new_buttons["yuqing"])
    push(app, current(app, BriefingScene).battle_button)
    return current(app, BattleScene)


def end_battle(app: App, battle: BattleScene, winner: str, pouch: int = 0) -> ResultScene:
    state = battle.match.state
    state.side("coalition").pouch = pouch
    state.over, state.winner, state.end_reason = True, winner, "scenario_event"
    app.switch(ResultScene(app, battle.match))
    app.step([], 0.0)
    return current(app, ResultScene)


def test_the_main_menu_opens_the_campaigns(app: App) -> None:
    menu = MenuScene(app)
    app.switch(menu)
    push(app, menu.campaign_button)
    current(app, CampaignMenuScene)


def test_a_campaign_battle_is_the_players_side_against_the_computer_at_the_chosen_level(
    app: App, tmp_path: Path
) -> None:
    battle = begin(app, tmp_path)
    settings = battle.match.record.settings
    assert battle.match.seats.commanders() == {"coalition": "human", "hailing": "ai"}
    assert settings.difficulty == "normal" and settings.roster is not None
    assert saved_progress(tmp_path).stage == 0  # saved as soon as it began


def test_a_victory_is_counted_once_and_the_camp_spends_its_coins(
    app: App, tmp_path: Path, two_battles: CampaignSpec
) -> None:
    battle = begin(app, tmp_path)
    battle.match.state.formations["han_xin_5000"].men = 4000
    result = end_battle(app, battle, "coalition", pouch=5_000)
    ResultScene(app, battle.match)  # built again (a resize): still counted once
    saved = saved_progress(tmp_path)
    assert (saved.stage, saved.coins) == (1, 5_000 // two_battles.souls_per_coin)
    carried = in_roster(saved.roster, "han_xin").men
    assert 4000 < carried < 5000  # some of the wounded come back
    push(app, result.camp_button)
    camp = app.scene
    assert isinstance(camp, CampScene)
    replenish = next(
        b
        for b, order in camp.actions.items()
        if isinstance(order, partial) and order.keywords.get("key") == "han_xin" and order.func.__name__ == "replenish"
    )
    push(app, replenish)
    saved = saved_progress(tmp_path)
    assert in_roster(saved.roster, "han_xin").men > carried
    assert saved.coins < 5_000 // two_battles.souls_per_coin
    push(app, current(app, CampScene).march_button)
    push(app, current(app, BriefingScene).battle_button)
    assert (
        current(app, BattleScene).match.state.formations["han_xin_5000"].men == in_roster(saved.roster, "han_xin").men
    )


def test_a_defeat_can_be_fought_again_with_a_fresh_seed(app: App, tmp_path: Path) -> None:
    battle = begin(app, tmp_path)
    first_seed = battle.match.record.seed
    result = end_battle(app, battle, "hailing", pouch=9_000)
    assert result.camp_button is None
    saved = saved_progress(tmp_path)
    assert (saved.stage, saved.attempts, saved.coins) == (0, 1, 0)
    push(app, result.retry_button)
    push(app, current(app, BriefingScene).battle_button)
    assert current(app, BattleScene).match.record.seed != first_seed


def test_beginning_anew_asks_first(app: App, tmp_path: Path) -> None:
    begin(app, tmp_path)
    menu = CampaignMenuScene(app, tmp_path)
    app.switch(menu)
    app.step([], 0.0)
    assert "yuqing" in menu.continue_buttons
    push(app, menu.new_buttons["yuqing"])
    current(app, CampaignMenuScene)
    assert menu.confirming == "yuqing"
    push(app, menu.new_buttons["yuqing"])
    current(app, BriefingScene)


def test_a_damaged_progress_file_is_reported_and_left_alone(app: App, tmp_path: Path) -> None:
    path = tmp_path / "campaign-yuqing.json"
    path.write_text("{ not json", encoding="utf-8")
    menu = CampaignMenuScene(app, tmp_path)
    app.switch(menu)
    app.step([], 0.0)
    assert "invalid JSON" in menu.problems["yuqing"]
    assert path.read_text(encoding="utf-8") == "{ not json"


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_campaign_screens_fit_their_labels(app: App, tmp_path: Path, two_battles: CampaignSpec, lang: str) -> None:
    i18n.set_language(lang)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        battle = begin(app, tmp_path)
        result = end_battle(app, battle, "coalition", pouch=3_000)
        push(app, result.camp_button)
        app.step([], 0.0)
    clipped = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert clipped == []


def test_a_quickload_in_a_campaign_battle_still_counts_for_the_campaign(
    app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    app.saves = saves_folder_at(tmp_path / "quick")
    battle = begin(app, tmp_path)
    run = battle.match.campaign
    for key in (pygame.K_F5, pygame.K_F9):
        app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)], 0.0)
    assert current(app, BattleScene).match is not battle.match
    assert current(app, BattleScene).match.campaign is run


def test_after_a_lost_battle_the_cards_say_what_happens_and_count_nothing_that_is_not_there(
    app: App, tmp_path: Path
) -> None:
    from game.ui.campaign_menu import army_line

    battle = begin(app, tmp_path)
    result = end_battle(app, battle, "hailing", pouch=9_000)
    card = result.campaign_card()
    assert "fight it again" in card and "soul coins" not in card
    assert result.story()[0].text == card  # the first thing the story box says
    spec = load_campaigns().campaigns["yuqing"]
    line = army_line(spec, saved_progress(tmp_path))
    assert "soul coins" not in line and "formation" not in line
    assert "Lost 1 time: Continue fights it again." in line


def test_after_a_won_battle_the_cards_give_the_real_numbers(
    app: App, tmp_path: Path, two_battles: CampaignSpec
) -> None:
    from game.ui.campaign_menu import army_line

    battle = begin(app, tmp_path)
    result = end_battle(app, battle, "coalition", pouch=5_000)
    progress = saved_progress(tmp_path)
    coins, carried = 5_000 // two_battles.souls_per_coin, len(progress.roster.formations)
    assert carried > 0
    card = result.campaign_card()
    assert f"5,000 souls from the pouch become {coins} soul coins; the war chest holds {coins}." in card
    assert f"{carried} formations march on to the next battle." in card
    line = army_line(two_battles, progress)
    assert line.startswith(f"{coins} soul coins · {carried} formations") and "Lost" not in line


def _buttons(scene: Scene | None) -> list[pygame.Rect]:
    return [e.rect for e in root_elements(scene) if isinstance(e, UIButton)]


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_campaign_screens_grow_with_the_ui_scale_at_4k(tmp_path: Path, two_battles: CampaignSpec, lang: str) -> None:
    """At 200% on a 4K screen the menu, briefing, result and camp keep every label whole and
    inside the window, and their buttons are twice as tall as at 100%, not only their text."""
    i18n.set_language(lang)

    def screens(big: App) -> list[list[pygame.Rect]]:
        folder = tmp_path / str(scale.ui_scale())
        battle = begin(big, folder)
        run = battle.match.campaign
        result = end_battle(big, battle, "coalition", pouch=3_000)
        shown = [_buttons(result)]
        push(big, result.camp_button)
        shown.append(_buttons(big.scene))
        for route, kwargs in (("briefing", {"run": run}), ("campaigns", {"saves_dir": folder})):
            big.go(route, **kwargs)
            big.step([], 0.0)
            shown.append(_buttons(big.scene))
        return shown

    measured = at_each_scale(screens)
    window = pygame.Rect(0, 0, 3840, 2160)
    heights = {}
    for percent, (shown, cut) in measured.items():
        assert cut == []
        assert all(rects and all(window.contains(r) for r in rects) for rects in shown)
        heights[percent] = [min(r.height for r in rects) for rects in shown]
    assert all(big >= 1.8 * small for small, big in zip(heights[100], heights[200], strict=True)), heights


# -- the campaign's decisions and endings ---------------------------------------------------------


def option_button(camp: CampScene, option_id: str) -> UIButton:
    assert camp.decision is not None
    return next(b for b, o in camp.decision.buttons.items() if o == option_id)


def to_camp_past_the_aim(app: App, tmp_path: Path) -> CampScene:
    battle = begin(app, tmp_path)
    result = end_battle(app, battle, "coalition", pouch=61_000)
    assert "Du Xuan's counsel at sixty thousand" in result.campaign_card()
    push(app, result.camp_button)
    return current(app, CampScene)


def test_the_camp_after_the_war_aim_is_passed_puts_du_xuans_counsel_and_holds_the_march(
    app: App, tmp_path: Path, two_battles: CampaignSpec
) -> None:
    camp = to_camp_past_the_aim(app, tmp_path)
    assert camp.march_button is None and not camp.actions  # no orders, no march, until it is decided
    assert camp.decision is not None
    assert [b.text for b in camp.decision.buttons] == ["Stop at sixty thousand", "March on for annihilation"]
    said = [outcome for _rect, _text, outcome in camp.decision.rows]
    assert said[0] == "Ending: Sixty Thousand"
    assert said[1] == "Next battle: The Valley Mouth"
    push(app, option_button(camp, "stop"))
    saved = saved_progress(tmp_path)
    assert saved.decisions == {"war_aim": "stop"} and saved.ending == "aim_met"
    camp = current(app, CampScene)
    assert camp.ending is not None
    assert camp.march_button is None and camp.ending.ending.title == "Sixty Thousand"
    menu = CampaignMenuScene(app, tmp_path)
    app.switch(menu)
    app.step([], 0.0)
    assert menu.continue_buttons["yuqing"].text == "Read the ending"  # the campaign is over
    push(app, menu.continue_buttons["yuqing"])
    ending = current(app, CampScene).ending
    assert ending is not None and ending.ending.title == "Sixty Thousand"


def test_marching_on_past_the_war_aim_opens_the_next_battle(
    app: App, tmp_path: Path, two_battles: CampaignSpec
) -> None:
    camp = to_camp_past_the_aim(app, tmp_path)
    push(app, option_button(camp, "march_on"))
    assert saved_progress(tmp_path).decisions == {"war_aim": "march_on"}
    camp = current(app, CampScene)
    assert camp.decision is None and camp.march_button is not None and camp.actions
    push(app, camp.march_button)
    current(app, BriefingScene)


@pytest.fixture
def last_battle(monkeypatch: pytest.MonkeyPatch) -> CampaignSpec:
    """The Yuqing campaign as its last battle alone, so its ending follows the first victory."""
    campaigns = load_campaigns()
    spec = campaigns.campaigns["yuqing"]
    short = spec.model_copy(update={"scenarios": ("a4_annihilation",)})
    monkeypatch.setitem(campaigns.campaigns, "yuqing", short)
    return short


def test_after_the_annihilation_the_camp_reads_the_note_on_the_helmet(
    app: App, tmp_path: Path, last_battle: CampaignSpec
) -> None:
    battle = begin(app, tmp_path)
    # As the chronicle has it: the prince got away, and the thirteen tied the note on.
    battle.match.state.objectives.update({"take_liang": "failed", "helmet_note": "done"})
    result = end_battle(app, battle, "coalition", pouch=20_000)
    story = " ".join(p.text for p in result.story())
    assert "more to tell before the day is out" in story  # the campaign's own debriefing
    assert "rolled up inside it" not in story  # not the battle's, which tells the note
    push(app, result.camp_button)
    camp = current(app, CampScene)
    assert camp.decision is None  # nothing to decide: nobody is paid for the prince
    ending = camp.ending
    assert ending is not None and ending.ending.title == "The Note on the Helmet"
    assert ending.last_rect is not None and ending.last_rect.top >= ending.rect.bottom
    assert "General Yeli" in ending.last_words()


def test_a_player_who_takes_wanyan_liang_earns_a_better_ending_than_history(
    app: App, tmp_path: Path, last_battle: CampaignSpec
) -> None:
    battle = begin(app, tmp_path)
    battle.match.state.objectives.update({"take_liang": "done", "helmet_note": "open"})
    push(app, end_battle(app, battle, "coalition", pouch=20_000).camp_button)
    ending = current(app, CampScene).ending
    assert ending is not None and ending.ending.title == "The Prince in the Pouch"
    assert ending.last_rect is None  # no note: he never had to read one


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_the_decision_and_the_ending_fit_their_labels(
    app: App, tmp_path: Path, two_battles: CampaignSpec, lang: str
) -> None:
    i18n.set_language(lang)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        battle = begin(app, tmp_path)
        push(app, end_battle(app, battle, "coalition", pouch=61_000).camp_button)
        push(app, option_button(current(app, CampScene), "stop"))
        app.step([], 0.0)
    clipped = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert clipped == []


def test_the_zhenguo_camp_tells_how_yue_fei_went_to_dongjing(app: App, tmp_path: Path) -> None:
    from game.core import campaign as camp
    from game.record.campaign_run import CampaignRun

    campaigns = load_campaigns()
    spec = campaigns.campaigns["zhenguo"]
    results = [camp.BattleResult(scenario_id=s, won=True, turns=8, souls=900, coins=36) for s in spec.scenarios]
    progress = camp.new_progress(spec, seed=3).model_copy(update={"stage": len(spec.scenarios), "results": results})
    app.switch(CampScene(app, CampaignRun(campaigns, spec, progress, tmp_path)))
    app.step([], 0.0)
    scene = current(app, CampScene)
    assert scene.decision is None and scene.march_button is None
    assert scene.ending is not None and scene.ending.ending.title == "The Lantern Festival"
    assert any("Lantern Festival" in text for text in scene.ending.paragraphs)


def test_a_player_who_takes_wuzhu_at_the_tangut_border_earns_a_better_ending_than_history(
    app: App, tmp_path: Path
) -> None:
    from game.core import campaign as camp
    from game.record.campaign_run import CampaignRun

    campaigns = load_campaigns()
    spec = campaigns.campaigns["zhenguo"]
    results = [camp.BattleResult(scenario_id=s, won=True, turns=8, souls=900, coins=36) for s in spec.scenarios]
    results[-1] = results[-1].model_copy(update={"objectives": {"wound_wuzhu": "done", "take_wuzhu": "done"}})
    progress = camp.new_progress(spec, seed=3).model_copy(update={"stage": len(spec.scenarios), "results": results})
    app.switch(CampScene(app, CampaignRun(campaigns, spec, progress, tmp_path)))
    app.step([], 0.0)
    scene = current(app, CampScene)
    assert scene.ending is not None and scene.ending.ending.title == "No Road to Xingqing"
    assert any("Xingqing" in text for text in scene.ending.paragraphs)


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_every_endings_title_line_fits_a_small_window(tmp_path: Path, lang: str) -> None:
    """At 800x560 the camp's title line (the ending's title and the campaign's) is drawn small
    enough to stay inside the page, for every ending of every campaign."""
    from game.core import campaign as camp
    from game.ui.camp import heading_size
    from game.ui.fonts import font

    i18n.set_language(lang)
    app = App((800, 560))
    campaigns = load_campaigns()
    spec = campaigns.campaigns["zhenguo"]
    progress = camp.new_progress(spec, seed=3)
    scene = CampScene(app, CampaignRun(campaigns, spec, progress, tmp_path))
    app.switch(scene)
    app.step([], 0.0)
    for campaign in campaigns.campaigns.values():
        for ending in campaign.endings.values():
            title = f"{i18n._(ending.title)} · {i18n._(campaign.title)}"
            assert font(heading_size(title, scene.width), True).size(title)[0] <= scene.width, title


def test_the_decision_and_the_ending_grow_with_the_ui_scale_at_4k(tmp_path: Path, two_battles: CampaignSpec) -> None:
    """At 200% on a 4K screen the counsel's courses and the ending stay inside the window, the
    course buttons twice as tall as at 100%."""

    def counsel(big: App) -> tuple[list[pygame.Rect], pygame.Rect]:
        battle = begin(big, tmp_path / str(scale.ui_scale()))
        push(big, end_battle(big, battle, "coalition", pouch=61_000).camp_button)
        camp = current(big, CampScene)
        assert camp.decision is not None
        rects = [b.rect for b in camp.decision.buttons]
        push(big, option_button(camp, "stop"))
        ending = current(big, CampScene).ending
        assert ending is not None
        return rects, ending.rect

    measured = at_each_scale(counsel)
    window = pygame.Rect(0, 0, 3840, 2160)
    for (rects, ending), cut in measured.values():
        assert cut == [] and all(window.contains(r) for r in rects) and window.contains(ending)
    assert min(r.height for r in measured[200][0][0]) >= 1.8 * min(r.height for r in measured[100][0][0])


def test_the_camp_spends_nothing_on_a_formation_the_next_battle_leaves_behind(app: App, tmp_path: Path) -> None:
    """After the valley Guo Yaoshi rides after the routed: at the camp before the Pursuit his
    row says he stays in camp and offers no order; Yue Fei's row keeps its orders."""
    from pygame_gui.core import UIContainer
    from pygame_gui.elements import UILabel

    from game.core import campaign as camp
    from game.core.roster import CarriedFormation, Roster
    from game.record.campaign_run import CampaignRun

    campaigns = load_campaigns()
    spec = campaigns.campaigns["zhenguo"]
    roster = Roster(
        side="zhenguo",
        formations=[
            CarriedFormation(key="yue_fei", type="zhenguo_rider", hero="yue_fei", men=4000, max_men=6200),
            CarriedFormation(key="guo_yaoshi", type="zhenguo_rider", hero="guo_yaoshi", men=3000, max_men=4000),
        ],
    )
    won = camp.BattleResult(scenario_id=spec.scenarios[0], won=True, turns=8, souls=900, coins=36)
    progress = camp.new_progress(spec, seed=3).model_copy(
        update={"stage": 1, "results": [won], "roster": roster, "coins": 500}
    )
    app.switch(CampScene(app, CampaignRun(campaigns, spec, progress, tmp_path)))
    app.step([], 0.0)
    scene = current(app, CampScene)
    rows_box = scene.container.get_container()
    assert isinstance(rows_box, UIContainer)
    labels = [e for e in rows_box.elements if isinstance(e, UILabel)]
    stays = [e for e in labels if e.text.startswith("Stays in camp")]
    assert len(stays) == 1 and stays[0].rect.top > labels[0].rect.top  # the second row: Guo's
    rows = sorted({round(e.rect.top) for e in labels})
    orders_by_row = {top: [b for b in scene.actions if round(b.rect.top) == top] for top in rows}
    assert orders_by_row[rows[0]] and not orders_by_row[rows[1]]


def test_continue_resumes_the_battle_in_progress_where_it_was_saved(app: App, tmp_path: Path) -> None:
    app.saves = saves_folder_at(tmp_path)
    battle = begin(app, tmp_path)
    match = battle.match
    while match.state.turn < 6 or match.state.active_side.id != "coalition":
        match.apply(EndTurn())  # both sides stand: the battle left at turn 6
    assert match.state.turn == 6 and match.state.active_side.id == "coalition"
    battle.save_progress()
    app.go("menu")
    menu = CampaignMenuScene(app, tmp_path)
    app.switch(menu)
    app.step([], 0.0)
    push(app, menu.continue_buttons["yuqing"])
    resumed = app.scene
    assert isinstance(resumed, BattleScene) and resumed.match is not match
    assert resumed.match.state.turn == 6 and resumed.match.record.seed == match.record.seed
    run = resumed.match.campaign
    assert isinstance(run, CampaignRun) and run.scenario_id == "a1_valley_mouth"
    assert any("resumes at turn 6" in line for line in resumed.log.lines)


def test_continue_begins_the_battle_at_its_briefing_when_none_of_it_was_saved(app: App, tmp_path: Path) -> None:
    app.saves = saves_folder_at(tmp_path / "elsewhere")
    begin(app, tmp_path)
    for path in (tmp_path / "elsewhere").glob("*.json"):
        path.unlink()  # even the autosave it was given as it began
    menu = CampaignMenuScene(app, tmp_path)
    app.switch(menu)
    app.step([], 0.0)
    push(app, menu.continue_buttons["yuqing"])
    assert isinstance(app.scene, BriefingScene)


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_the_campaign_briefing_scrolls_its_story_in_a_small_window_and_keeps_the_objectives_in_the_panel(
    tmp_path: Path, lang: str
) -> None:
    """The briefing over the board leaves the story out after this page, so here it must be read
    whole: at 800x560 the Tangut border's story scrolls (it used to be cut after six lines, the
    warnings at its end with it) and the objectives stop above the turns' line instead of running
    over it and under the buttons."""
    from game.core import campaign as camp
    from game.ui.pages import BACKGROUND
    from game.ui.scale import px

    def uniform(surface: pygame.Surface, rect: pygame.Rect | pygame.FRect) -> bool:
        area = surface.subsurface(rect)
        same = pygame.mask.from_threshold(area, area.get_at((0, 0)), (1, 1, 1, 255)).count()
        return same == rect.width * rect.height

    i18n.set_language(lang)
    try:
        small = App((800, 560))
        campaigns = load_campaigns()
        spec = campaigns.campaigns["zhenguo"]
        stage = spec.scenarios.index("b3_tangut_border")
        progress = camp.new_progress(spec, seed=3).model_copy(update={"stage": stage})
        scene = small.go("briefing", run=CampaignRun(campaigns, spec, progress, tmp_path))
        assert isinstance(scene, BriefingScene)
        x, width, _top, objectives_at, bottom = scene._layout()
        _x, _width, panel_box = scene._frame()
        story = scene.story_box
        lines = scene._story_lines(width)
        assert story.scroll_bar is not None and lines[-1].strip() in story.html_text
        assert story.rect.bottom <= objectives_at and panel_box.contains(story.rect)
        surface = pygame.Surface(small.size)
        scene.draw(surface)
        # Nothing drawn between the objectives' last room and the turns' line, nor under the buttons.
        assert uniform(surface, pygame.Rect(x, bottom + 2, width, panel_box.bottom - px(30) - bottom - 4))
        for button in (scene.battle_button, scene.back_button):
            assert not button.relative_rect.colliderect(panel_box)
            assert surface.subsurface(button.relative_rect).get_at((0, 0))[:3] == BACKGROUND
            assert uniform(surface, button.relative_rect)
    finally:
        i18n.set_language("en")
