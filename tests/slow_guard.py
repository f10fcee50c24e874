"""A pytest plugin that keeps the fast loop fast: an unmarked test may not take over 2 s.

`pytest -m "not slow"` is the inner loop, so a test whose call takes longer than
`REDACTO_SLOW_LIMIT_S` seconds (2 by default; 0 turns the check off) must carry the `slow`
marker. A passing test over the limit and unmarked is listed at the end of the run and the
run fails, so a slow test cannot drift into the fast loop unnoticed.

Only the call phase counts: a session or module fixture's setup is paid once by whichever
test comes first, so setup time says little about the test itself. Under pytest-xdist the
controller sees every worker's reports, so the check holds there too.

The limit is for a machine with a core to spare. On a shared machine a test's wall time
grows with the load, so the limit is scaled by the 1-minute load average per core when that
is above 1 (a load of 6 on 2 cores allows 6 s): CI on a busy machine must not fail a run for
another job's load. `REDACTO_SLOW_LOAD_SCALE=0` keeps the limit fixed.
"""

from __future__ import annotations

import os

import pytest

LIMIT_ENV = "REDACTO_SLOW_LIMIT_S"
LOAD_SCALE_ENV = "REDACTO_SLOW_LOAD_SCALE"
DEFAULT_LIMIT_S = 2.0


def slow_limit_s() -> float:
    """The call-phase limit for a test not marked `slow`, in seconds (0: no limit)."""
    return float(os.environ.get(LIMIT_ENV, DEFAULT_LIMIT_S))


def load_factor() -> float:
    """How much slower than a machine with a core to spare this one runs now (at least 1)."""
    if os.environ.get(LOAD_SCALE_ENV, "1") == "0":
        return 1.0
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


class SlowGuard:
    """Collects the passing, unmarked tests whose call phase went over the limit."""

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        self.over: list[tuple[str, float, float]] = []

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call" or not report.passed or "slow" in report.keywords:
            return
        if report.duration > self.limit_s:
            factor = load_factor()
            if report.duration > self.limit_s * factor:
                self.over.append((report.nodeid, report.duration, factor))

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.over and exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.over:
            return
        title = f"{len(self.over)} not marked slow, over {self.limit_s:g} s"
        terminalreporter.section(title, sep="=", red=True)
        for nodeid, duration, factor in sorted(self.over, key=lambda over: -over[1]):
            scaled = f" (load ×{factor:.1f})" if factor > 1 else ""
            terminalreporter.line(f"{duration:6.2f}s {nodeid}{scaled}")
        terminalreporter.line(
            'Mark each @pytest.mark.slow or make it faster: `pytest -m "not slow"` is the '
            f"fast loop. {LIMIT_ENV}=0 turns this check off."
        )


def pytest_configure(config: pytest.Config) -> None:
    limit_s = slow_limit_s()
    # an xdist worker's reports reach the controller, which judges the whole run
    if limit_s > 0 and not hasattr(config, "workerinput"):
        config.pluginmanager.register(SlowGuard(limit_s), "redacto-slow-guard")
