"""``narrate``: a pop-up with ``text`` (an English msgid), spoken by the hero ``speaker`` if given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import ActionSpec, Teller
from ..events import Event, Narration
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class Narrate(ActionSpec, names={"speaker": "hero"}):
    kind: Literal["narrate"] = "narrate"
    text: str = Field(min_length=1)
    speaker: str | None = None

    def run(self, table: Table) -> list[Event]:
        return [Narration(text=self.text, speaker=self.speaker)]

    @classmethod
    def describe(cls, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, Narration):
            return None
        text = tell.text(event.text)
        if event.speaker is None:
            return text
        return tell.text(N_("{speaker}: {text}")).format(speaker=tell.hero(event.speaker), text=text)


KIND = Narrate
