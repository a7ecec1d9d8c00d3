"""Integrity cases in Debian's Chromium (headless), on the demo's whole competition: an analyst opens a case on two
players of a hand with that hand as evidence, adds a note, confirms it and reports it to the Chief Judge from the
case's page, each act a record whose verdict the page shows; the evidence hand opens the replayer and the pair's
page; the Chief Judge then finds the case reported to him, and a judge is refused the cases."""

from __future__ import annotations

from typing import Any

import pytest
from web_browser import WebServer, screenshot, sign_in, wait_for

from api.demo_people import DEMO_PEOPLE, WHOLE

pytestmark = pytest.mark.e2e

CASES = f"/web/competitions/{WHOLE}/integrity/cases"


def _by() -> Any:
    from selenium.webdriver.common.by import By

    return By


def _verdict(browser: Any, form: str) -> Any:
    By = _by()
    browser.find_element(By.CSS_SELECTOR, f"#{form} button").click()
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#verdict .verdict"), f"{form}: the verdict", 15)
    return browser.find_element(By.CSS_SELECTOR, "#verdict .verdict")


def test_an_analyst_opens_notes_confirms_and_reports_a_case_and_the_chief_judge_reads_it(
    web_server: WebServer, browser: Any
) -> None:
    By = _by()
    api = web_server.api("integrity", person=DEMO_PEOPLE["integrity"][0])
    hand = api.get(f"/v1/competitions/{WHOLE}/tables/T1/hands/1").json()
    a, b = sorted(s["player"] for s in hand["seats"])[:2]
    sign_in(browser, web_server.base, "integrity")
    browser.get(web_server.base + CASES)
    assert browser.find_element(By.CSS_SELECTOR, "nav[aria-label=integrity] a[aria-current=page]").text == "Cases"
    browser.find_element(By.ID, "o-case").send_keys("case-web-1")
    browser.find_element(By.ID, "o-players").send_keys(f"{a}, {b}")
    browser.find_element(By.ID, "o-grounds").send_keys("a complaint from the next seat: they never raise each other")
    browser.find_element(By.ID, "o-hands").send_keys(f"T1/1 {a} and {b} checked it down")
    verdict = _verdict(browser, "case-open-form")
    assert verdict.get_attribute("data-outcome") == "accepted", verdict.text
    screenshot(browser, "integrity-case-opened")
    verdict.find_element(By.LINK_TEXT, "Open the case").click()

    def on_page(state: str) -> bool:
        browser.get(f"{web_server.base}{CASES}/case-web-1")
        return bool(browser.find_element(By.ID, "case-state").text == state)

    wait_for(lambda: on_page("open"), "the case in its read model", 10, 0.2)
    # the evidence links to the replayer, the players to their pair's page
    hand_link = browser.find_element(By.CSS_SELECTOR, "table[data-grid=case-evidence] tbody a")
    assert hand_link.get_attribute("href").endswith(f"/web/hands/{hand['hand_id']}")
    pair = browser.find_element(By.PARTIAL_LINK_TEXT, f"{a} & {b}").get_attribute("href")
    assert "/integrity/pair?" in pair
    browser.find_element(By.ID, "n-note").send_keys("same on hand 1: both checked top pair")
    assert _verdict(browser, "case-note-form").get_attribute("data-outcome") == "accepted"
    browser.get(f"{web_server.base}{CASES}/case-web-1")
    browser.find_element(By.ID, "k-reasons").send_keys("they soft-played each other on the evidence")
    assert _verdict(browser, "case-conclude-form").get_attribute("data-outcome") == "accepted"
    wait_for(lambda: on_page("confirmed"), "the case confirmed", 10, 0.2)
    assert "both checked top pair" in browser.page_source
    browser.find_element(By.ID, "r-summary").send_keys("soft play between the two on hand 1")
    verdict = _verdict(browser, "case-report-form")
    assert verdict.get_attribute("data-outcome") == "accepted", verdict.text
    wait_for(lambda: on_page("reported"), "the case reported", 10, 0.2)
    assert DEMO_PEOPLE["chief_judge"][0] in browser.find_element(By.ID, "case-report").text
    screenshot(browser, "integrity-case-reported")
    hand_link = browser.find_element(By.CSS_SELECTOR, "table[data-grid=case-evidence] tbody a")
    hand_link.click()
    wait_for(lambda: browser.find_elements(By.ID, "replayer"), "the evidence hand in the replayer")

    # the Chief Judge it was reported to reads it; a judge reads no case
    sign_in(browser, web_server.base, "chief_judge")
    browser.get(web_server.base + CASES)
    rows = browser.find_elements(By.CSS_SELECTOR, "table[data-grid=cases] tbody tr td:first-child")
    assert "case-web-1" in [r.text for r in rows]
    assert not browser.find_elements(By.ID, "case-open-form")  # he reads; the integrity team records
    screenshot(browser, "integrity-cases-chief-judge")
    browser.find_element(By.LINK_TEXT, "case-web-1").click()
    assert "penalty register" in browser.find_element(By.ID, "cj-title").find_element(By.XPATH, "..").text
    screenshot(browser, "integrity-case-chief-judge")
    sign_in(browser, web_server.base, "judge")
    browser.get(web_server.base + CASES)
    assert "integrity cases are for" in browser.page_source


def test_a_refused_act_shows_the_referees_rule(web_server: WebServer, browser: Any) -> None:
    By = _by()
    sign_in(browser, web_server.base, "integrity")
    browser.get(web_server.base + CASES)
    browser.find_element(By.ID, "o-players").send_keys("only-one-player")
    browser.find_element(By.ID, "o-grounds").send_keys("a hunch")
    verdict = _verdict(browser, "case-open-form")
    assert verdict.get_attribute("data-outcome") == "rejected", verdict.text
    assert "bfsp 7.1.4" in verdict.text and "two players or more" in verdict.text
