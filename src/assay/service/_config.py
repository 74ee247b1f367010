"""The server-side configuration: databases and layers by key, the ledger, tokens, limits.

A request names a configured database by its key and nothing else: connection URLs, file paths
and semantic layers live only here, read once at start. With no file, the demo warehouse is
served (as ``assay ask`` does).

```yaml
databases:
  shop:
    url: shop.duckdb            # a path (relative to this file) or an SQLAlchemy URL
    semantic: shop.yaml         # its semantic layer
ledger: sqlite:///ledger.db     # any SQLAlchemy URL; relative sqlite paths are beside this file
ledger_sync: normal             # SQLite: normal survives a killed process, full a power loss too
tokens:                         # optional: client name -> bearer token (or sha256:<hex>)
  analyst: "s3cret-token"
cors_origins: []                # CORS stays off unless origins are named
limits: {max_body_bytes: 65536, rate_per_minute: 120, request_time_limit_s: 30}
calibration: {dir: calibrators, cost: 4}   # 'assay calibrate --ledger' writes <dir>/<key>.json
```
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assay.errors import ConfigError
from assay.settings import Settings

__all__ = [
    "CalibrationConfig",
    "DatabaseConfig",
    "LimitsConfig",
    "ServiceConfig",
    "demo_config",
    "load_config",
    "token_client",
]

_KEY = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$"


class DatabaseConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(min_length=1)
    semantic: Path
    description: str = ""


class LimitsConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_body_bytes: int = Field(65_536, ge=1_024)
    # Requests per minute per client (token name, else address); 0 turns the limit off.
    rate_per_minute: int = Field(600, ge=0)
    request_time_limit_s: float = Field(30.0, gt=0)
    # A client that has not sent its whole body within this many seconds is cut off (408).
    body_read_timeout_s: float = Field(10.0, gt=0)
    # Processes that finish the asks that run SQL under `assay serve` (service/_answerers.py);
    # unset: n_workers + 1; 0: finished in the request threads of the server process.
    answer_processes: int | None = Field(None, ge=0, le=64)
    # Processes that read every question under `assay serve` (service/_answerers.py); unset:
    # the number of CPUs, at most 4; 0: read in the request threads of the server process.
    reading_processes: int | None = Field(None, ge=0, le=64)


class CalibrationConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    dir: Path | None = None
    cost: float = Field(4.0, gt=0)
    min_labels: int = Field(50, ge=2)


class ServiceConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    databases: dict[str, DatabaseConfig] = Field(min_length=1)
    ledger: str = "sqlite:///assay-ledger.db"
    # SQLite ledgers: "normal" survives a killed process, "full" also a power loss (slower).
    ledger_sync: Literal["normal", "full"] = "normal"
    tokens: dict[str, str] = Field(default_factory=dict)
    cors_origins: list[str] = Field(default_factory=list)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)  # type: ignore[arg-type]
    calibration: CalibrationConfig = Field(default_factory=CalibrationConfig)  # type: ignore[arg-type]
    demo: bool = False

    @field_validator("databases")
    @classmethod
    def _keys(cls, value: dict[str, DatabaseConfig]) -> dict[str, DatabaseConfig]:
        import re

        bad = [k for k in value if not re.match(_KEY, k)]
        if bad:
            raise ValueError(f"database keys {bad} must be letters, digits, '_', '.', '-'")
        return value

    @field_validator("tokens")
    @classmethod
    def _tokens(cls, value: dict[str, str]) -> dict[str, str]:
        # A sha256 token is 64 hex digits after its prefix (outside tryout 25: "sha256:xyz" was
        # called "shorter than 16 characters").
        hashed = [
            name
            for name, token in value.items()
            if token.startswith("sha256:") and not _is_sha256(token[len("sha256:") :])
        ]
        if hashed:
            raise ValueError(
                f"tokens of {hashed} start with 'sha256:' but are not followed by 64 hex digits "
                "(write the hash as `printf %s TOKEN | sha256sum` prints it)"
            )
        short = [
            name
            for name, token in value.items()
            if not token.startswith("sha256:") and len(token) < 16
        ]
        if short:
            raise ValueError(f"tokens of {short} are shorter than 16 characters")
        return value


def load_config(path: Path) -> ServiceConfig:
    """Read a YAML configuration; relative paths are taken beside the file.

    Raises:
        ConfigError: the file cannot be read, is not YAML, or breaks the schema (every problem
            named with its key).
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(
            f"Cannot read the service configuration {str(path)!r}: {exc}.",
            hint="Give a YAML file as documented in docs/deploy.md.",
        ) from exc
    if not isinstance(raw, dict):
        raise ConfigError(
            f"The service configuration {str(path)!r} is not a mapping.",
            hint="Start it with 'databases:' (see docs/deploy.md).",
        )
    if "llm" in raw:
        raise ConfigError(
            f"The service configuration {str(path)!r} has an 'llm:' section, and the service "
            "answers without a model.",
            hint="Remove 'llm:'; the model path is on `assay ask` (see docs/model.md).",
        )
    base = Path(path).resolve().parent
    try:
        config = ServiceConfig.model_validate(_anchored(raw, base))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise ConfigError(
            f"The service configuration {str(path)!r} is invalid: {problems}.",
            hint="See docs/deploy.md for every key.",
        ) from exc
    return config


def _anchored(raw: dict[str, Any], base: Path) -> dict[str, Any]:
    out = dict(raw)
    databases = out.get("databases")
    if isinstance(databases, dict):
        fixed = {}
        for key, spec in databases.items():
            if isinstance(spec, dict):
                spec = dict(spec)
                url = spec.get("url")
                if isinstance(url, str) and "://" not in url and not Path(url).is_absolute():
                    spec["url"] = str(base / url)
                semantic = spec.get("semantic")
                if isinstance(semantic, str) and not Path(semantic).is_absolute():
                    spec["semantic"] = str(base / semantic)
            fixed[key] = spec
        out["databases"] = fixed
    ledger = out.get("ledger")
    if isinstance(ledger, str) and ledger.startswith("sqlite:///") and ledger != "sqlite:///":
        target = ledger[len("sqlite:///") :]
        if target and not Path(target).is_absolute() and target != ":memory:":
            out["ledger"] = f"sqlite:///{base / target}"
    calibration = out.get("calibration")
    if isinstance(calibration, dict) and isinstance(calibration.get("dir"), str):
        if not Path(calibration["dir"]).is_absolute():
            out["calibration"] = {**calibration, "dir": str(base / calibration["dir"])}
    return out


def demo_config(
    db: Path, layer: Path, settings: Settings, ledger: str | None = None
) -> ServiceConfig:
    """The demo warehouse (``assay.cli._ask.demo_warehouse``) as the one configured database."""
    return ServiceConfig(
        databases={"shop": DatabaseConfig(url=str(db), semantic=layer, description="demo")},
        ledger=ledger or f"sqlite:///{settings.cache_path / 'ledger.db'}",
        demo=True,
    )


def _is_sha256(text: str) -> bool:
    """Whether ``text`` is a SHA-256 digest in hex.

    Example:
        >>> _is_sha256("ab" * 32), _is_sha256("xyz")
        (True, False)
    """
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)


def token_client(tokens: dict[str, str], presented: str) -> str | None:
    """The client a bearer token belongs to, compared in constant time; None when unknown.

    Example:
        >>> token_client({"ci": "a" * 16}, "a" * 16)
        'ci'
        >>> token_client({"ci": "sha256:" + hashlib.sha256(b"b" * 16).hexdigest()}, "b" * 16)
        'ci'
        >>> token_client({"ci": "a" * 16}, "nope") is None
        True
    """
    digest = hashlib.sha256(presented.encode()).hexdigest()
    found = None
    for client, token in sorted(tokens.items()):
        expected, given = (
            (token[len("sha256:") :], digest) if token.startswith("sha256:") else (token, presented)
        )
        if hmac.compare_digest(expected.encode(), given.encode()):
            found = client
    return found
