"""Where the proxy's time goes: a cProfile of it under load, summed into groups.

Each function's own time goes to the group of its module (the rules, the upstream client,
asyncio…); a builtin's goes to the group of whoever called it, except JSON (orjson) and the
HTTP parser (httptools), which are groups of their own. What the profile does not see —
uvloop's C loop: polling, reading sockets, calling back into Python — is the process's CPU
time less everything profiled. Used by `python -m devtools.bench.proxy`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PARSING = "HTTP parsing (httptools and its callbacks)"
JSON = "JSON (orjson)"
RULES = "rules tier (redacto.rules)"
VAULT = "placeholders and vault"
HANDLING = "request handling and answer writing, socket writes included (server.py, connection.py)"
WALK = "the allow-list walk over the request (fields.py, kinds.py)"
UPSTREAM = "upstream client (upstream.py)"
LOOP = "asyncio machinery (tasks, futures, queues, wait_for)"
C_LOOP = "uvloop's C loop: polling, socket reads, callback dispatch (outside Python calls)"
OTHER = "other"
_CALLBACKS = {"data_received", "on_url", "on_header", "on_headers_complete", "on_body"}
_CALLBACKS |= {"on_message_complete"}

FunctionKey = tuple[str, int, str]


def group_of(key: FunctionKey) -> str | None:
    """The group of a function's own time; None: a builtin whose callers decide."""
    filename, _, name = key
    if filename == "~":
        if "orjson" in name:
            return JSON
        if "httptools" in name:
            return PARSING
        return None
    path = filename.replace(os.sep, "/")
    proxy_file = path.rsplit("/", 1)[-1] if "/redacto/proxy/" in path else ""
    if proxy_file in ("connection.py", "server.py", "upstream.py") and name in _CALLBACKS:
        return PARSING
    if "/redacto/rules/" in path or proxy_file == "detectors.py":
        return RULES
    if proxy_file in ("payload.py", "vault.py", "restore.py") or "/redacto/pipeline/" in path:
        return VAULT
    if "/redacto/vault/" in path:  # the Vault and StreamRestorer the proxy shares with proofread
        return VAULT
    groups = {"server.py": HANDLING, "connection.py": HANDLING, "scrub.py": HANDLING}
    groups |= {"upstream.py": UPSTREAM, "fields.py": WALK, "kinds.py": WALK}
    if proxy_file in groups:
        return groups[proxy_file]
    if "/asyncio/" in path or "uvloop" in path:
        return LOOP
    return OTHER


@dataclass(frozen=True)
class Profile:
    """The profiled proxy's CPU time by group, and its heaviest functions."""

    rps: float
    """Requests per second while profiled (the profiler slows the proxy down)."""
    cpu_s: float
    groups: dict[str, float]
    top: list[tuple[str, int, float, float]]
    """(function, calls, own seconds, cumulative seconds), by own time."""


def _short(key: FunctionKey) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    return f"{Path(filename).name}:{line} {name}"


def analyse(stats: dict[FunctionKey, Any], cpu_s: float, rps: float, top: int = 15) -> Profile:
    groups: dict[str, float] = {}
    for key, (_, _, own, _, callers) in stats.items():
        group = group_of(key)
        if group is not None:
            groups[group] = groups.get(group, 0.0) + own
            continue
        if not callers:
            groups[LOOP] = groups.get(LOOP, 0.0) + own
        for caller, (_, _, own_here, _) in callers.items():
            caller_group = group_of(caller) or OTHER
            groups[caller_group] = groups.get(caller_group, 0.0) + own_here
    groups[C_LOOP] = max(0.0, cpu_s - sum(groups.values()))
    heaviest = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    return Profile(
        rps,
        cpu_s,
        groups,
        [(_short(key), value[1], value[2], value[3]) for key, value in heaviest],
    )


def profile_lines(title: str, result: Profile) -> list[str]:
    """The profile as Markdown: the groups' shares, then the heaviest functions."""
    lines = [
        f"{title}: {result.rps:,.0f} req/s under the profiler, "
        f"{result.cpu_s:.2f} s of the proxy's CPU",
        "",
        "| where the CPU goes | share |",
        "|---|--:|",
    ]
    for group, seconds in sorted(result.groups.items(), key=lambda item: -item[1]):
        lines.append(f"| {group} | {100 * seconds / result.cpu_s:.0f} % |")
    lines += ["", "| function | calls | own ms | cumulative ms |", "|---|--:|--:|--:|"]
    for name, calls, own, cumulative in result.top:
        lines.append(f"| `{name}` | {calls:,} | {own * 1000:,.0f} | {cumulative * 1000:,.0f} |")
    return lines
