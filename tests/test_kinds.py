"""Every trigger, action and skill effect kind is one module with all its parts, registered by name; an
unknown name is a content error naming the file, the object and the field."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from game.content.errors import ContentErrors
from game.content.event_checks import parse_events
from game.content.ruleset import load_ruleset, load_ruleset_from
from game.core.action_kinds import ACTIONS
from game.core.event_kind import ActionHint, ActionSpec, TriggerHint, TriggerSpec
from game.core.events import GatesOpened, Narration, Reinforced, SidesAllied, TurnEnded
from game.core.kinds import UnknownKind
from game.core.rules import Skill
from game.core.scenario_events import ACTION_KINDS, TRIGGER_KINDS
from game.core.skill_kind import SkillKind
from game.core.skill_kinds import SKILLS
from game.core.trigger_kinds import TRIGGERS
from game.paths import DATA_DIR


def _written_for(model: type[Any], part: str) -> bool:
    """The part is the kind's own or one its base gives every kind, never left abstract."""
    method = getattr(model, part, None)
    return callable(method) and not getattr(method, "__isabstractmethod__", False)


@pytest.mark.parametrize("model", list(TRIGGERS), ids=lambda m: m.model_fields["kind"].default)
def test_every_trigger_kind_has_each_part(model: type[TriggerSpec]) -> None:
    name = model.model_fields["kind"].default
    assert model.__module__.rsplit(".", 1)[1] == name  # one module a kind, named after it
    for part in ("check", "test", "describe", "hint"):
        assert _written_for(model, part), f"{name} has no {part}"
    assert "test" in model.__dict__  # how it fires is the kind's own
    assert set(model.names) <= set(model.model_fields), model.names
    assert model.told in _msgids() or "describe" in model.__dict__


@pytest.mark.parametrize("model", list(ACTIONS), ids=lambda m: m.model_fields["kind"].default)
def test_every_action_kind_has_each_part(model: type[ActionSpec]) -> None:
    name = model.model_fields["kind"].default
    assert model.__module__.rsplit(".", 1)[1] == name
    for part in ("check", "run", "describe", "hint"):
        assert _written_for(model, part), f"{name} has no {part}"
    assert "run" in model.__dict__
    assert set(model.names) <= set(model.model_fields), model.names


def test_a_kind_without_its_working_cannot_be_made() -> None:
    class OnNothing(TriggerSpec):
        kind: str = "nothing"

    with pytest.raises(TypeError, match="abstract"):
        OnNothing()  # type: ignore[abstract]  # the mistake this test makes on purpose


def test_the_names_a_kind_gives_are_checked_and_told() -> None:
    wiped = TRIGGERS.get("side_wiped_out").model_validate({"side": "jin"})
    refs = Refs()
    wiped.check(refs)
    assert refs.asked == [("side", "side", "jin")]
    ally = ACTIONS.get("ally").model_validate({"side": "a", "with": "b"})
    refs = Refs()
    ally.check(refs)
    assert refs.asked == [("side", "side", "a"), ("side", "with", "b")]


class Refs:
    """References that remember what they were asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, object]] = []

    def __getattr__(self, what: str) -> Any:
        return lambda field, value: self.asked.append((what, field, value))


def test_hints_are_what_a_general_reads() -> None:
    region = TRIGGERS.get("enters_region").model_validate(
        {"region": "ford", "side": "a", "unit": "x", "unopposed": True}
    )
    hint = region.hint()
    assert isinstance(hint, TriggerHint) and hint.ground == ("ford", "a", True, ("x",))
    assert hint.selects("x") and not hint.selects("y")
    assert TRIGGERS.get("routed").model_validate({"units": ("p", "q", "r")}).hint().routed_together == ("p", "q", "r")
    assert TRIGGERS.get("turn").model_validate({"turn": 3}).hint() == TriggerHint()
    assert ACTIONS.get("victory").model_validate({"side": "a"}).hint() == ActionHint(wins="a", decisive=True)
    narrate = ACTIONS.get("narrate").model_validate({"text": "Hm."}).hint()
    assert not narrate.decisive and narrate.wins is None


def test_the_registries_name_every_kind_once() -> None:
    assert TRIGGERS.names() == TRIGGER_KINDS and len(set(TRIGGER_KINDS)) == len(TRIGGERS) == 17
    assert ACTIONS.names() == ACTION_KINDS and len(set(ACTION_KINDS)) == len(ACTIONS) == 10
    assert "officers_slain" in TRIGGER_KINDS and "fallen" in TRIGGER_KINDS and "tally" in TRIGGER_KINDS
    assert "duel_refused" in TRIGGER_KINDS


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(UnknownKind, match=r"unknown kind 'ambush_sprung' \(known: bagged, charge,"):
        TRIGGERS.get("ambush_sprung")
    with pytest.raises(ValueError, match="unknown kind 'rain'"):
        ACTIONS.get("rain")


def test_an_unknown_kind_in_a_scenario_names_file_object_and_field() -> None:
    raw = [
        {"id": "storm", "when": {"kind": "ambush_sprung"}, "do": [{"kind": "narrate", "text": "Hm."}]},
        {"id": "rain", "when": {"kind": "turn", "turn": 2}, "do": [{"kind": "narrate", "text": "A"}, {"kind": "rain"}]},
    ]
    specs, errors = parse_events(Path("maps/x.toml"), raw)
    assert specs == []
    by_object = {e.object: e for e in errors}
    assert by_object["storm"].field == "when.kind"
    assert by_object["storm"].message.startswith("unknown kind 'ambush_sprung' (known: ")
    assert ", ".join(TRIGGER_KINDS) in by_object["storm"].message
    assert by_object["rain"].field == "do[1].kind"
    assert ", ".join(ACTION_KINDS) in by_object["rain"].message
    assert all(e.file.endswith("x.toml") for e in errors)


# -- skill effect kinds ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(SKILLS), ids=lambda k: k.name)
def test_every_skill_kind_has_each_part(kind: SkillKind) -> None:
    assert kind.__module__.rsplit(".", 1)[1] == kind.name
    assert kind.reads and set(kind.reads) <= set(Skill.model_fields), kind.reads
    assert kind.description and kind.description in _msgids()
    for part in ("use", "hint"):
        assert not getattr(getattr(kind, part), "__isabstractmethod__", False)
    assert callable(kind.check) and callable(kind.allows)


def _msgids() -> set[str]:
    pot = (Path(__file__).resolve().parents[1] / "game" / "locale" / "qiankun.pot").read_text(encoding="utf-8")
    return set(re.findall(r'^msgid "(.+)"$', pot, flags=re.MULTILINE))


def test_every_skill_of_the_game_has_a_kind() -> None:
    rules = load_ruleset()
    assert {s.effect for s in rules.skills.values()} <= set(SKILLS.names())
    assert SKILLS.get("sealing_sword").passive and not SKILLS.get("raid").passive


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def test_an_unknown_skill_kind_names_file_object_and_field(data_copy: Path) -> None:
    path = data_copy / "skills.toml"
    text = path.read_text(encoding="utf-8")
    assert 'effect = "raid"' in text
    path.write_text(text.replace('effect = "raid"', 'effect = "ambush"', 1), encoding="utf-8")
    with pytest.raises(ContentErrors) as exc:
        load_ruleset_from(data_copy)
    [err] = exc.value.errors
    assert err.file.endswith("skills.toml") and err.field == "effect"
    assert err.message.startswith("unknown kind 'ambush' (known: banner, breakthrough,")
    assert rules_object_with_effect(text, "raid") == err.object


def rules_object_with_effect(text: str, effect: str) -> str:
    """The id of the first skill table of ``text`` with that effect."""
    table = ""
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            table = line.strip("[]")
        elif line.strip() == f'effect = "{effect}"':
            return table
    raise AssertionError(effect)


def test_a_skill_kind_checks_its_own_fields(data_copy: Path) -> None:
    path = data_copy / "skills.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('bearer = "du_xuan"\n', "", 1), encoding="utf-8")
    with pytest.raises(ContentErrors) as exc:
        load_ruleset_from(data_copy)
    assert [(e.field, e.message) for e in exc.value.errors] == [
        ("bearer", "the Sealing Sword needs the hero who bears it")
    ]


class Words:
    """A teller that translates nothing and names a side by its id in capitals."""

    def text(self, message: str) -> str:
        return message

    def side(self, side_id: str) -> str:
        return side_id.upper()

    def hero(self, hero_id: str) -> str:
        return hero_id.title()


def test_an_action_kind_words_the_events_it_makes() -> None:
    tell: Any = Words()
    allied, opened = SidesAllied(side="a", ally="b"), GatesOpened(side="a", to="c")
    assert ACTIONS.get("ally").describe(allied, tell) == "A and B are now allies"
    assert ACTIONS.get("open_gates").describe(opened, tell) == "A opens its gates to C"
    assert ACTIONS.get("reinforce").describe(Reinforced(units=("x",), side="b"), tell) == "Reinforcements reach B"
    assert ACTIONS.get("narrate").describe(Narration(text="Hm.", speaker="yue_fei"), tell) == "Yue_Fei: Hm."
    assert ACTIONS.get("ally").describe(opened, tell) is None
    assert [m.describe(TurnEnded(side="a", next_side="b", turn=2), tell) for m in ACTIONS] == [None] * len(ACTIONS)
