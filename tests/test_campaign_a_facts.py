"""Campaign A's texts keep to the chronicle's facts in every language: the briefings, events,
debriefings and side texts of its four battles, its camp (counsel and endings), its chronicle
entries and the people, troops and skills of both its sides."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from babel.messages.pofile import read_po

from game.paths import DATA_DIR, LOCALE_DIR, MAPS_DIR, ROOT

SCENARIOS = ("a1_valley_mouth", "a2_rear_guard_trap", "a3_besiege_wei", "a4_annihilation")
SIDES = ("yuqing", "hailing")
LANGUAGES = ("en", "zh_CN", "zh_TW")


@lru_cache
def extractor() -> ModuleType:
    """tools/extract_messages.py: what it takes from a content file is what players read."""
    spec = importlib.util.spec_from_file_location("extract_messages", ROOT / "tools" / "extract_messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _texts(data: object) -> list[str]:
    return [text for _, text in extractor().content_texts(data)]


@lru_cache
def english_texts() -> dict[str, tuple[str, ...]]:
    """Campaign A's English texts, by where they stand."""
    found: dict[str, tuple[str, ...]] = {}
    for scenario in SCENARIOS:
        labels = [label for _, label in extractor().map_labels(MAPS_DIR / f"{scenario}.tmx")]
        found[scenario] = (*_texts(_load(MAPS_DIR / f"{scenario}.toml")), *labels)
    found["campaign"] = tuple(_texts(_load(DATA_DIR / "campaigns.toml")["campaigns"]["yuqing"]))
    chronicle = _load(DATA_DIR / "chronicle.toml")
    found["chronicle"] = tuple(t for key, e in chronicle.items() if key.startswith(SCENARIOS) for t in _texts(e))
    heroes = {k: h for k, h in _load(DATA_DIR / "heroes.toml").items() if isinstance(h, dict) and h["faction"] in SIDES}
    units = {k: u for k, u in _load(DATA_DIR / "units.toml").items() if isinstance(u, dict) and u["faction"] in SIDES}
    found["heroes"] = tuple(t for h in heroes.values() for t in _texts(h))
    found["units"] = tuple(t for u in units.values() for t in _texts(u))
    skills = {s for h in heroes.values() for s in h["skills"]}
    found["skills"] = tuple(
        t
        for key, skill in _load(DATA_DIR / "skills.toml").items()
        if isinstance(skill, dict) and (key in skills or set(skill.get("granted_to", [])) & set(units))
        for t in _texts(skill)
    )
    return found


@lru_cache
def catalog(lang: str) -> dict[str, str]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "qiankun.po").open("rb") as fh:
        return {m.id: m.string for m in read_po(fh) if isinstance(m.id, str) and isinstance(m.string, str)}


def texts(lang: str, where: str | None = None) -> list[str]:
    """Campaign A's texts in ``lang``, all of them or those of one place."""
    english = [t for key, ts in english_texts().items() if where in (None, key) for t in ts]
    if lang == "en":
        return english
    return [catalog(lang)[t] for t in english]


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"[.;:!?。；：！？\n]", text) if s.strip()]


def test_the_texts_of_campaign_a_are_found() -> None:
    assert len(texts("en")) > 150
    assert any("Du Xuan's counsel" in t for t in texts("en", "campaign"))
    assert "Su Lin" in texts("en", "heroes")


# The valley mouth cost Wanyan Liang twenty thousand; the fifty thousand were the host that came
# back for them and, later, the feigned rout on the road.
LOSS = {
    "en": re.compile(r"\b(cost|lost|loss|thrown away|threw away|spent|squandered|wasted)\b", re.IGNORECASE),
    "zh_CN": re.compile("折损|损失|丢掉|丢了|葬送|断送|白白|赔"),
    "zh_TW": re.compile("折損|損失|丟掉|丟了|葬送|斷送|白白|賠"),
}
VALLEY_MOUTH = {"en": "valley mouth", "zh_CN": "谷口", "zh_TW": "谷口"}
FIFTY_THOUSAND = {"en": "fifty thousand", "zh_CN": "五万", "zh_TW": "五萬"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_says_fifty_thousand_were_lost_at_the_valley_mouth(lang: str) -> None:
    wrong = [
        s
        for t in texts(lang)
        for s in sentences(t)
        if VALLEY_MOUTH[lang] in s.lower() and FIFTY_THOUSAND[lang] in s.lower() and LOSS[lang].search(s)
    ]
    assert not wrong


def test_the_fifty_thousand_of_the_bait_were_the_feigned_rout() -> None:
    """Where the fifty thousand are bait, they are the rout on the road, not the valley mouth."""
    bait = [t for t in texts("en") if "fifty thousand" in t and "bait" in t]
    assert bait
    assert all(re.search(r"\brout\b|(running|fleeing) down the road", t) for t in bait)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rout_after_the_valley_mouth_was_three_parts_feigned(lang: str) -> None:
    """Seven parts real, three feigned: no text calls the flight from the valley mouth no feint."""
    no_feint = {"en": "no feint", "zh_CN": "不是佯败", "zh_TW": "不是佯敗"}[lang]
    assert not [t for t in texts(lang) if no_feint in t]
    broken = texts(lang, "chronicle")[texts("en", "chronicle").index("The fifty thousand break") + 1]
    assert {"en": "three parts", "zh_CN": "三分", "zh_TW": "三分"}[lang] in broken


PALACE_ORDER = {
    "en": re.compile(r"Palace's (sixty|number|order)|the Palace (had )?asked|Yuqing Palace asked|Palace sent"),
    "zh_CN": re.compile("玉清宫(要的|定下|的军令|交给|派大军)"),
    "zh_TW": re.compile("玉清宮(要的|定下|的軍令|交給|派大軍)"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sixty_thousand_were_du_xuans_counsel_not_the_palaces_order(lang: str) -> None:
    assert not [t for t in texts(lang) if PALACE_ORDER[lang].search(t)]
    counsel = texts(lang, "campaign")[texts("en", "campaign").index("Du Xuan's counsel at sixty thousand") + 1]
    assert {"en": "Du Xuan urged", "zh_CN": "杜玄向韩信进言", "zh_TW": "杜玄曾勸韓信"}[lang] in counsel


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hailing_count_of_two_thousand_five_hundred_holds_the_five_hundred(lang: str) -> None:
    """The Hailing officers' 2,500 in the valley are the two thousand of the defile and the
    Hegemon-King's five hundred, not two thousand five hundred in the defile besides them."""
    count = {"en": "two thousand five hundred", "zh_CN": "两千五百", "zh_TW": "兩千五百"}[lang]
    parts = {
        "en": ("two thousand in the defile", "Hegemon-King's five hundred"),
        "zh_CN": ("两千人守在谷口以西的隘道", "项王的五百人"),
        "zh_TW": ("兩千人守在谷口西邊的隘道", "項王的五百人"),
    }[lang]
    said = [t for t in texts(lang, "a1_valley_mouth") if count in t]
    assert said
    assert all(all(part in t for part in parts) for t in said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hegemon_king_waits_outside_datong_not_in_hills(lang: str) -> None:
    hills = {"en": "hills outside", "zh_CN": "城外的山中", "zh_TW": "城外的山中"}[lang]
    assert not [t for t in texts(lang) if hills in t]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_note_names_general_yeli_and_no_sum(lang: str) -> None:
    """The note in the helmet: for General Yeli's sake he is not traded for soul coins; no sum."""
    yeli = {"en": "General Yeli", "zh_CN": "野利将军", "zh_TW": "野利將軍"}[lang]
    coins = {"en": "coins", "zh_CN": "魂币", "zh_TW": "魂幣"}[lang]
    notes = [t for t in texts(lang) if yeli in t]
    assert len(notes) >= 4  # the chronicle entry, the debriefings and the ending's note
    sums = re.compile(r"\d|hundred|thousand|[百千万萬]")
    for note in notes:
        assert coins in note
        said = [s for s in sentences(note) if yeli in s]
        assert said and not [s for s in said if sums.search(s)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_note_is_found_at_datong_half_a_day_after_the_rout(lang: str) -> None:
    campaign = texts(lang, "campaign")
    ending = campaign[texts("en", "campaign").index("The Note on the Helmet") + 1]
    datong, half_a_day = {"en": ("Datong", "Half a day"), "zh_CN": ("大同", "半日"), "zh_TW": ("大同", "半天")}[lang]
    assert datong in ending and half_a_day in ending


# One spelling of every name: the form each language writes, and the forms it has left behind.
NAMES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "Eighteen Blades": ("Divine Blades", "Eighteen Divine"),
        "Lord Xinling": ("Xinling's", "Lord Xin Ling", "Prince Xinling"),
        "Hegemon-King": ("Hegemon King", "Hegemon's right"),
        "Wanyan Liang": ("Wanyan-Liang", "Wan Yan Liang"),
        "Geng Gong's thirteen": ("Geng Gong's thirteen-man", "Geng Gong's 13"),
        "Liu Bosheng": ("Liu Bo Sheng", "Liu Po-sheng"),
        "Du Xuan": ("Du Hsuan",),
    },
    "zh_CN": {
        "十八神锋": ("十八神剑", "十八神鋒"),
        "信陵君": ("信陵公子",),
        "完颜亮": ("完顏亮",),
        "游魂": ("遊魂",),
        "韩信": ("韓信",),
    },
    "zh_TW": {
        "十八神鋒": ("十八神劍", "十八神锋"),
        "信陵君": ("信陵公子",),
        "完顏亮": ("完颜亮",),
        "遊魂": ("游魂",),
        "韓信": ("韩信",),
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_name_is_spelled_one_way(lang: str) -> None:
    all_texts = texts(lang)
    for name, others in NAMES[lang].items():
        assert any(name in t for t in all_texts), name
        assert not [(other, t[:50]) for t in all_texts for other in others if other in t]
    if lang == "en":
        bare = re.compile(r"(?<!Lord )\bXinling\b")
        assert not [t for t in all_texts if bare.search(t)]
