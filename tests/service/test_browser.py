"""The page in a real browser (Debian's chromium through Selenium and chromedriver).

Ask and see the badge, the reading, the table and the chart; pick a clarification; ask a
follow-up; give feedback and find it in the ledger; a refused question shows its reason; the
keyboard alone works; phone width reads without sideways scrolling; nothing is fetched from
another origin. A screenshot of each state is written to ``build/screenshots/`` (or
``$ASSAY_SCREENSHOTS``). ``scripts/browser`` installs the browser (``make test`` runs it); the
tests skip without it, except under ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.ledger import Ledger
from tests.service._live import LiveServer, write_config

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(os.environ.get("ASSAY_SCREENSHOTS", "build/screenshots"))

if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true but chromium/chromedriver are missing: run scripts/browser.")
    pytest.skip(
        "chromium and chromedriver are not installed (scripts/browser)", allow_module_level=True
    )

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service as DriverService  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def server(
    demo_paths: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("browser")
    live = LiveServer(write_config(folder, *demo_paths), folder / "server.log").start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # the system's chromium: nothing is downloaded
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,1000",
        "--disable-extensions",
        "--no-first-run",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=DriverService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def _shot(driver: Any, name: str) -> None:
    path = SHOTS / f"{name}.png"
    height = driver.execute_script("return document.body.scrollHeight")
    width = driver.execute_script("return window.outerWidth")
    driver.set_window_size(width, min(max(height + 120, 700), 4000))
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 1_000


def _open(driver: Any, server: LiveServer, width: int = 1200) -> None:
    driver.set_window_size(width, 1000)
    driver.get(server.url + "/")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#examples button"))


def _ask(driver: Any, question: str, n_before: int) -> Any:
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question)
    box.send_keys(Keys.ENTER)
    return _newest(driver, n_before)


def _newest(driver: Any, n_before: int) -> Any:
    WebDriverWait(driver, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#answers .answer")) > n_before
    )
    return driver.find_elements(By.CSS_SELECTOR, "#answers .answer")[0]


def _count(driver: Any) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#answers .answer"))


def test_ask_shows_badge_reading_table_and_chart(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "Top 3 country by net revenue last year", 0)
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "show"
    assert "net revenue" in card.find_element(By.CSS_SELECTOR, '[data-role="reading"]').text
    rows = card.find_elements(By.CSS_SELECTOR, "table tbody tr")
    assert len(rows) == 3
    assert len(card.find_elements(By.CSS_SELECTOR, "svg.chart-bars rect")) == 3
    policy = card.find_element(By.CSS_SELECTOR, ".policy").text
    assert policy.startswith("Decided by the fixed thresholds: thresholds(show>=0.80")
    cite = card.find_elements(By.CSS_SELECTOR, "a.cite")
    assert cite, "the written answer cites its numbers"
    cite[1].click()  # a cited number leads to its cell
    focused = browser.switch_to.active_element
    assert focused.tag_name == "td" and focused.text == cite[1].text
    _shot(browser, "01-answer-bars")
    line = _ask(browser, "What was the number of orders per month in 2024?", 1)
    assert len(line.find_elements(By.CSS_SELECTOR, "svg.chart-line polyline")) == 1
    _shot(browser, "02-answer-line")


def test_clarification_buttons_reask(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "What was revenue in 2023?", 0)
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "ask back"
    buttons = card.find_elements(By.CSS_SELECTOR, "button.choice")
    assert [b.text for b in buttons] == ["gross revenue", "net revenue"]
    _shot(browser, "03-ask-back")
    buttons[1].click()
    chosen = _newest(browser, 1)
    assert chosen.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "show"
    assert "net revenue" in chosen.find_element(By.CSS_SELECTOR, ".asked").text
    _shot(browser, "04-clarified")


def test_follow_up_inherits_the_reading(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "What was the gross revenue in 2023?", 0)
    follow = card.find_element(By.CSS_SELECTOR, '[data-role="follow-input"]')
    follow.send_keys("and in 2024?")
    follow.send_keys(Keys.ENTER)
    later = _newest(browser, 1)
    note = later.find_element(By.CSS_SELECTOR, '[data-role="follow"]').text
    assert "Kept: metric gross revenue" in note and "period 2023 -> 2024" in note
    assert (
        later.find_element(By.CSS_SELECTOR, ".asked").text == "What was the gross revenue in 2024?"
    )
    _shot(browser, "05-follow-up")


def test_a_reply_to_an_ask_back_in_the_follow_up_box_keeps_the_question(
    browser: Any, server: LiveServer
) -> None:
    """Outside tryout 10 #129: "gross revenue" typed after the ask-back for "revenue in 2023
    by country" was shown over all dates; it is the choice in the question asked back."""
    _open(browser, server)
    card = _ask(browser, "revenue in 2023 by country", _count(browser))
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "ask back"
    follow = card.find_element(By.CSS_SELECTOR, '[data-role="follow-input"]')
    follow.send_keys("gross revenue")
    shown = _count(browser)
    follow.send_keys(Keys.ENTER)
    later = _newest(browser, shown)
    note = later.find_element(By.CSS_SELECTOR, '[data-role="follow"]').text
    assert "Kept: period 2023; grouping country" in note
    reading = later.find_element(By.CSS_SELECTOR, '[data-role="reading"]').text
    assert "kept from the previous question: period 2023; grouping country" in reading
    assert later.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "show"
    # six countries, one row each (never the one all-dates total of 4,242,033.76)
    assert len(later.find_elements(By.CSS_SELECTOR, "table tbody tr")) == 6


def test_feedback_lands_in_the_ledger(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "What was the gross revenue in 2023?", 0)
    ident = card.get_attribute("data-verdict")
    card.find_element(By.CSS_SELECTOR, 'button[data-label="0"]').click()
    card.find_element(By.CSS_SELECTOR, '[data-role="comment"]').send_keys("looks too high")
    card.find_element(By.CSS_SELECTOR, '[data-role="send"]').click()
    WebDriverWait(browser, 20).until(
        ec.text_to_be_present_in_element(
            (By.CSS_SELECTOR, f'[data-verdict="{ident}"] [data-role="thanks"]'), "recorded"
        )
    )
    _shot(browser, "06-feedback")
    ledger = Ledger(f"sqlite:///{server.config.parent / 'ledger.db'}")
    try:
        stored = ledger.verdict(ident)
    finally:
        ledger.close()
    assert stored is not None
    assert [(f["label"], f["comment"]) for f in stored["feedback"]] == [(0, "looks too high")]


def test_withheld_answer_shows_no_numbers(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "What was the latest ship date in 2023?", 0)
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "withhold"
    text = card.find_element(By.CSS_SELECTOR, '[data-role="text"]').text
    assert text.startswith("The answer is withheld") and not any(c.isdigit() for c in text)
    assert not card.find_elements(By.CSS_SELECTOR, "table")
    assert not card.find_elements(By.CSS_SELECTOR, "svg")
    assert (
        "veto.stand_in_returned" in card.find_element(By.CSS_SELECTOR, '[data-role="reasons"]').text
    )
    _shot(browser, "07a-withheld")


def test_refused_question_shows_its_reason(browser: Any, server: LiveServer) -> None:
    _open(browser, server)
    card = _ask(browser, "Delete all cancelled orders.", 0)
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "refuse"
    reasons = card.find_element(By.CSS_SELECTOR, '[data-role="reasons"]').text
    assert "intent.write" in reasons and "only reads" in reasons
    assert not card.find_elements(By.CSS_SELECTOR, "table")
    assert "behaviour rules" in card.find_element(By.CSS_SELECTOR, ".policy").text
    _shot(browser, "07-refused")


def test_keyboard_only_and_phone_width(browser: Any, server: LiveServer) -> None:
    _open(browser, server, width=390)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the skip link
    browser.switch_to.active_element.send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("id") == "question"
    focused.send_keys("What was the number of orders per month in 2024?", Keys.ENTER)
    card = _newest(browser, 0)
    assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "show"
    assert browser.switch_to.active_element == card  # focus moves to the new answer
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, "the page scrolls sideways at phone width"
    _shot(browser, "08-phone")
    origins = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).origin)"
    )
    assert set(origins) <= {server.url}, origins


def test_page_says_chow_decided(
    browser: Any,
    demo_paths: tuple[Path, Path],
    filled_ledger: Callable[[Path], tuple[str, list[str]]],
    tmp_path: Path,
) -> None:
    from assay.service import calibrate_from_ledger

    url, _ = filled_ledger(tmp_path)  # _fill(demo_paths, url, 50), asked once per run
    ledger = Ledger(url)
    try:
        (fitted,) = calibrate_from_ledger(ledger, tmp_path / "cal")
    finally:
        ledger.close()
    assert fitted.calibrator is not None
    config = write_config(tmp_path, *demo_paths, calibration={"dir": str(tmp_path / "cal")})
    live = LiveServer(config, tmp_path / "server.log").start()
    try:
        _open(browser, live)
        card = _ask(browser, "What was the gross revenue in 2023?", 0)
        policy = card.find_element(By.CSS_SELECTOR, ".policy").text
        assert policy.startswith("Decided by Chow's rule on the calibrated probability: chow(")
        assert fitted.calibrator.digest in policy
        _shot(browser, "09-chow")
    finally:
        live.stop()


def test_a_token_entered_loads_the_databases_and_examples_are_askable(
    browser: Any, demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Tokens on, two databases: the page's first /api/semantic is refused (401); entering the
    token loads the list, with no reload (before, it stayed empty and every question failed:
    "2 databases are configured; the request names none"). Each database's examples ask a year
    its data covers (before: always "in 2023", from the first database's metrics)."""
    import yaml

    db, layer = demo_paths
    narrow = yaml.safe_load(layer.read_text(encoding="utf-8"))
    narrow["coverage"] = {"start": "2022-01-01", "end": "2022-12-31"}
    narrow_layer = tmp_path / "narrow.yaml"
    narrow_layer.write_text(yaml.safe_dump(narrow, sort_keys=False), encoding="utf-8")
    token = "t" * 24
    config = write_config(
        tmp_path,
        db,
        layer,
        tokens={"tester": token},
        databases={
            "shop": {"url": str(db), "semantic": str(layer)},
            "year22": {"url": str(db), "semantic": str(narrow_layer)},
        },
    )
    live = LiveServer(config, tmp_path / "server.log").start()
    try:
        browser.get(live.url + "/")
        WebDriverWait(browser, 20).until(
            lambda d: d.find_element(By.ID, "status").text, "the refused list is said"
        )
        assert not browser.find_elements(By.CSS_SELECTOR, "#examples button")
        box = browser.find_element(By.ID, "token")
        box.send_keys(token)
        box.send_keys(Keys.TAB)  # the token is entered: the list loads
        WebDriverWait(browser, 20).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#examples button")
        )
        options = browser.find_elements(By.CSS_SELECTOR, "#database option")
        assert [o.get_attribute("value") for o in options] == ["shop", "year22"]
        assert browser.find_element(By.ID, "status").text == ""
        first = browser.find_element(By.CSS_SELECTOR, "#examples button")
        first.click()
        assert browser.find_element(By.ID, "question").get_attribute("value") == (
            "What was the gross revenue in 2023?"
        )
        browser.find_element(By.CSS_SELECTOR, "#database option[value='year22']").click()
        first = browser.find_element(By.CSS_SELECTOR, "#examples button")
        first.click()
        question = browser.find_element(By.ID, "question")
        assert question.get_attribute("value") == "What was the gross revenue in 2022?"
        question.send_keys(Keys.ENTER)
        card = _newest(browser, 0)
        assert card.find_element(By.CSS_SELECTOR, ".badge").text.lower() == "show"
        follow = card.find_element(By.CSS_SELECTOR, '[data-role="follow-input"]')
        follow.send_keys("and units sold?")
        follow.send_keys(Keys.ENTER)
        later = _newest(browser, 1)
        assert "units sold" in later.find_element(By.CSS_SELECTOR, ".asked").text
        assert browser.find_element(By.ID, "status").text == ""
        _shot(browser, "10-token-two-databases")
    finally:
        live.stop()
