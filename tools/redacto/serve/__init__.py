"""`redacto serve`: a local review page — watch a page redact itself, fix it, approve it.

`ReviewServer(engine, prompts, config, port=…)` serves the page on 127.0.0.1 behind a random
token (`.url`); `JobBoard` (in `jobs`) runs uploads one at a time through `redact_file` on
the one engine and keeps each job's events for the page's server-sent-event stream; review
edits and approval go through `redacto.review.ReviewSession`. docs/serve.md explains the
decisions.
"""

from redacto.serve.http import CONTENT_SECURITY_POLICY, ReviewServer
from redacto.serve.jobs import JobBoard, JobState, ServeConfig

__all__ = ["CONTENT_SECURITY_POLICY", "JobBoard", "JobState", "ReviewServer", "ServeConfig"]
