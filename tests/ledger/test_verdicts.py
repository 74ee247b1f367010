"""Verdict files: append one flushed line each, resume past a torn last line, read by id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.errors import InputError, LedgerError
from assay.ledger import append_verdict, labels_for, read_labels, read_verdicts, written_ids


def _write(path: Path, *records: dict[str, object]) -> None:
    with path.open("a", encoding="utf-8") as sink:
        for record in records:
            append_verdict(sink, record)


def test_append_then_read_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    _write(path, {"id": "b", "score": 0.5}, {"id": "a", "score": 0.9, "label": 1})
    assert path.read_text().splitlines()[0] == '{"id": "b", "score": 0.5}'
    records = read_verdicts(path)
    assert list(records) == ["b", "a"]
    assert records["a"]["score"] == 0.9


def test_each_line_is_flushed_as_written(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    with path.open("a", encoding="utf-8") as sink:
        append_verdict(sink, {"id": "x"})
        # Read through another handle before closing: the line is already on disk.
        assert set(written_ids(path)) == {"x"}


def test_resume_drops_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    _write(path, {"id": "a"}, {"id": "b"})
    path.write_text(path.read_text() + '{"id": "c", "sco')
    assert set(written_ids(path)) == {"a", "b"}
    assert path.read_text() == '{"id": "a"}\n{"id": "b"}\n'
    _write(path, {"id": "c"})
    assert list(read_verdicts(path)) == ["a", "b", "c"]


def test_resume_keeps_a_whole_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b"}')
    assert set(written_ids(path)) == {"a", "b"}
    assert path.read_text() == '{"id": "a"}\n{"id": "b"}\n'


def test_resume_refuses_a_broken_line_before_the_last(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    text = '{"id": "a"}\nnot json\n{"id": "b"}\n'
    path.write_text(text)
    with pytest.raises(LedgerError, match=r"Line 2 .* not the last"):
        written_ids(path)
    assert path.read_text() == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"id": "a"}\n{"id": "a"}\n', "duplicate ids: ['a']"),
        ('{"id": "a"}\n[1, 2]\n', "Line 2"),
        ('{"no_id": 1}\n', "Line 1"),
        ("\n\n", "holds no verdicts"),
    ],
    ids=["duplicate", "not-a-record", "no-id", "empty"],
)
def test_bad_files_are_named(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text(text)
    with pytest.raises(LedgerError) as caught:
        read_verdicts(path)
    assert words in str(caught.value)
    assert caught.value.code == "ledger.error"


def test_a_missing_file_is_a_ledger_error(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="Cannot read verdicts"):
        read_verdicts(tmp_path / "nope.jsonl")
    with pytest.raises(LedgerError, match="Cannot read verdicts"):
        written_ids(tmp_path / "nope.jsonl")


def test_labels_from_a_file_or_the_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps({"id": "a", "label": 0}) + "\n")
    assert labels_for(path, []) == {"a": 0}
    own = {"a": {"label": 1}, "b": {"label": True}, "c": {}}
    assert labels_for(None, [own]) == {"a": 1}
    path.write_text('{"id": "a", "label": true}\n')
    with pytest.raises(InputError, match="not 0 or 1"):
        read_labels(path)
