"""The slow guard (`tests/slow_guard.py`) fails a run in which an unmarked test is too slow.

Each case runs pytest on a small test file with the plugin loaded, so what is checked is
the exit code and the summary a developer or CI sees.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import slow_guard
from slow_guard import DEFAULT_LIMIT_S, LIMIT_ENV, LOAD_SCALE_ENV

pytest_plugins = ["pytester"]

TESTS = """
import time
import pytest

def test_quick():
    pass

def test_sleeps():
    time.sleep({sleep})

@pytest.mark.slow
def test_sleeps_marked():
    time.sleep({sleep})

@pytest.mark.slow
class TestMarkedClass:
    def test_sleeps_in_class(self):
        time.sleep({sleep})
"""


@pytest.fixture(autouse=True)
def no_installed_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The installed plugins (hypothesis, benchmark, anyio…) would only slow each run down,
    and the limit stays fixed whatever else this machine is running."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv(LOAD_SCALE_ENV, "0")


def run_guarded(
    pytester: pytest.Pytester,
    sleep: float,
    *tests: str,
    source: str = TESTS,
) -> pytest.RunResult:
    """Runs the `tests` named (all when none) of `source`, each sleep taking `sleep` s."""
    pytester.makeini("[pytest]\nmarkers =\n    slow: takes a while\n")
    path = pytester.makepyfile(source.format(sleep=sleep))
    selected = [f"{path.name}::{test}" for test in tests]
    return pytester.runpytest("-p", "slow_guard", *selected)


def test_an_unmarked_test_over_the_limit_fails_the_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0.2")
    result = run_guarded(pytester, 0.25, "test_quick", "test_sleeps")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*= 1 not marked slow, over 0.2 s =*", "*s test_an_unmarked*.py::test_sleeps"]
    )


def test_marked_tests_may_take_longer(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0.2")
    result = run_guarded(pytester, 0.25, "test_quick", "test_sleeps_marked", "TestMarkedClass")
    result.assert_outcomes(passed=3)
    assert result.ret == pytest.ExitCode.OK
    assert "not marked slow" not in result.stdout.str()


def test_a_failing_test_is_not_listed_twice(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0.2")
    source = "import time\n\ndef test_fails_slowly():\n    time.sleep({sleep})\n    assert False\n"
    result = run_guarded(pytester, 0.25, source=source)
    result.assert_outcomes(failed=1)
    assert "not marked slow" not in result.stdout.str()


def test_a_limit_of_zero_turns_the_check_off(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0")
    result = run_guarded(pytester, 0.25, "test_sleeps")
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.slow  # sleeps past the real limit
def test_the_default_limit_is_two_seconds(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(LIMIT_ENV, raising=False)
    assert DEFAULT_LIMIT_S == 2.0
    result = run_guarded(pytester, DEFAULT_LIMIT_S + 0.1, "test_sleeps")
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*= 1 not marked slow, over 2 s =*"])


@pytest.mark.slow  # starts two xdist workers
def test_under_xdist_the_controller_fails_the_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LIMIT_ENV, "0.2")
    # as a conftest, the plugin reaches the workers, which cannot import this folder
    pytester.makeconftest(Path(slow_guard.__file__).read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    slow: takes a while\n")
    pytester.makepyfile(TESTS.format(sleep=0.25))
    result = pytester.runpytest("-p", "xdist", "-n", "2")
    result.assert_outcomes(passed=4)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*= 1 not marked slow, over 0.2 s =*", "*s *.py::test_sleeps"])


def test_a_loaded_machine_scales_the_limit(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load of four runs per core allows four times the limit; the machine's own load is
    replaced by a fixed one (pytester runs in this process) so the case is the same
    everywhere."""
    monkeypatch.setenv(LIMIT_ENV, "0.1")
    monkeypatch.setenv(LOAD_SCALE_ENV, "1")
    cores = os.cpu_count() or 1
    monkeypatch.setattr(os, "getloadavg", lambda: (4.0 * cores, 0.0, 0.0))
    assert slow_guard.load_factor() == 4.0
    assert run_guarded(pytester, 0.25, "test_sleeps").ret == pytest.ExitCode.OK
    result = run_guarded(pytester, 0.45, "test_sleeps")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*s *.py::test_sleeps (load ×4.0)"])
