"""Progress events name the element just detected, so a screen draws each box as it comes:
rule hits first, then each detector line, then each validator item (as Kotlin's core does)."""

from __future__ import annotations

from redacto.document import Box, Document, Element, Step
from redacto.engines.scripted import ScriptedEngine
from redacto.pipeline import Phase, ProgressEvent, run_pipeline


def test_progress_events_carry_the_index_of_each_new_box(prompts):
    words = ["Patient", "Jane", "Smith", "jane@example.com", "DOB", "03/15/78"]
    elements = [
        Element(index=i, text=w, box=Box(x0=10 * i, y0=0, x1=10 * i + 9, y1=9))
        for i, w in enumerate(words)
    ]
    engine = ScriptedEngine.from_mapping(
        {
            "classify": ["CATEGORY: Medical"],
            "detect": ["1:NAME\n2:NAME\n"],
            "validate": ["FAIL\n0:NAME\n", "PASS"],
        }
    )
    events: list[ProgressEvent] = []
    run_pipeline(
        Document.from_elements(elements, (60, 10)), engine, prompts, on_event=events.append
    )
    named = [(e.step, e.index) for e in events if e.phase is Phase.PROGRESS]
    assert named == [
        (Step.DETECT, 3),
        (Step.DETECT, 5),
        (Step.DETECT, 1),
        (Step.DETECT, 2),
        (Step.VALIDATE, 0),
    ]
    assert all(e.index is None for e in events if e.phase is not Phase.PROGRESS)
