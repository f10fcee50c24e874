"""The scorer on hand-made predictions whose figures were worked out by hand.

Text: "Patient John Smith has diabetes. Call 555-0101 today." — 8 words, 3 of them PII
(John, Smith, 555-0101), 2 gold entities (NAME 8:18, PHONE 38:46), 1 preserve span
(diagnosis "diabetes", 23:31).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_cases import DOCUMENT, TEXT

from redacto.corpus.schema import CorpusDocument, GoldSpan, GoldWord, PreserveSpan, RenderedPage
from redacto.document import Box, Category, Mode
from redacto.evaluation.prediction import PredictedBox, PredictedSpan, Prediction
from redacto.evaluation.scorer import score_document
from redacto.evaluation.summary import Metrics


def text_prediction(*spans: tuple[int, int, str | None]) -> Prediction:
    return Prediction(
        mode=Mode.TEXT,
        spans=tuple(PredictedSpan(start=s, end=e, label=label) for s, e, label in spans),
    )


def metrics(prediction: Prediction, document: CorpusDocument = DOCUMENT, page=None) -> Metrics:
    return Metrics.of([score_document(document, prediction, page)])


def test_perfect_text_prediction_scores_one_everywhere() -> None:
    result = metrics(text_prediction((8, 18, "NAME"), (38, 46, "PHONE")))
    assert (result.token_recall, result.token_precision, result.token_f2) == (1.0, 1.0, 1.0)
    assert (result.entity_recall, result.entity_precision, result.entity_f2) == (1.0, 1.0, 1.0)
    assert result.leak_rate == 0.0
    assert result.over_redaction_rate == 0.0
    assert result.preserve_violation_rate == 0.0
    assert result.leaky_documents == 0
    assert result.box_coverage is None  # text mode has no boxes
    assert result.nicked_rate is None


def test_empty_prediction_leaks_everything_and_has_no_precision() -> None:
    result = metrics(text_prediction())
    assert result.token_recall == 0.0
    assert result.leak_rate == 1.0
    assert result.token_precision is None  # nothing predicted: undefined, not 0 or 1
    assert result.entity_recall == 0.0
    assert result.entity_precision is None
    assert result.leaky_documents == 1
    score = score_document(DOCUMENT, text_prediction())
    assert [(m.kind, m.label, TEXT[m.start : m.end]) for m in score.misses] == [
        ("leak", "NAME", "John"),
        ("leak", "NAME", "Smith"),
        ("leak", "PHONE", "555-0101"),
    ]


def test_shifted_span_leaks_the_clipped_word_and_over_redacts_the_next() -> None:
    # "hn Smith h": John keeps "Jo" readable (leak), "has" loses its "h" (over-redaction).
    result = metrics(text_prediction((10, 20, "NAME"), (38, 46, "PHONE")))
    assert result.token_recall == pytest.approx(2 / 3)
    assert result.token_precision == pytest.approx(3 / 4)
    assert result.token_f2 == pytest.approx(5 * 0.75 * (2 / 3) / (4 * 0.75 + 2 / 3))
    assert result.entity_recall == 0.5
    assert result.entity_precision == 1.0
    assert result.entity_f2 == pytest.approx(5 * 1 * 0.5 / (4 * 1 + 0.5))
    assert result.over_redaction_rate == pytest.approx(1 / 5)
    assert result.counts.over_redacted_words == 1


def test_redacting_everything_has_full_recall_and_violates_the_preserve_span() -> None:
    result = metrics(text_prediction((0, len(TEXT), None)))
    assert result.token_recall == 1.0
    assert result.token_precision == pytest.approx(3 / 8)
    assert result.over_redaction_rate == 1.0
    assert result.preserve_violation_rate == 1.0
    assert result.entity_recall == 1.0
    assert (result.counts.predicted_entities, result.counts.correct_predictions) == (1, 1)


def test_preserve_violation_is_counted_and_reported() -> None:
    prediction = text_prediction((8, 18, "NAME"), (38, 46, "PHONE"), (23, 31, None))
    result = metrics(prediction)
    assert result.preserve_violation_rate == 1.0
    assert result.token_recall == 1.0
    assert result.token_precision == pytest.approx(3 / 4)
    assert result.entity_precision == pytest.approx(2 / 3)
    score = score_document(DOCUMENT, prediction)
    assert [(m.kind, m.label) for m in score.misses if m.kind == "preserve"] == [
        ("preserve", "diagnosis")
    ]


def test_punctuation_alone_neither_leaks_nor_protects() -> None:
    # Hiding "555" and "0101" but not the hyphen still protects the phone number.
    result = metrics(text_prediction((8, 18, "NAME"), (38, 41, "PHONE"), (42, 46, "PHONE")))
    assert result.token_recall == 1.0
    assert result.entity_recall == 1.0


def test_labels_score_recall_by_gold_label_and_precision_by_predicted_label() -> None:
    score = score_document(DOCUMENT, text_prediction((8, 18, "NAME"), (38, 46, "ID")))
    assert score.labels["PHONE"].protected_words == 1  # hidden is hidden, whatever the label
    assert score.labels["PHONE"].found_entities == 1
    assert (score.labels["ID"].predicted, score.labels["ID"].predicted_correct) == (1, 0)
    assert (score.labels["NAME"].predicted, score.labels["NAME"].predicted_correct) == (1, 1)


# Image mode: "John Smith has diabetes" drawn as four 100×20 px words, 10 px apart.
IMAGE_TEXT = "John Smith has diabetes"
IMAGE_DOCUMENT = CorpusDocument(
    id="medical-0002",
    category=Category.MEDICAL,
    document_type="note",
    split="test",
    template="hand",
    text=IMAGE_TEXT,
    pii=(GoldSpan(start=0, end=10, label="NAME"),),
    preserve=(PreserveSpan(start=15, end=23, kind="diagnosis"),),
)


def page_of(text: str) -> RenderedPage:
    words = []
    position = 0
    for index, word in enumerate(text.split(" ")):
        start = text.index(word, position)
        position = start + len(word)
        box = Box(x0=index * 110, y0=0, x1=index * 110 + 100, y1=20)
        words.append(GoldWord(index=index, text=word, box=box, start=start, end=position))
    return RenderedPage(image_path=Path("unused.png"), width=500, height=40, words=tuple(words))


def image_prediction(*boxes: tuple[float, float, float, float]) -> Prediction:
    return Prediction(
        mode=Mode.IMAGE,
        boxes=tuple(PredictedBox(box=Box(x0=a, y0=b, x1=c, y1=d)) for a, b, c, d in boxes),
    )


def test_partial_boxes_protect_at_ninety_percent_coverage() -> None:
    # John 95 % covered (protected), Smith 85 % (leaked but touched), "has" 20 % (untouched).
    prediction = image_prediction((0, 0, 95, 20), (110, 0, 195, 20), (220, 0, 240, 20))
    result = metrics(prediction, IMAGE_DOCUMENT, page_of(IMAGE_TEXT))
    assert result.token_recall == 0.5
    assert result.leak_rate == 0.5
    assert result.token_precision == 1.0
    assert result.box_coverage == pytest.approx(0.9)
    assert result.entity_recall == 0.0  # Smith is readable, so the name leaked
    # The third box hides no word: a wrong prediction for entity precision.
    assert result.entity_precision == pytest.approx(2 / 3)
    assert result.over_redaction_rate == 0.0
    assert result.nicked_rate == 0.5  # "has" lost a fifth of its ink; "diabetes" none
    assert result.preserve_violation_rate == 0.0
    score = score_document(IMAGE_DOCUMENT, prediction, page_of(IMAGE_TEXT))
    [leak] = [m for m in score.misses if m.kind == "leak"]
    assert (leak.word_index, leak.coverage) == (1, 0.85)


def test_one_box_over_the_name_and_the_diagnosis_violates_preserve() -> None:
    prediction = image_prediction((0, 0, 500, 20))
    result = metrics(prediction, IMAGE_DOCUMENT, page_of(IMAGE_TEXT))
    assert result.token_recall == 1.0
    assert result.box_coverage == 1.0
    assert result.over_redaction_rate == 1.0
    assert result.token_precision == 0.5
    assert result.preserve_violation_rate == 1.0
    assert (result.counts.predicted_entities, result.counts.correct_predictions) == (1, 1)


def test_image_scoring_needs_the_page() -> None:
    with pytest.raises(ValueError, match="rendered page"):
        score_document(IMAGE_DOCUMENT, image_prediction())


def test_prediction_rejects_boxes_in_text_mode() -> None:
    with pytest.raises(ValueError, match="spans, not boxes"):
        Prediction(mode=Mode.TEXT, boxes=(PredictedBox(box=Box(x0=0, y0=0, x1=1, y1=1)),))
