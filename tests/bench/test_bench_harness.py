"""The benchmark harness's own logic: wrk's figures read or refused, percentiles, the
`--baseline` flag taken out of a command line, and two outputs set side by side."""

from __future__ import annotations

import pytest

from devtools.bench.harness import (
    BenchError,
    parse_wrk,
    percentile,
    side_by_side,
    spread,
    without_baseline,
    wrk_post_lines,
)

WRK = """Running 5s test @ http://127.0.0.1:8090/v1/chat/completions
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     4.21ms    1.02ms  20.11ms   91.00%
    Req/Sec     3.80k   210.00     4.10k    80.00%
  Latency Distribution
     50%    4.05ms
     75%    4.40ms
     90%    5.01ms
     99%   812.00us
  18934 requests in 5.00s, 22.10MB read
Requests/sec:   3786.40
Transfer/sec:      4.42MB
"""


def test_wrk_figures_are_read_in_milliseconds() -> None:
    run = parse_wrk(WRK)
    assert run.requests == 18934
    assert run.rps == pytest.approx(3786.40)
    assert run.mean_ms == pytest.approx(4.21)
    assert run.p50_ms == pytest.approx(4.05)
    assert run.p99_ms == pytest.approx(0.812)


@pytest.mark.parametrize(
    "broken",
    [
        WRK.replace("Requests/sec:", "  Non-2xx or 3xx responses: 3\nRequests/sec:"),
        WRK.replace("Requests/sec:", "  Socket errors: connect 0, read 1\nRequests/sec:"),
        WRK.replace("18934 requests", "0 requests"),
        WRK.replace("     99%   812.00us\n", ""),
    ],
    ids=["non-2xx", "socket errors", "no request", "no p99"],
)
def test_a_wrk_run_with_failures_is_refused(broken: str) -> None:
    with pytest.raises(BenchError):
        parse_wrk(broken)


def test_a_post_body_needs_no_escaping_even_holding_a_long_bracket() -> None:
    lines = wrk_post_lines('{"text": "a]]b]=]c"}')
    assert lines[1] == 'wrk.body = [==[{"text": "a]]b]=]c"}]==]'


def test_percentiles_are_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]  # 1 … 100
    assert percentile(values, 0.5) == 51.0
    assert percentile(values, 0.95) == 95.0
    assert percentile([3.0], 0.95) == 3.0
    assert spread([1.0, 2.0, 3.0]) == "median 2.0 p95 3.0"


@pytest.mark.parametrize(
    ("argv", "kept"),
    [
        (["--pages", "3", "--baseline", "main"], ["--pages", "3"]),
        (["--baseline=abc123", "--scanned"], ["--scanned"]),
        (["--pages", "3"], ["--pages", "3"]),
    ],
)
def test_the_baseline_flag_is_taken_out(argv: list[str], kept: list[str]) -> None:
    assert without_baseline(argv) == kept


def test_two_outputs_side_by_side() -> None:
    shown = side_by_side("a\nlonger line", "x\ny\nz", "now", "main").splitlines()
    assert shown[0] == "now         │ main"
    assert shown[2] == "a           │ x"
    assert shown[3] == "longer line │ y"
    assert shown[4] == "            │ z"
