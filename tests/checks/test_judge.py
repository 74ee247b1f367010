"""The optional judge: what it is shown (never a reference), and how its reply is re-validated."""

from __future__ import annotations

import json

import httpx

from assay.checks import CheckContext, ModelJudge, parse_judge_reply, run_checks
from assay.generators import ChatClient, ChatEndpoint
from assay.types import Candidate, Result

CANDIDATE = Candidate(
    "SELECT count(*) FROM orders",
    (),
    "There are 200 orders, a record.",
    Result(("n",), ((200,),), 1),
)


def test_parse_and_complete_share() -> None:
    report = parse_judge_reply(
        'Sure! {"parts": [{"part": "count", "covered": true}, {"part": "trend", '
        '"covered": false}], "claims": [{"text": "a record", "supported": false, '
        '"about": "commentary"}, {"text": "junk"}]}',
        "tiny",
    )
    assert report is not None
    assert report.complete == 0.5
    assert [(c.text, c.about) for c in report.claims] == [("a record", "commentary")]


def test_garbage_leaves_terms_unmeasured() -> None:
    assert parse_judge_reply("I cannot help with that.", "m") is None
    assert parse_judge_reply("{not json}", "m") is None


def test_model_judge_is_never_shown_a_reference() -> None:
    bodies: list[dict] = []  # type: ignore[type-arg]

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        content = json.dumps(
            {
                "parts": [{"part": "how many", "covered": True}],
                "claims": [{"text": "a record", "supported": False, "about": "answer"}],
            }
        )
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    judge = ModelJudge(
        ChatClient(ChatEndpoint("http://j/v1", "judge"), transport=httpx.MockTransport(handler))
    )
    report = judge("How many orders?", "", CANDIDATE)
    assert report is not None and report.complete == 1.0
    sent = bodies[0]["messages"][1]["content"]
    assert "gold" not in sent and "reference" not in json.loads(sent)
    assert json.loads(sent)["rows"] == [[200]]
    ctx = CheckContext("How many orders?", CANDIDATE, "duckdb", judge=report)
    assert "cap.unsupported_claim" in [f.code for f in run_checks(ctx).findings]


def test_model_failure_is_recorded_not_a_pass() -> None:
    judge = ModelJudge(
        ChatClient(
            ChatEndpoint("http://j/v1", "judge"),
            transport=httpx.MockTransport(lambda r: httpx.Response(503)),
        )
    )
    assert judge("q", "", CANDIDATE) is None
    assert "HTTP 503" in judge.failures[0]
