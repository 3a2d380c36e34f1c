"""``narrate``: a pop-up with a line of the story, spoken by a hero if given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event, Narration
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class Narrate(ActionSpec):
    """A pop-up with ``text`` (an English msgid), spoken by the hero ``speaker`` if given."""

    kind: Literal["narrate"] = "narrate"
    text: str = Field(min_length=1)
    speaker: str | None = None


class NarrateKind(ActionKind[Narrate]):
    name = "narrate"
    model = Narrate

    def check(self, action: Narrate, refs: References) -> None:
        refs.hero("speaker", action.speaker)

    def run(self, table: Table, action: Narrate) -> list[Event]:
        return [Narration(text=action.text, speaker=action.speaker)]

    def describe(self, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, Narration):
            return None
        speaker = tell.hero(event.speaker) if event.speaker is not None else ""
        text = tell.text(event.text)
        return tell.text(N_("{speaker}: {text}")).format(speaker=speaker, text=text) if speaker else text

    def hint(self, action: Narrate) -> ActionHint:
        return NO_ACTION_HINT


KIND = NarrateKind()
