"""A side's pass phrase in a game between people at one screen, kept only as a salted slow hash.

The phrase itself is never stored: a seat holds a random salt, scrypt's cost parameters and the
digest, so a save read by the other side tells it nothing it could type. The parameters are kept
with the digest so a phrase set under one cost still checks after the game's default changes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from pydantic import BaseModel, ConfigDict, Field

# scrypt's cost: 2**14 rounds of 8-block mixing, about 16 MB and a few tens of milliseconds.
COST_N = 1 << 14
BLOCK_R = 8
PARALLEL_P = 1
DIGEST_BYTES = 32
SALT_BYTES = 16
# The longest phrase accepted (in characters): a phrase, not a file.
MAX_PHRASE = 200


class Seal(BaseModel):
    """A pass phrase's digest with everything needed to check a phrase against it again."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    kind: str = Field("scrypt", pattern=r"^scrypt$")
    salt: str = Field(pattern=r"^[0-9a-f]{16,128}$")
    n: int = Field(ge=2, le=1 << 20)
    r: int = Field(ge=1, le=32)
    p: int = Field(ge=1, le=16)
    digest: str = Field(pattern=r"^[0-9a-f]{32,128}$")

    @classmethod
    def of(cls, phrase: str) -> Seal:
        """A new seal for ``phrase`` (a fresh salt each time)."""
        salt = secrets.token_bytes(SALT_BYTES)
        digest = _scrypt(phrase, salt, COST_N, BLOCK_R, PARALLEL_P, DIGEST_BYTES)
        return cls(salt=salt.hex(), n=COST_N, r=BLOCK_R, p=PARALLEL_P, digest=digest.hex())

    def opens(self, phrase: str) -> bool:
        """Whether ``phrase`` is the one this seal was made of."""
        expected = bytes.fromhex(self.digest)
        if len(phrase) > MAX_PHRASE or self.n & (self.n - 1):
            return False
        got = _scrypt(phrase, bytes.fromhex(self.salt), self.n, self.r, self.p, len(expected))
        return hmac.compare_digest(got, expected)


def _scrypt(phrase: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    # The same phrase typed on another keyboard may come in another Unicode form.
    data = unicodedata.normalize("NFC", phrase).encode("utf-8")
    return hashlib.scrypt(data, salt=salt, n=n, r=r, p=p, dklen=length, maxmem=256 * 1024 * 1024)
