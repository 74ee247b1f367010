"""Generators: where candidates come from (a samples file, the planner, a model)."""

from assay.generators._samples import (
    ResultModel,
    SampleLine,
    SampleModel,
    SampleRecord,
    read_samples,
)

__all__ = ["ResultModel", "SampleLine", "SampleModel", "SampleRecord", "read_samples"]
