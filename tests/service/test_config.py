"""The server-side configuration and the commands that start the service."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli._main import main
from assay.errors import ConfigError
from assay.service import load_config, token_client


def test_relative_paths_are_beside_the_file(tmp_path: Path) -> None:
    path = tmp_path / "assay.yaml"
    path.write_text(
        "databases:\n  shop: {url: shop.duckdb, semantic: layers/shop.yaml}\n"
        "  pg: {url: 'postgresql://r@h/db', semantic: /abs/pg.yaml}\n"
        "ledger: sqlite:///ledger.db\ncalibration: {dir: cal, cost: 2}\n",
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.databases["shop"].url == str(tmp_path / "shop.duckdb")
    assert config.databases["shop"].semantic == tmp_path / "layers" / "shop.yaml"
    assert config.databases["pg"].url == "postgresql://r@h/db"
    assert config.ledger == f"sqlite:///{tmp_path / 'ledger.db'}"
    assert config.calibration.dir == tmp_path / "cal" and config.calibration.cost == 2
    assert config.cors_origins == [] and config.tokens == {}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("databases: {}\n", "databases"),
        ("databases:\n  'a b': {url: x, semantic: y}\n", "must be letters"),
        ("databases:\n  shop: {url: x, semantic: y}\ntokens: {ci: short}\n", "shorter than 16"),
        (
            "databases:\n  shop: {url: x, semantic: y}\ntokens: {ci: 'sha256:xyz'}\n",
            "not followed by 64 hex digits",
        ),
        ("databases:\n  shop: {url: x, semantic: y, password: z}\n", "password"),
        (
            "databases:\n  shop: {url: x, semantic: y}\nlimits: {max_body_bytes: 10}\n",
            "max_body_bytes",
        ),
        ("- a list\n", "not a mapping"),
        ("databases: [\n", "Cannot read"),
    ],
    ids=[
        "empty",
        "bad-key",
        "short-token",
        "bad-sha256",
        "unknown-key",
        "tiny-body",
        "list",
        "not-yaml",
    ],
)
def test_bad_configuration_is_named(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "assay.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=problem):
        load_config(path)


def test_tokens_compare_plain_and_hashed() -> None:
    import hashlib

    tokens = {"a": "x" * 20, "b": "sha256:" + hashlib.sha256(b"y" * 20).hexdigest()}
    assert token_client(tokens, "x" * 20) == "a"
    assert token_client(tokens, "y" * 20) == "b"
    assert token_client(tokens, "sha256:" + hashlib.sha256(b"y" * 20).hexdigest()) is None
    assert token_client(tokens, "") is None


def test_serve_with_a_bad_configuration_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "assay.yaml"
    path.write_text("databases: {}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", "--config", str(path)])
    assert result.exit_code == 1
    assert "Error: The service configuration" in result.output


def test_serve_with_a_missing_database_exits_1(tmp_path: Path) -> None:
    layer = tmp_path / "shop.yaml"
    layer.write_text("name: shop\n", encoding="utf-8")
    path = tmp_path / "assay.yaml"
    path.write_text(
        f"databases:\n  shop: {{url: {tmp_path / 'missing.duckdb'}, semantic: {layer}}}\n"
        f"ledger: sqlite:///{tmp_path / 'l.db'}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["serve", "--config", str(path)])
    assert result.exit_code == 1
    # The start is announced (a log is never silent), then the error on its own line.
    lines = result.output.splitlines()
    assert lines[0].startswith("Assay: opening the databases")
    assert any(line.startswith("Error: ") for line in lines[1:])


@pytest.mark.parametrize("command", ["serve", "mcp", "ledger", "calibrate"])
def test_commands_have_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_calibrate_needs_a_file_or_a_ledger(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--out", str(tmp_path / "c.json")])
    assert result.exit_code == 2 and "--ledger" in result.output


def test_no_configuration_serves_the_demo(tmp_path: Path) -> None:
    from assay.cli._serve import open_service

    service = open_service(None, f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        assert service.config.demo is True and sorted(service.databases) == ["shop"]
        body = service.ask("What was the gross revenue in 2023?")
        assert body["badge"] == "show"
    finally:
        service.close()
        service.ledger.close()


def test_an_llm_section_is_refused_with_the_reason(tmp_path: Path) -> None:
    # tryout 38: "llm: Extra inputs are not permitted" did not say the service has no model.
    path = tmp_path / "assay.yaml"
    path.write_text(
        "databases:\n  shop: {url: x, semantic: y}\nllm: {base_url: http://x/v1, model: m}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="answers without a model") as info:
        load_config(path)
    assert "assay ask" in info.value.hint


def test_serve_says_it_does_not_use_a_configured_model(tmp_path: Path) -> None:
    # tryout 38: ASSAY_LLM_* were silently ignored by `assay serve`.
    path = tmp_path / "assay.yaml"
    path.write_text("databases: {}\n", encoding="utf-8")
    env = {"ASSAY_LLM_BASE_URL": "http://127.0.0.1:9/v1", "ASSAY_LLM_MODEL": "m"}
    result = CliRunner().invoke(main, ["serve", "--config", str(path)], env=env)
    assert "the service answers without a model: ASSAY_LLM_BASE_URL" in result.output
    quiet = CliRunner().invoke(
        main, ["serve", "--config", str(path)], env={"ASSAY_LLM_BASE_URL": ""}
    )
    assert "without a model" not in quiet.output
