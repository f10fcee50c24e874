"""Every file rendered from the repository's sources and committed, and the one command that
writes and checks them (`python -m devtools.generated --check|--write|--list`).

`registry.REGISTRY` names each family of files (Kotlin constants, golden vectors, Unicode
tables, the rule prefilter, the corpus, the font, the policy files) and how it is rendered;
`engine` compares and writes, the same loop for all of them; the other modules are the
generators. docs/generated.md lists the registry.
"""
