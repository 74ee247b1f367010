"""Generators: where candidates come from (a samples file, the planner, a model)."""

from assay.generators._llm import ChatClient, ChatEndpoint, ChatReply
from assay.generators._model_path import (
    SAMPLING_TEMPERATURE,
    ModelPath,
    ModelSamples,
    model_path_from_settings,
)
from assay.generators._planner import Plan, plan
from assay.generators._reply import extract_sql, reply_fields, unfenced
from assay.generators._samples import (
    ResultModel,
    SampleLine,
    SampleModel,
    SampleRecord,
    read_samples,
)

__all__ = [
    "SAMPLING_TEMPERATURE",
    "ChatClient",
    "ChatEndpoint",
    "ChatReply",
    "ModelPath",
    "ModelSamples",
    "Plan",
    "ResultModel",
    "SampleLine",
    "SampleModel",
    "SampleRecord",
    "extract_sql",
    "model_path_from_settings",
    "plan",
    "read_samples",
    "reply_fields",
    "unfenced",
]
