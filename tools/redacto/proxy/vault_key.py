"""The deployment's vault key: what keeps a shared vault's values unreadable to its store.

Every proxy of a deployment holds the same 32 random bytes, written in base64, from
`REDACTO_VAULT_KEY` or a file (`--vault-key-file`), never from the command line (where `ps`
and shell histories show it). Four keys are derived from it with HKDF-SHA256, one per use,
so no key serves two purposes:

- **values**: AES-256-GCM with a fresh 96-bit nonce per value, its associated data binding
  the sealed value to the conversation and the field that holds it (a sealed value moved
  to another conversation or placeholder no longer opens);
- **lookup**: a value's key in its conversation is an HMAC-SHA256 of the value (compared
  by letters and digits, case-folded) within that conversation, so the store can tell
  neither the value nor whether two conversations hold the same one;
- **conversations**: a conversation's key is an HMAC of the credential and its name
  (`vault.conversation_name`), the same in every proxy of the deployment;
- **texts**: the model tier's record of texts it has read is a keyed BLAKE2b hash.

    key = VaultKey.load(key_file=None)          # REDACTO_VAULT_KEY, else VaultKeyError
    sealed = key.seal(b"jane@example.org", b"where")
    key.open(sealed, b"where")
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_ENV = "REDACTO_VAULT_KEY"
"""The environment variable that holds the key (base64 of 32 bytes)."""
KEY_BYTES = 32
NONCE_BYTES = 12
LOOKUP_CHARS = 32
"""Hex characters of a lookup hash that are kept (128 bits)."""


class VaultKeyError(ValueError):
    """No usable vault key: the proxy refuses to start with a shared vault."""


class SealBroken(ValueError):
    """A sealed value did not open: another key, or the store's data was changed."""


def _derive(master: bytes, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(master)


@dataclass(frozen=True)
class VaultKey:
    """The keys a shared vault is sealed and looked up with, derived from one master key."""

    value_key: bytes = field(repr=False)
    lookup_key: bytes = field(repr=False)
    conversation_key: bytes = field(repr=False)
    text_key: bytes = field(repr=False)

    @classmethod
    def from_master(cls, master: bytes) -> VaultKey:
        """The four derived keys of a 32-byte master key."""
        if len(master) != KEY_BYTES:
            raise VaultKeyError(f"the vault key must be {KEY_BYTES} bytes, not {len(master)}")
        return cls(
            value_key=_derive(master, b"redacto vault: values (AES-GCM)"),
            lookup_key=_derive(master, b"redacto vault: value lookup (HMAC)"),
            conversation_key=_derive(master, b"redacto vault: conversations (HMAC)"),
            text_key=_derive(master, b"redacto vault: texts read (BLAKE2b)"),
        )

    @classmethod
    def load(cls, key_file: Path | None, environ: Mapping[str, str] = os.environ) -> VaultKey:
        """The key from `key_file`, else from `REDACTO_VAULT_KEY`; `VaultKeyError` if neither
        holds base64 of 32 bytes (the message never repeats the key)."""
        if key_file is not None:
            try:
                text = key_file.read_text()
            except OSError as error:
                raise VaultKeyError(f"cannot read the vault key file: {error.strerror}") from None
            where = "the vault key file"
        else:
            text = environ.get(KEY_ENV, "")
            where = KEY_ENV
            if not text.strip():
                raise VaultKeyError(
                    f"a shared vault needs its key: set {KEY_ENV} or pass --vault-key-file "
                    "(32 random bytes in base64, the same for every proxy; for instance "
                    "`openssl rand -base64 32`)"
                )
        try:
            master = base64.b64decode(text.strip(), validate=True)
        except (binascii.Error, ValueError):
            raise VaultKeyError(f"{where} does not hold base64") from None
        if len(master) != KEY_BYTES:
            raise VaultKeyError(f"{where} must hold {KEY_BYTES} bytes, not {len(master)}")
        return cls.from_master(master)

    @cached_property
    def _cipher(self) -> AESGCM:
        """Built once: building one costs more than sealing a value."""
        return AESGCM(self.value_key)

    def seal(self, plaintext: bytes, bound_to: bytes) -> bytes:
        """`plaintext` encrypted and authenticated: nonce, then ciphertext and tag. It opens
        only with the same `bound_to` (where the store keeps it)."""
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._cipher.encrypt(nonce, plaintext, bound_to)

    def open(self, sealed: bytes, bound_to: bytes) -> bytes:
        """What `seal` sealed; `SealBroken` for another key, place or changed bytes."""
        try:
            return self._cipher.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], bound_to)
        except (InvalidTag, ValueError):
            raise SealBroken("a sealed vault value did not open") from None

    def lookup(self, conversation: str, value_key: str) -> str:
        """A value's key within `conversation` (`value_key`: its compared form)."""
        message = conversation.encode() + b"\x00" + value_key.encode()
        return hmac.new(self.lookup_key, message, hashlib.sha256).hexdigest()[:LOOKUP_CHARS]
