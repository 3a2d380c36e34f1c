"""A counter-based random number generator.

Every random draw is a pure function of (game seed, action index, draw number), so replaying
the same actions always reproduces the same numbers, in any process and on any machine, and
no draw depends on what other code happened to consume before it. The mixer is SplitMix64's
finaliser, applied once per key component.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def random_u64(seed: int, stream: int, counter: int) -> int:
    """The 64-bit random value for one key."""
    return _mix(_mix(_mix(seed & _MASK) ^ (stream & _MASK)) ^ (counter & _MASK))


class Rng:
    """Draws for one action: ``stream`` is the action index, draws are counted from zero."""

    def __init__(self, seed: int, stream: int) -> None:
        self.seed = seed
        self.stream = stream
        self.draws = 0

    def random(self) -> float:
        """A float in [0, 1) with 53 bits of precision."""
        value = random_u64(self.seed, self.stream, self.draws) >> 11
        self.draws += 1
        return value / float(1 << 53)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.random()

    def randint(self, low: int, high: int) -> int:
        """An integer in [low, high], both inclusive."""
        span = high - low + 1
        if span <= 0:
            raise ValueError("empty range")
        return low + int(self.random() * span)
