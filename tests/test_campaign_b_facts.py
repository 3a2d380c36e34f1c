"""Campaign B's texts tell the chronicle of Yue Fei's pursuit, in every language: no truce at the
Tangut border, Yue Fei carried to Dongjing in a cart, Wuzhu's weapon a saber, Tang Huai left with a
dozen men, Guo Yaoshi after the routed while Yue Fei alone relieves the hill, and the order to ride
light given before the rear guard broke."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from typing import Any

import pytest
from babel.messages.pofile import read_po
from conftest import strings_in

from game.paths import DATA_DIR, LOCALE_DIR, MAPS_DIR

SCENARIOS = ("b1_the_valley", "b2_the_pursuit", "b3_tangut_border")
LANGUAGES = ("en", "zh_CN", "zh_TW")


def toml(path: str) -> dict[str, Any]:
    return tomllib.loads((DATA_DIR / path).read_text(encoding="utf-8"))


def scenario(name: str) -> dict[str, Any]:
    return tomllib.loads((MAPS_DIR / f"{name}.toml").read_text(encoding="utf-8"))


@lru_cache
def catalog(lang: str) -> dict[str, str]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "qiankun.po").open("rb") as fh:
        return {m.id: str(m.string) for m in read_po(fh) if isinstance(m.id, str) and m.id}


def tr(text: str, lang: str) -> str:
    return text if lang == "en" else catalog(lang)[text]


def campaign_b_english() -> list[str]:
    """Every English string of campaign B: its scenarios, campaign, chronicle entries and people."""
    texts = [t for name in SCENARIOS for t in strings_in(scenario(name))]
    texts += strings_in(toml("campaigns.toml")["campaigns"]["zhenguo"])
    chronicle = toml("chronicle.toml")
    texts += [t for name in SCENARIOS for t in strings_in(chronicle[name])]
    heroes = toml("heroes.toml")
    texts += [t for hero in heroes.values() if hero["faction"] in ("zhenguo", "jin") for t in strings_in(hero)]
    return [t for t in texts if t in catalog("zh_CN")]  # text, not ids


def texts_in(lang: str) -> list[str]:
    return [tr(t, lang) for t in campaign_b_english()]


def narration(name: str, event: str, index: int = 0) -> str:
    events = scenario(name)["events"]
    said = [a["text"] for e in events if e["id"] == event for a in e["do"] if a["kind"] == "narrate"]
    return str(said[index])


def ending(key: str) -> str:
    return str(toml("campaigns.toml")["campaigns"]["zhenguo"]["endings"][key]["text"])


def test_the_texts_are_found() -> None:
    texts = campaign_b_english()
    assert len(texts) > 80 and ending("lanterns") in texts and narration("b3_tangut_border", "duel_joined") in texts


TRUCE = {
    "en": re.compile(r"\btruce|peace was made|made peace\b", re.IGNORECASE),
    "zh_CN": re.compile("和约|议和|停战|休战|和谈|盟约|讲和"),
    "zh_TW": re.compile("和約|議和|停戰|休戰|和談|盟約|講和"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_truce_is_made_in_any_language(lang: str) -> None:
    assert not [t[:60] for t in texts_in(lang) if TRUCE[lang].search(t)]


RIDING_TO_DONGJING = {
    "en": re.compile(r"\b(rode|rides|riding|ride|in the saddle)\b[^.]*\bDongjing|\bDongjing\b[^.]*\bin the saddle"),
    "zh_CN": re.compile(r"骑[着马][^。]*东京|策马[^。]*东京|凯旋"),
    "zh_TW": re.compile(r"騎[著馬][^。]*東京|策馬[^。]*東京|凱旋"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_yue_fei_is_carried_to_dongjing_in_a_cart_not_riding(lang: str) -> None:
    assert not [t[:60] for t in texts_in(lang) if RIDING_TO_DONGJING[lang].search(t)]
    lanterns = tr(ending("lanterns"), lang)
    words = {
        "en": ("cart", "Dongjing", "Lantern Festival", "Xingqing", "envoy", "Yuan Shisi", "Guo Yaoshi", "Han Xiaoyao"),
        "zh_CN": ("车", "东京", "上元", "兴庆", "使者", "元十四", "郭药师", "韩逍遥"),
        "zh_TW": ("車", "東京", "上元", "興慶", "使者", "元十四", "郭藥師", "韓逍遙"),
    }[lang]
    assert all(word in lanterns for word in words), [w for w in words if w not in lanterns]


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_wuzhus_weapon_is_a_saber(lang: str) -> None:
    """Wuzhu cut Yue Fei with a long saber (長刀), never a sword; Yue Fei has a saber and a spear."""
    assert not [t[:40] for t in texts_in(lang) if "剑" in t or "劍" in t]
    sabers = [t for t in campaign_b_english() if re.search(r"\bsaber\b", t)]
    assert len(sabers) >= 5
    assert not [t[:60] for t in sabers if "刀" not in tr(t, lang)]
    wuzhu = toml("heroes.toml")["wanyan_wuzhu"]["description"]
    assert "saber" in str(wuzhu) and "刀" in tr(str(wuzhu), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tang_huai_is_left_with_a_dozen_men_and_no_invented_count(lang: str) -> None:
    victory = tr(str(scenario("b1_the_valley")["debriefing_victory"]), lang)
    assert {"en": "dozen", "zh_CN": "十几", "zh_TW": "十幾"}[lang] in victory
    invented = {"en": "fourteen hundred", "zh_CN": "一千四百", "zh_TW": "一千四百"}[lang]
    assert not [t[:60] for t in texts_in(lang) if invented in t]


def test_b1_guo_yaoshi_runs_down_the_routed_and_yue_fei_alone_relieves_the_hill() -> None:
    victory = str(scenario("b1_the_valley")["debriefing_victory"])
    assert victory.index("Guo Yaoshi took his four thousand after the ones who ran") < victory.index("Tang Huai")
    assert "Yue Fei rode on alone" in victory and "broke and scattered" in victory
    assert "died as they were told" not in victory  # the rear guard broke and fled
    said = narration("b1_the_valley", "rear_broken")
    assert "Guo Yaoshi" in said and "four thousand" in said and "follow my banner" in said
    # On the board, too: once the rear guard breaks, Yue Fei's riders alone are ordered to the hill.
    holds = scenario("b1_the_valley")["ai"]["hold"]
    to_the_hill = {u for h in holds if h["region"] == "hill_foot" for u in h["units"]}
    assert to_the_hill == {"yue_fei_riders"}


def test_the_order_to_ride_light_comes_before_the_rear_guard_breaks() -> None:
    """The chronicle has Wuzhu strip the host to food, clothes and weapons while the rear guard
    still stands; the Pursuit only holds him to it."""
    jin_b1 = next(s for s in scenario("b1_the_valley")["side_texts"] if s["side"] == "jin")
    assert "food" in jin_b1["briefing"] and "weapons" in jin_b1["briefing"]
    assert "leave the wagons" not in jin_b1["debriefing_defeat"]
    assert "at the valley" in narration("b2_the_pursuit", "ride_light_ordered")
    assert "before we set out" in narration("b2_the_pursuit", "no_looting")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_duel_is_fought_while_the_battle_goes_on_until_both_armies_are_spent(lang: str) -> None:
    """The fighting round the two war gods stops only two quarters of an hour into the duel,
    when the men of both armies are too spent to fight."""
    joined = tr(narration("b3_tangut_border", "duel_joined"), lang)
    spent = tr(narration("b3_tangut_border", "two_quarters"), lang)
    stops = {"en": "stops", "zh_CN": "停", "zh_TW": "停"}[lang]
    watch = {"en": "watch", "zh_CN": "看", "zh_TW": "看"}[lang]
    assert stops not in joined.replace("停歇", "").replace("沒有停下來", "")
    assert watch in spent and watch not in joined


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wuzhu_speaks_his_parting_words_before_the_fight(lang: str) -> None:
    said = tr(narration("b3_tangut_border", "wuzhu_sees_banner"), lang)
    assert {"en": "next time we meet", "zh_CN": "下回再见", "zh_TW": "下回再見"}[lang] in said
