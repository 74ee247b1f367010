"""Every setting and every CLI command is documented."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from assay.cli import main
from assay.cli._main import COMMAND_PATHS
from assay.settings import SETTINGS, Setting, settings_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_settings_doc_is_current(update_goldens: bool) -> None:
    path = ROOT / "docs" / "settings.md"
    if update_goldens:
        path.write_text(settings_markdown(), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == settings_markdown(), (
        "docs/settings.md is stale; rerun pytest with --update-goldens"
    )


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_setting_has_help_and_unit(setting: Setting) -> None:
    assert setting.help.endswith(".")
    assert setting.unit


@pytest.mark.parametrize("command", sorted(COMMAND_PATHS))
def test_command_documented(command: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"assay {command}" in readme, f"README.md does not mention 'assay {command}'"
    loaded = main.get_command(click.Context(main), command)
    assert loaded is not None and loaded.help, f"assay {command} has no help text"
