"""Vaults in Redis, sealed: many proxy processes and hosts share their conversations.

`redacto proxy --vault redis://HOST:PORT/DB` (or `rediss://`; Valkey speaks the same
protocol) keeps each conversation's vault in one Redis hash, `redacto:vault:<conversation
key>`, which expires `ttl_s` after its last request. Its fields:

| field | holds |
|---|---|
| `k:<lookup>` | the value's placeholder (`[EMAIL_1]`) |
| `o:<lookup>` | the value, sealed (AES-GCM, bound to the conversation and the field) |
| `v:<lookup>:<spelling lookup>` | another spelling of the value, sealed |
| `s:<text hash>` | a text the model tier has read (a keyed hash) |
| `n:<LABEL>` | the last number given to the label |
| `total`, `version` | how many values; how many values and spellings were ever added |
| `epoch` | random, set when the hash is made: a hash made again is another one |

`<lookup>` is a keyed hash of the value within its conversation (`VaultKey.lookup`), so
Redis holds placeholders, labels, keyed hashes and sealed bytes: never a value, a
credential or a conversation's name.

A request takes a copy of its conversation (`checkout`): the hash as this process last knew
it (sealed, as Redis holds it), else fetched in one round trip. It redacts with the copy and
hands back what it added (`commit`, before anything is forwarded): one Lua script that
numbers the new values atomically — a value another process numbered meanwhile keeps that
number —, renews the expiry, and says whether anyone else changed the conversation since
the copy was taken. If so, the request is redacted again from a freshly fetched copy, so two
processes never give one value two placeholders, nor two values one, nor forward a value
the conversation already knows. A conversation this process served last costs one round
trip a request; one it has not, two. Every call is bounded by `timeout_s`; past it, or with
Redis unreachable, the request is refused (`VaultUnavailable`, 503) and nothing is
forwarded.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError, ResponseError

from redacto.proxy.vault import VaultUnavailable, conversation_name
from redacto.proxy.vault_key import SealBroken, VaultKey, VaultKeyError
from redacto.vault import Vault, VaultFull, value_key

KEY_PREFIX = "redacto:vault:"
KEY_CHECK = "redacto:vault-key-check"
"""A sealed constant: a proxy whose key cannot open it refuses to start (`RedisVaultStore.open`)."""
_KEY_CHECK_TEXT = b"redacto vault key check"
SCHEMES = ("redis", "rediss")

_FETCH = """
local fields = redis.call('HGETALL', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return fields
"""

_COMMIT = """
-- KEYS[1]: the conversation's hash. ARGV: ttl ms, max values, an epoch for a new hash, n new
-- values, then n triples (label, lookup, sealed value), then triples (field, value, 1 if it
-- changes what the vault hides else 0) set where absent: spellings and texts read.
-- Returns the version, the epoch and the new values' placeholders.
local key, count = KEYS[1], tonumber(ARGV[4])
if #ARGV == 4 and redis.call('EXISTS', key) == 0 then return {0, ''} end
local fresh = 0
for i = 0, count - 1 do
  if redis.call('HEXISTS', key, 'k:' .. ARGV[6 + i * 3]) == 0 then fresh = fresh + 1 end
end
local total = tonumber(redis.call('HGET', key, 'total') or '0')
if total + fresh > tonumber(ARGV[2]) then
  return redis.error_reply('VAULT_FULL the conversation holds too many values')
end
local changed, tokens = 0, {}
for i = 0, count - 1 do
  local label, lookup = ARGV[5 + i * 3], ARGV[6 + i * 3]
  local token = redis.call('HGET', key, 'k:' .. lookup)
  if not token then
    token = '[' .. label .. '_' .. redis.call('HINCRBY', key, 'n:' .. label, 1) .. ']'
    redis.call('HSET', key, 'k:' .. lookup, token, 'o:' .. lookup, ARGV[7 + i * 3])
    changed = changed + 1
  end
  tokens[#tokens + 1] = token
end
for i = 5 + count * 3, #ARGV, 3 do
  if redis.call('HSETNX', key, ARGV[i], ARGV[i + 1]) == 1 then
    changed = changed + tonumber(ARGV[i + 2])
  end
end
if fresh > 0 then redis.call('HINCRBY', key, 'total', fresh) end
local version = redis.call('HINCRBY', key, 'version', changed)
redis.call('HSETNX', key, 'epoch', ARGV[3])
local epoch = redis.call('HGET', key, 'epoch')
redis.call('PEXPIRE', key, ARGV[1])
table.insert(tokens, 1, epoch)
table.insert(tokens, 1, version)
return tokens
"""
EPOCH_BYTES = 8
MAX_COPIES = 1_000
"""Conversations whose last known state (sealed, as Redis holds it) a process keeps."""


@dataclass
class SharedVault(Vault):
    """A request's copy of a conversation kept in Redis, and what the request adds to it."""

    name: str = ""
    """The conversation's key (`RedisVaultStore.name_of`)."""
    text_key: bytes = field(default=b"", repr=False)
    """Keys `text_hash`: Redis sees which texts were read, never a plain hash of one."""
    fields: dict[bytes, bytes] = field(default_factory=dict, repr=False)
    """The conversation's hash as Redis held it when the copy was taken (sealed)."""
    version: int = 0
    """The conversation's `version` when the copy was taken."""
    epoch: bytes = b""
    """Which life of the conversation's hash the copy is of (empty: none yet)."""
    new_values: list[tuple[str, str, str]] = field(default_factory=list)
    """(label, value, the placeholder this copy gave it), in the order they were met."""
    new_spellings: list[str] = field(default_factory=list)
    new_seen: list[int] = field(default_factory=list)

    def _added(self, label: str, value: str, token: str) -> None:
        self.new_values.append((label, value, token))

    def _spelled(self, value: str, token: str) -> None:
        self.new_spellings.append(value)

    def text_hash(self, text: str) -> int:
        digest = hashlib.blake2b(text.encode(), digest_size=8, key=self.text_key).digest()
        return int.from_bytes(digest, "big")

    def mark_seen(self, text_hash: int) -> None:
        if text_hash not in self.seen_texts:
            self.new_seen.append(text_hash)
        super().mark_seen(text_hash)


def check_url(url: str) -> str:
    """`url` if it names a Redis server (`redis://` or `rediss://`); the text of a
    `ValueError` otherwise. Returns the URL without its password, fit for a log."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError("--vault must be `memory` or a redis://HOST:PORT/DB or rediss:// URL")
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname}{port}{parts.path}"


@dataclass
class RedisVaultStore:
    """Every conversation's vault in Redis, sealed with the deployment's `VaultKey`."""

    client: Redis
    key: VaultKey
    ttl_s: float = 86_400.0
    """A conversation is forgotten this long after its last request."""
    timeout_s: float = 2.0
    """Each round trip to Redis; past it the request is refused (503)."""
    max_values: int = 10_000
    clock: Callable[[], float] = time.monotonic
    _copies: OrderedDict[str, tuple[dict[bytes, bytes], float]] = field(
        default_factory=OrderedDict, repr=False
    )
    """Each conversation's hash as this process last knew it, sealed, and when: a request
    starts from it without a round trip, and `commit` finds out if it was stale."""

    @classmethod
    def from_url(
        cls, url: str, key: VaultKey, *, ttl_s: float, timeout_s: float, max_values: int
    ) -> RedisVaultStore:
        """A store on the Redis server at `url` (not contacted until the first request)."""
        check_url(url)
        client = Redis.from_url(
            url,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            # One quick retry (a pooled connection Redis closed); the request's own
            # deadline bounds the rest.
            retry=Retry(ExponentialBackoff(cap=0.05, base=0.005), 1),
        )
        return cls(client, key, ttl_s=ttl_s, timeout_s=timeout_s, max_values=max_values)

    def __post_init__(self) -> None:
        self._fetch = self.client.register_script(_FETCH)
        self._commit = self.client.register_script(_COMMIT)

    def name_of(self, credential: bytes | None, conversation: bytes | None) -> str | None:
        """The conversation's key: a keyed hash shared by every proxy with this key."""
        return conversation_name(self.key.conversation_key, credential, conversation)

    async def checkout(self, name: str | None) -> Vault:
        """A copy of the conversation's vault: as this process last knew it, else fetched
        (one round trip, which renews its expiry). A stale copy is found by `commit`."""
        if name is None:
            return Vault(max_values=self.max_values)
        fields = self._known(name)
        if fields is None:
            async with self._bounded():
                flat = await self._fetch(keys=[KEY_PREFIX + name], args=[self._ttl_ms])
            fields = dict(zip(flat[::2], flat[1::2], strict=True))
            self._remember(name, fields)
        return self._unsealed(name, fields)

    async def commit(self, vault: Vault) -> bool:
        """Number the request's new values atomically, keep its new spellings and texts
        read, and renew the expiry (one round trip); False when the conversation changed
        since `vault` was taken: redact again from a fresh copy."""
        if not isinstance(vault, SharedVault):
            return True
        name = vault.name
        self._copies.pop(name, None)  # known again only once this commit is known to be fresh
        written = dict(vault.fields)
        args: list[Any] = [
            self._ttl_ms, self.max_values, os.urandom(EPOCH_BYTES).hex(), len(vault.new_values)
        ]  # fmt: skip
        for label, value, token in vault.new_values:
            lookup = self.key.lookup(name, value_key(value))
            sealed = self.key.seal(value.encode(), _bound(name, "o:" + lookup))
            args += [label, lookup, sealed]
            written |= {f"k:{lookup}".encode(): token.encode(), f"o:{lookup}".encode(): sealed}
            counter = f"n:{label}".encode()
            number = int(token[1:-1].rsplit("_", 1)[1])
            written[counter] = str(max(number, int(written.get(counter, 0)))).encode()
        for spelling in vault.new_spellings:
            value_lookup = self.key.lookup(name, value_key(spelling))
            where = f"v:{value_lookup}:{self.key.lookup(name, spelling)}"
            sealed = self.key.seal(spelling.encode(), _bound(name, where))
            args += [where, sealed, 1]
            written[where.encode()] = sealed
        for seen in vault.new_seen:
            args += [f"s:{seen:016x}", b"1", 0]
            written[f"s:{seen:016x}".encode()] = b"1"
        async with self._bounded():
            version, epoch, *tokens = await self._commit(keys=[KEY_PREFIX + name], args=args)
        proposed = [token for _, _, token in vault.new_values]
        expected = vault.version + len(vault.new_values) + len(vault.new_spellings)
        if (
            [token.decode() for token in tokens] != proposed
            or version != expected
            or (vault.epoch and epoch != vault.epoch)
        ):
            return False
        if epoch:  # Redis holds exactly the copy and what this request added
            total = int(written.get(b"total", 0)) + len(vault.new_values)
            written |= {b"total": b"%d" % total, b"version": b"%d" % version, b"epoch": epoch}
        self._remember(name, written)
        return True

    async def open(self) -> None:
        """Before serving: Redis answers, and holds no vaults sealed with another key
        (`VaultKeyError`): the first proxy to start leaves a sealed check, the next ones
        must open it. A proxy with another key would find none of the deployment's
        conversations, and forward values they had hidden."""
        async with self._bounded():
            sealed = self.key.seal(_KEY_CHECK_TEXT, KEY_CHECK.encode())
            if await self.client.set(KEY_CHECK, sealed, nx=True):
                return
            stored = await self.client.get(KEY_CHECK)
        try:
            self.key.open(stored if isinstance(stored, bytes) else b"", KEY_CHECK.encode())
        except SealBroken:
            raise VaultKeyError(
                "this Redis holds vaults sealed with another key: every proxy of a "
                "deployment needs the same REDACTO_VAULT_KEY"
            ) from None

    async def close(self) -> None:
        """Close the connections to Redis."""
        await self.client.aclose()

    @property
    def _ttl_ms(self) -> int:
        return int(self.ttl_s * 1000)

    def _known(self, name: str) -> dict[bytes, bytes] | None:
        found = self._copies.get(name)
        if found is None:
            return None
        if self.clock() - found[1] > self.ttl_s:  # Redis may have forgotten it since
            del self._copies[name]
            return None
        self._copies.move_to_end(name)
        return found[0]

    def _remember(self, name: str, fields: dict[bytes, bytes]) -> None:
        self._copies[name] = (fields, self.clock())
        self._copies.move_to_end(name)
        while len(self._copies) > MAX_COPIES:
            self._copies.popitem(last=False)

    @asynccontextmanager
    async def _bounded(self) -> AsyncIterator[None]:
        """Within the timeout, Redis's failures as `VaultUnavailable` (naming no value)."""
        try:
            async with asyncio.timeout(self.timeout_s):
                yield
        except TimeoutError:
            raise VaultUnavailable(
                f"the vault did not answer within {self.timeout_s:g} s"
            ) from None
        except ResponseError as error:
            if str(error).startswith("VAULT_FULL"):
                raise VaultFull(
                    f"the conversation holds more than {self.max_values} values"
                ) from None
            raise VaultUnavailable("the vault refused the request (a Redis error)") from None
        except (RedisError, OSError) as error:
            raise VaultUnavailable(
                f"the vault cannot be reached ({type(error).__name__})"
            ) from None

    def _unsealed(self, name: str, fields: dict[bytes, bytes]) -> SharedVault:
        vault = SharedVault(
            max_values=self.max_values, name=name, text_key=self.key.text_key, fields=fields
        )
        tokens: dict[str, str] = {}
        sealed: dict[str, bytes] = {}
        spellings: dict[str, list[str]] = {}
        try:
            for raw_field, raw in fields.items():
                where = raw_field.decode()
                kind, _, rest = where.partition(":")
                if kind == "k":
                    tokens[rest] = raw.decode()
                elif kind == "o":
                    sealed[rest] = raw
                elif kind == "v":
                    lookup = rest.partition(":")[0]
                    spelling = self.key.open(raw, _bound(name, where)).decode()
                    spellings.setdefault(lookup, []).append(spelling)
                elif kind == "s":
                    vault.seen_texts.add(int(rest, 16))
                elif kind == "n":
                    vault.continue_numbering(rest, int(raw))
                elif where == "version":
                    vault.version = int(raw)
                elif where == "epoch":
                    vault.epoch = raw
            for lookup, token in tokens.items():
                value = self.key.open(sealed[lookup], _bound(name, "o:" + lookup)).decode()
                vault.learn(token, value, tuple(spellings.get(lookup, ())))
        except (SealBroken, KeyError, ValueError, UnicodeDecodeError):
            raise VaultUnavailable(
                "the conversation's vault cannot be read with this proxy's key"
            ) from None
        return vault


def _bound(name: str, where: str) -> bytes:
    """What a sealed value is bound to: its conversation and its field."""
    return name.encode() + b"\x00" + where.encode()
