"""`redacto serve`: a local review page — watch a page redact itself, fix it, approve it;
or watch a PDF or photo be proofread, each mistake boxed on its page as it arrives.

`ReviewServer(engine, prompts, config, port=…)` serves the page on 127.0.0.1 behind a random
token (`.url`): an ASGI application (`app`, behind the one check of `guard`) on uvicorn,
with the connection bounds of `redacto.asgi` (`protocol`). `JobBoard` (in `jobs`) runs
uploads one at a time on the one engine, in memory — read with
`redacto.inputs.read_input_bytes`, then `redact` or `proofread` (`proofreading`): no file
written — and keeps each job's events for the page's server-sent-event stream; review
edits and approval go through `redacto.serve.review.ReviewSession`. docs/serve.md explains the
decisions.
"""

from redacto.serve.answers import CONTENT_SECURITY_POLICY
from redacto.serve.jobs import JobBoard, JobKind, JobState, ServeConfig
from redacto.serve.server import ReviewServer

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "JobBoard",
    "JobKind",
    "JobState",
    "ReviewServer",
    "ServeConfig",
]
