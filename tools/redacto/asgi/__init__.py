"""The HTTP stack both faces serve on: an ASGI application on uvicorn, with the bounds on
a client connection uvicorn's settings do not give (`protocol.GuardedProtocol`) and the
settings and listening socket they share (`runner`). The proxy (`redacto.proxy`) and the
review page (`redacto.serve`) each subclass the protocol for what is their own (how a
refusal reads; the review page's connection cap and request-line answers)."""
