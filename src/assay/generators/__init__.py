"""Generators: where candidates come from (a samples file, the planner, a model)."""

from assay.generators._llm import ChatClient, ChatEndpoint, ChatReply
from assay.generators._planner import Plan, plan
from assay.generators._samples import (
    ResultModel,
    SampleLine,
    SampleModel,
    SampleRecord,
    read_samples,
)

__all__ = [
    "ChatClient",
    "ChatEndpoint",
    "ChatReply",
    "Plan",
    "ResultModel",
    "SampleLine",
    "SampleModel",
    "SampleRecord",
    "plan",
    "read_samples",
]
