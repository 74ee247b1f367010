"""One table of settings: it drives CLI flags, ``ASSAY_*`` environment variables and the docs.

Precedence, highest first: an explicit argument, a CLI flag, an environment variable, a config
file, the default. ``Settings`` is a frozen value; nothing here is a module global that changes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from assay.errors import ConfigError

__all__ = [
    "DEFAULTS",
    "SETTINGS",
    "Setting",
    "Settings",
    "default_cache_dir",
    "load_settings",
    "settings_fields_source",
    "settings_markdown",
]


@dataclass(frozen=True)
class Setting:
    """One documented setting."""

    name: str
    default: Any
    type: type
    unit: str
    help: str

    @property
    def env_var(self) -> str:
        return "ASSAY_" + self.name.upper()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


SETTINGS: tuple[Setting, ...] = (
    Setting("time_limit_ms", 10_000, int, "ms", "Wall-clock limit for one query."),
    Setting("max_rows", 1_000, int, "rows", "Rows kept from one query result (row cap)."),
    Setting("memory_limit_mb", 2_048, int, "MiB", "Engine memory limit for one worker."),
    Setting("max_sql_bytes", 100_000, int, "bytes", "Largest SQL statement the guard accepts."),
    Setting(
        "max_result_bytes",
        64_000_000,
        int,
        "bytes",
        "Bytes of one result kept in the worker; past it the result is truncated (byte cap).",
    ),
    Setting(
        "max_cell_bytes",
        8_000_000,
        int,
        "bytes",
        "Largest single value a result may hold; a larger one fails the query.",
    ),
    Setting(
        "temp_limit_mb",
        512,
        int,
        "MiB",
        "Temporary files one DuckDB worker may spill (in its own private temp directory).",
    ),
    Setting("n_workers", 1, int, "processes", "Warm worker processes per connector."),
    Setting(
        "statement_log_limit",
        10_000,
        int,
        "statements",
        "Statements one connector keeps in its log; the oldest are dropped first (a "
        "long-running server's memory stays bounded).",
    ),
    Setting("cache_dir", "", str, "path", "Where generated warehouses are cached."),
    Setting(
        "llm_base_url",
        "",
        str,
        "url",
        "OpenAI-compatible endpoint (an http(s) URL); empty means no model (docs/model.md).",
    ),
    Setting(
        "llm_model", "", str, "name", "Model name sent to the endpoint; needed with a base URL."
    ),
    Setting("llm_api_key", "", str, "secret", "Bearer token for the endpoint."),
    Setting(
        "n_samples",
        5,
        int,
        "samples",
        "Model samples per question on plain `assay ask`, beside the planner's answer; with "
        "`assay ask --agent`, the flag alone sets how many agent runs are drawn (default 1).",
    ),
    Setting("llm_timeout_s", 60, int, "s", "Time limit for one call to the model endpoint."),
    Setting(
        "llm_escalation_base_url",
        "",
        str,
        "url",
        "A second, larger endpoint, also sampled when agreement is below 0.6; empty means none.",
    ),
    Setting("llm_escalation_model", "", str, "name", "Model name at the escalation endpoint."),
    Setting(
        "spider_root",
        "",
        str,
        "path",
        "The Spider slice's folder; empty means ../shared/data/spider-slice beside the project.",
    ),
    Setting(
        "matching",
        "permuted",
        str,
        "policy",
        "How sample results are matched for agreement (`assay score`, and the model's "
        "samples on `assay ask`): strict (same columns in the same order, same rows), "
        "permuted (columns in any order) or relaxed (a projection, the paper's Definition 1); "
        "any other value is an error.",
    ),
)

_BY_NAME = {s.name: s for s in SETTINGS}
# The values ``matching`` takes (``assay.agreement.MatchingPolicy``; settings sit below it).
MATCHING_POLICIES = ("strict", "permuted", "relaxed")
_DEFAULT: dict[str, Any] = {s.name: s.default for s in SETTINGS}

# The fields of ``Settings`` between these two marker comments are written from ``SETTINGS`` by
# ``settings_fields_source()``; tests/meta/test_settings.py checks that they agree and rewrites
# them with ``pytest --update-goldens`` after a row is added. Defaults are read from the table.
FIELDS_BEGIN = "    # fields generated from SETTINGS: begin"
FIELDS_END = "    # fields generated from SETTINGS: end"


def default_cache_dir() -> Path:
    """The cache folder: ``$XDG_CACHE_HOME/assay`` or ``~/.cache/assay``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "assay"


@dataclass(frozen=True)
class Settings:
    """Resolved settings: one typed field per row of ``SETTINGS``, checked on construction.

    Example:
        >>> Settings(max_rows=50).max_rows
        50
        >>> Settings().time_limit_ms == SETTINGS[0].default
        True
    """

    # fields generated from SETTINGS: begin
    time_limit_ms: int = _DEFAULT["time_limit_ms"]
    max_rows: int = _DEFAULT["max_rows"]
    memory_limit_mb: int = _DEFAULT["memory_limit_mb"]
    max_sql_bytes: int = _DEFAULT["max_sql_bytes"]
    max_result_bytes: int = _DEFAULT["max_result_bytes"]
    max_cell_bytes: int = _DEFAULT["max_cell_bytes"]
    temp_limit_mb: int = _DEFAULT["temp_limit_mb"]
    n_workers: int = _DEFAULT["n_workers"]
    statement_log_limit: int = _DEFAULT["statement_log_limit"]
    cache_dir: str = _DEFAULT["cache_dir"]
    llm_base_url: str = _DEFAULT["llm_base_url"]
    llm_model: str = _DEFAULT["llm_model"]
    llm_api_key: str = _DEFAULT["llm_api_key"]
    n_samples: int = _DEFAULT["n_samples"]
    llm_timeout_s: int = _DEFAULT["llm_timeout_s"]
    llm_escalation_base_url: str = _DEFAULT["llm_escalation_base_url"]
    llm_escalation_model: str = _DEFAULT["llm_escalation_model"]
    spider_root: str = _DEFAULT["spider_root"]
    matching: str = _DEFAULT["matching"]
    # fields generated from SETTINGS: end

    def __post_init__(self) -> None:
        for name in (f.name for f in fields(self)):
            value = _coerce(_BY_NAME[name], getattr(self, name), source=f"argument {name}")
            object.__setattr__(self, name, value)
        if self.matching not in MATCHING_POLICIES:
            raise ConfigError(
                f"Setting matching must be one of {', '.join(MATCHING_POLICIES)}; got "
                f"{self.matching!r}.",
                hint="Set --matching or ASSAY_MATCHING to strict, permuted or relaxed.",
            )

    @property
    def cache_path(self) -> Path:
        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()

    def with_values(self, **overrides: Any) -> Settings:
        """A copy with the given settings replaced; ``None`` keeps the current value."""
        changes = {k: v for k, v in overrides.items() if v is not None}
        for key in changes:
            _setting(key)
        return replace(self, **changes)


def settings_fields_source() -> str:
    """The typed fields of ``Settings`` as source, one per row of ``SETTINGS``, in order."""
    lines = [FIELDS_BEGIN]
    for s in SETTINGS:
        lines.append(f'    {s.name}: {s.type.__name__} = _DEFAULT["{s.name}"]')
    lines.append(FIELDS_END)
    return "\n".join(lines) + "\n"


def _setting(name: str) -> Setting:
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(_BY_NAME))
        raise ConfigError(f"Unknown setting {name!r}.", hint=f"Known settings: {known}.") from None


def _coerce(setting: Setting, raw: Any, *, source: str) -> Any:
    if setting.type is int:
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ConfigError(
                f"Setting {setting.name} from {source} must be an integer, got {raw!r}.",
                hint=f"Set {setting.flag} or {setting.env_var} to a whole number of "
                f"{setting.unit}.",
            ) from None
        if value <= 0:
            raise ConfigError(
                f"Setting {setting.name} from {source} must be positive, got {value}.",
                hint=f"Set {setting.flag} or {setting.env_var} above zero.",
            )
        return value
    return str(raw)


def load_settings(
    env: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
    **overrides: Any,
) -> Settings:
    """Resolve settings: overrides > environment > config mapping > defaults.

    Example:
        >>> load_settings({"ASSAY_MAX_ROWS": "50"}).max_rows
        50
    """
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    for key, raw in (config or {}).items():
        values[key] = _coerce(_setting(key), raw, source="config file")
    for setting in SETTINGS:
        if setting.env_var in env and env[setting.env_var] != "":
            values[setting.name] = _coerce(setting, env[setting.env_var], source=setting.env_var)
    return Settings(**values).with_values(**overrides)


def settings_markdown() -> str:
    """The settings table as Markdown (``docs/settings.md`` is this, checked by a test)."""
    lines = [
        "# Settings",
        "",
        "Every setting can be given as an `ASSAY_*` environment variable; a command takes a",
        "setting as a flag too when it uses it (`assay COMMAND --help` lists them; `assay ask`",
        "reads the API key from the environment only). `assay serve` answers without a model:",
        "it says so at start when `ASSAY_LLM_*` is set (see [model.md](model.md)).",
        "Precedence: argument > flag > environment > config file > default.",
        "",
        "| setting | flag | environment | default | unit | what it does |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s in SETTINGS:
        default = repr(s.default) if s.default != "" else "(empty)"
        lines.append(
            f"| `{s.name}` | `{s.flag}` | `{s.env_var}` | {default} | {s.unit} | {s.help} |"
        )
    return "\n".join(lines) + "\n"


DEFAULTS = Settings()
"""Every setting at its default, for signatures that need one (``time_limit_ms=DEFAULTS...``)."""
