"""``Settings`` is generated from the one table: same names, order, types and defaults."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

import assay.settings as settings_module
from assay.errors import ConfigError
from assay.settings import (
    DEFAULTS,
    SETTINGS,
    Settings,
    load_settings,
    settings_fields_source,
)

SOURCE = Path(inspect.getfile(settings_module))


def _generated_block(text: str) -> str:
    # Each marker on a line of its own (the constants naming them are not).
    begin = text.index("\n" + settings_module.FIELDS_BEGIN + "\n") + 1
    end = text.index("\n" + settings_module.FIELDS_END + "\n", begin) + 1
    return text[begin : end + len(settings_module.FIELDS_END) + 1]


def test_fields_in_the_source_are_the_generated_ones(update_goldens: bool) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    if update_goldens:
        text = text.replace(_generated_block(text), settings_fields_source())
        SOURCE.write_text(text, encoding="utf-8")
    assert _generated_block(text) == settings_fields_source(), (
        "Settings' fields disagree with SETTINGS; rerun pytest with --update-goldens"
    )


def test_fields_agree_with_the_table() -> None:
    fields = dataclasses.fields(Settings)
    assert [f.name for f in fields] == [s.name for s in SETTINGS]
    for f, s in zip(fields, SETTINGS, strict=True):
        assert f.type == s.type.__name__, f.name
        assert f.default == s.default, f.name
        assert type(getattr(DEFAULTS, s.name)) is s.type, f.name


def test_a_value_of_the_wrong_type_is_named() -> None:
    with pytest.raises(ConfigError, match=r"max_rows .* must be an integer, got 'many'"):
        Settings(max_rows="many")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"time_limit_ms .* must be positive"):
        DEFAULTS.with_values(time_limit_ms=0)
    with pytest.raises(ConfigError, match="Unknown setting 'max_row'"):
        DEFAULTS.with_values(max_row=5)


def test_precedence_argument_over_env_over_config() -> None:
    env = {"ASSAY_MAX_ROWS": "20", "ASSAY_TIME_LIMIT_MS": "300"}
    got = load_settings(env, {"max_rows": 10, "n_workers": 3}, max_rows=30)
    assert (got.max_rows, got.time_limit_ms, got.n_workers) == (30, 300, 3)
    assert got.memory_limit_mb == DEFAULTS.memory_limit_mb
    assert load_settings({"ASSAY_MAX_ROWS": ""}).max_rows == DEFAULTS.max_rows


def test_env_values_are_coerced_to_their_type() -> None:
    got = load_settings({"ASSAY_N_SAMPLES": "7", "ASSAY_LLM_MODEL": "m"})
    assert got.n_samples == 7 and isinstance(got.n_samples, int)
    assert got.llm_model == "m"


@pytest.mark.parametrize("value", ["bogus", "Relaxed", "exact"], ids=["bogus", "case", "other"])
def test_a_matching_policy_outside_the_three_is_named(value: str) -> None:
    # tryout 38: ASSAY_MATCHING=bogus was accepted (and ask ignored the setting).
    with pytest.raises(
        ConfigError, match=f"matching must be one of strict, permuted, relaxed; got {value!r}"
    ):
        load_settings({"ASSAY_MATCHING": value})
    assert load_settings({"ASSAY_MATCHING": "strict"}).matching == "strict"
