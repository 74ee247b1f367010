"""Semantic layer: governed metrics, dimensions, joins and the rules that read them."""

from assay.semantic._behaviour import BehaviourDecision, closest_metrics, decide
from assay.semantic._compare import NUMERIC_TYPE, Comparison
from assay.semantic._compare import said as said_bounds
from assay.semantic._distinct import distinct_count
from assay.semantic._distinct_entity import (
    distinct_entities,
    distinct_over_rows,
    why_not_distinct,
)
from assay.semantic._follow_up import compose_follow_up, on_reading_line, phrase_span
from assay.semantic._having import GroupCondition
from assay.semantic._join_paths import JoinPaths, join_paths
from assay.semantic._load import check_against, load_semantic, parse_semantic
from assay.semantic._lookup import ValueLookup, value_lookup_sql, value_lookups, with_found
from assay.semantic._model import (
    DerivedName,
    Dimension,
    ForbiddenJoin,
    JoinPath,
    Metric,
    RetiredColumn,
    SemanticLayer,
    TrustedExample,
    metric_filter,
)
from assay.semantic._names import entity_columns, with_derived_names
from assay.semantic._numeric import with_numeric_columns
from assay.semantic._other_role import OtherRole, other_roles
from assay.semantic._periods import NO_CLOCK, Period, find_periods, parse_period
from assay.semantic._reading import BY_NAME, Filter, Ranking, Reading, read
from assay.semantic._replies import (
    AskBackChoice,
    ask_back_choices,
    chosen_and_more,
    chosen_reply,
)
from assay.semantic._resolve import Lexicon, Match, canonical, tokenize
from assay.semantic._spoken import spoken_dimension, spoken_name
from assay.semantic._whose_place import OtherPlace, other_places

# The names the pipeline used before the whole-question reader; kept for callers.
Resolution = Reading
resolve = read

__all__ = [
    "BY_NAME",
    "NO_CLOCK",
    "NUMERIC_TYPE",
    "AskBackChoice",
    "BehaviourDecision",
    "Comparison",
    "DerivedName",
    "Dimension",
    "Filter",
    "ForbiddenJoin",
    "GroupCondition",
    "JoinPath",
    "JoinPaths",
    "Lexicon",
    "Match",
    "Metric",
    "OtherPlace",
    "OtherRole",
    "Period",
    "Ranking",
    "Reading",
    "Resolution",
    "RetiredColumn",
    "SemanticLayer",
    "TrustedExample",
    "ValueLookup",
    "ask_back_choices",
    "canonical",
    "check_against",
    "chosen_and_more",
    "chosen_reply",
    "closest_metrics",
    "compose_follow_up",
    "decide",
    "distinct_count",
    "distinct_entities",
    "distinct_over_rows",
    "entity_columns",
    "find_periods",
    "join_paths",
    "load_semantic",
    "metric_filter",
    "on_reading_line",
    "other_places",
    "other_roles",
    "parse_period",
    "parse_semantic",
    "phrase_span",
    "read",
    "resolve",
    "said_bounds",
    "spoken_dimension",
    "spoken_name",
    "tokenize",
    "value_lookup_sql",
    "value_lookups",
    "why_not_distinct",
    "with_derived_names",
    "with_found",
    "with_numeric_columns",
]
