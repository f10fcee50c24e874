"""What a conversation's vault costs a request as it grows (pytest-benchmark): finding
known values in 1 KB of prose, and adding a request's new values one by one as the proxy
does, per vault size. In the normal test run each case runs once (`--benchmark-disable`);
docs/benchmarks.md says how to time them and compare them with another commit.
"""

from __future__ import annotations

import pytest

from redacto.vault import Vault

PROSE = (
    "Could you rewrite this note so that it reads more warmly? We met on Tuesday to talk "
    "about the garden project, and everyone agreed the beds by the north wall need more "
    "light. "
)
SIZES = [0, 1_000, 10_000]


def filled(size: int) -> Vault:
    """A vault holding `size` names."""
    vault = Vault(max_values=size + 1_000)
    for number in range(size):
        vault.placeholder_for("NAME", f"Person{number:05d} Surname{number % 97}")
    return vault


def text_with_known_values(size: int) -> str:
    """1 KB of prose followed by three of the vault's values (none if it is empty)."""
    known = [f"Person{n:05d} Surname{n % 97}" for n in range(0, size, max(size // 3, 1))]
    return (PROSE * 6)[:1000] + " " + " and ".join(known[:3])


@pytest.mark.parametrize("size", SIZES)
def test_finding_known_values_in_1_kb(benchmark, size):
    vault, text = filled(size), text_with_known_values(size)
    vault.hide_known(text)  # the lookup as it stands after the vault was filled
    found = benchmark(vault.hide_known, text)
    assert len(found) == min(size, 3)


@pytest.mark.parametrize("size", SIZES)
def test_a_request_adding_20_values(benchmark, size):
    text = text_with_known_values(size)

    def request(vault: Vault) -> Vault:
        for number in range(20):
            vault.placeholder_for("NAME", f"Newcomer {number}")
            vault.hide_known(text)
        return vault

    # a vault of `size` values each round (filling it is not timed), as a request finds it
    vault = benchmark.pedantic(request, setup=lambda: ((filled(size),), {}), rounds=5)
    assert len(vault.hide_known("Newcomer 0 and Newcomer 19")) == 2
