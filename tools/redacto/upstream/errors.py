"""The one error of the upstream client, for the proxy and proofread alike."""

from __future__ import annotations


class UpstreamError(RuntimeError):
    """The upstream could not be reached, refused the connection's TLS, answered something
    that is not HTTP, broke off, or did not answer in time.

    The message names the failure, never what was sent or received. `timeout`: it did not
    answer (or go on answering) in time; `unreachable`: no connection was made, so nothing
    was sent.
    """

    def __init__(self, message: str, *, timeout: bool = False, unreachable: bool = False) -> None:
        super().__init__(message)
        self.timeout = timeout
        self.unreachable = unreachable
