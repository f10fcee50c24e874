"""Why the proxy refuses a request: the status, a message safe to log, and the answer."""

from __future__ import annotations


class Refused(Exception):
    """The request cannot be forwarded; `status` and `answer` go back to the client.

    The message (`str()`) goes to the log, so it names where and why, never what: no
    value of the request, nor a key the client chose. `answer` may say more to the client
    that sent the request (the name of a field it sent that the proxy does not know).
    """

    def __init__(self, status: int, message: str, code: str = "redacto_refused") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.answer = message
