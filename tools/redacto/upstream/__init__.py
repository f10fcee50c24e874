"""The one client for an OpenAI-compatible upstream, below the proxy and proofread: HTTP/1.1
over `http://` or `https://` (`UpstreamPool`), one error (`UpstreamError`), one
server-sent-events reader (`SseSplitter`), and a synchronous bridge for proofread
(`iterate`). docs/proxy-http.md (§ One upstream client) says why it is written on httptools.
"""

from redacto.upstream.blocking import iterate
from redacto.upstream.client import HOP_BY_HOP, UpstreamPool, UpstreamResponse
from redacto.upstream.errors import UpstreamError
from redacto.upstream.sse import DONE, SseSplitter, event_data, event_lines
from redacto.upstream.tls import tls_context

__all__ = [
    "DONE",
    "HOP_BY_HOP",
    "SseSplitter",
    "UpstreamError",
    "UpstreamPool",
    "UpstreamResponse",
    "event_data",
    "event_lines",
    "iterate",
    "tls_context",
]
