"""A campaign's data: its battles, what the camp offers, the decisions it puts and its endings
(loaded and validated by game.content.campaigns)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator


class StrictModel(BaseModel):
    """A campaign model: fields it does not know are refused."""

    model_config = ConfigDict(defer_build=True, extra="forbid")


class UnitOffer(StrictModel):
    """What a unit type costs the campaign's side at the camp."""

    # Soul coins per hundred men, to replenish or to raise.
    cost: int = Field(ge=1, le=1000)
    # Men in a formation raised at the camp; 0: this type cannot be raised, only replenished.
    recruit: int = Field(0, ge=0, le=100_000)


UpgradeKind = Literal["experience", "ammo", "charges"]


class UpgradeSpec(StrictModel):
    id: str
    name: str
    description: str
    kind: UpgradeKind
    amount: int = Field(ge=1, le=20)
    cost: int = Field(ge=1, le=10_000)
    # Whether a formation may buy it again (drill: until its experience is full).
    repeatable: bool = False


class DecisionOption(StrictModel):
    """One course a camp decision offers."""

    id: str = Field(min_length=1, max_length=80)
    # The button, and what follows from taking it (both shown before the choice).
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    # An ending id: taking this course ends the campaign there.
    ending: str | None = None
    # Soul coins paid into the war chest.
    coins: int = Field(0, ge=0, le=10_000_000)


class DecisionSpec(StrictModel):
    """A choice put to the player at the camp."""

    id: str = Field(min_length=1, max_length=80)
    # When it is offered: "aim_met" (at the first camp where the souls bagged reach the war aim
    # with battles still ahead), or ``after`` a scenario id (once that battle is won).
    when: Literal["aim_met"] | None = None
    after: str | None = None
    # The hero who gives the counsel (a heroes.toml id), its heading and its words.
    speaker: str | None = None
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    options: tuple[DecisionOption, ...] = Field(min_length=2, max_length=4)
    # The course the chronicle took: what a computer-played campaign chooses.
    chronicle: str

    @model_validator(mode="after")
    def _one_occasion(self) -> DecisionSpec:
        if (self.when is None) == (self.after is None):
            raise ValueError("give exactly one of `when` and `after`")
        if len({o.id for o in self.options}) != len(self.options):
            raise ValueError("option ids must be unique")
        if self.option(self.chronicle) is None:
            raise ValueError(f"chronicle: no option {self.chronicle!r}")
        return self

    def option(self, option_id: str) -> DecisionOption | None:
        return next((o for o in self.options if o.id == option_id), None)


class LastWord(StrictModel):
    """Words quoted at the very end of an ending (a letter, a note), with who wrote them."""

    title: str = Field(min_length=1)
    text: str = Field(min_length=1)


class EndingSpec(StrictModel):
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    last_word: LastWord | None = None


class EndingRule(StrictModel):
    """An ending chosen by how a battle went: the objectives it names were all done in the last
    victory of that battle."""

    ending: str = Field(min_length=1)
    battle: str = Field(min_length=1)
    # Objective ids; empty: the rule holds whatever was done.
    done: tuple[str, ...] = ()


class CampaignDebriefing(StrictModel):
    """A battle's victory told as the campaign goes on from it (its scenario's own text is for
    the battle fought alone)."""

    debriefing_victory: str = Field(min_length=1)


# Two characters at least: a name of one character is also a word.
NameForm = Annotated[str, Field(min_length=2, max_length=12)]


class NameForms(RootModel[tuple[NameForm, NameForm]]):
    """A name in simplified and in traditional characters (they differ: else it needs no entry)."""

    model_config = ConfigDict(defer_build=True)

    @model_validator(mode="after")
    def _differ(self) -> NameForms:
        if self.root[0] == self.root[1]:
            raise ValueError(f"{self.root[0]!r} is written alike in both scripts")
        return self

    @property
    def simplified(self) -> str:
        return self.root[0]

    @property
    def traditional(self) -> str:
        return self.root[1]


class CampaignSpec(StrictModel):
    id: str
    title: str
    description: str = ""
    side: str
    scenarios: tuple[str, ...] = Field(min_length=1)
    souls_per_coin: int = Field(100, ge=1, le=100_000)
    # The war aim in souls bagged over the whole campaign (0: none).
    souls_aim: int = Field(0, ge=0, le=100_000_000)
    units: dict[str, UnitOffer] = Field(default_factory=dict)
    upgrades: tuple[str, ...] = ()
    # The script of the Chinese names the campaign's story uses (A simplified, B traditional).
    names: Literal["zh_CN", "zh_TW"] = "zh_CN"
    # Its names as its prose writes them, each as [simplified, traditional]: a reader of the other
    # Chinese reads them in ``names`` inside the briefings and dialogue too, as on the banners.
    name_forms: tuple[NameForms, ...] = ()
    decisions: tuple[DecisionSpec, ...] = ()
    endings: dict[str, EndingSpec] = Field(default_factory=dict)
    # The ending once every battle is won and no course taken chose another ("": none): the
    # chronicle's, told too when the battle ``ending_rules`` read was fought before objectives
    # were kept in the progress.
    ending: str = ""
    # How the battles went picks the ending of a campaign run to its course: the first rule that
    # holds, else ``ending``.
    ending_rules: tuple[EndingRule, ...] = ()
    # Endings taken out of the game -> the ending an older progress file that chose one tells now.
    retired_endings: dict[str, str] = Field(default_factory=dict)
    # Scenario id -> its victory as this campaign tells it.
    debriefings: dict[str, CampaignDebriefing] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _distinct_name_forms(self) -> CampaignSpec:
        seen = [form for pair in self.name_forms for form in pair.root]
        twice = sorted({form for form in seen if seen.count(form) > 1})
        if twice:
            raise ValueError(f"name_forms: {twice[0]!r} is listed twice")
        return self

    def decision(self, decision_id: str) -> DecisionSpec | None:
        return next((d for d in self.decisions if d.id == decision_id), None)
