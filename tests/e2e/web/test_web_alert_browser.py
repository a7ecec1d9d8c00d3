"""An integrity alert and its evidence hand in Debian's Chromium (headless). The demo's bots play honestly, so no
alert is raised there; this module serves a store holding a small seeded field with rings of colluders in it
(ingest/simulator/field.py: seed 11, 46 players, 400 hands, imported as PHH and judged), where the detector raises
an alert on a chip-dumping pair. The analyst opens the queue, opens the alert, and follows an evidence hand into the
replayer, which shows that hand with the pots the API awarded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from web_browser import WebServer, screenshot, served, sign_in, wait_for

from api.bootstrap import bootstrap, open_projector
from api.operations import phh_records, publish, referee_once
from api.settings import Settings
from ingest.simulator.field import generate_field, write_field

pytestmark = pytest.mark.e2e

COMPETITION = "field-11"
#: the smallest field tried that raises an alert at the queue's own min_hands (30): one pair, score 7.6
SEED, PLAYERS, HANDS = 11, 46, 400


@pytest.fixture(scope="module")
def field_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    folder = tmp_path_factory.mktemp("alert")
    write_field(generate_field(SEED, players=PLAYERS, hands=HANDS), folder / "phh")
    data_dir = folder / "store"
    settings = Settings(POKERAUDIT_DATA_DIR=data_dir)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        publish(pipeline, phh_records([folder / "phh"], COMPETITION), progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
    finally:
        pipeline.close()
    # the replayer reads the hands' read model: projected before the server opens the store
    projector = open_projector(settings)
    try:
        projector.catch_up()
    finally:
        projector.close()
    with served(data_dir) as server:
        yield server


def test_an_analyst_opens_an_alert_and_its_evidence_hand_in_the_replayer(
    field_server: WebServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    base = field_server.base
    api = field_server.api("integrity")
    alerts = api.get(f"/v1/integrity/competitions/{COMPETITION}/alerts").json()
    assert alerts, "the seeded field's colluders raise an alert"
    alert = alerts[0]
    evidence = [e["hand_id"] for e in alert["evidence"]]
    assert evidence, "an alert carries its evidence hands"

    sign_in(browser, base, "integrity")
    browser.get(f"{base}/web/competitions/{COMPETITION}/integrity")
    rows = browser.find_elements(By.CSS_SELECTOR, "table[data-grid=alerts] tbody tr")
    assert len(rows) == len(alerts)
    first = rows[0]
    assert f"{alert['score']:.2f}" in first.text and f"{len(evidence)} hands" in first.text
    # the queue lists each alert's own evidence hands, each opening the replayer
    queued = browser.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=ev-title] ul")[0]
    hrefs = [urlsplit(a.get_attribute("href")).path for a in queued.find_elements(By.TAG_NAME, "a")]
    assert hrefs == [f"/web/hands/{hand}" for hand in evidence]
    screenshot(browser, "integrity-alert-queue")

    # the alert opens on its pair's page, whose evidence hands are the alert's
    first.find_element(By.LINK_TEXT, " & ".join(alert["players"])).click()
    wait_for(lambda: "/integrity/pair?" in browser.current_url, "the alert's page")
    links = browser.find_elements(By.CSS_SELECTOR, "table[data-grid=evidence] tbody a")
    assert [a.text for a in links] == evidence
    screenshot(browser, "integrity-alert-evidence")

    hand_id = evidence[0]
    links[0].click()
    wait_for(lambda: browser.find_elements(By.ID, "replayer"), "the evidence hand in the replayer")
    # the replayer names its step in the address (?step=1)
    assert urlsplit(browser.current_url).path == f"/web/hands/{hand_id}", browser.current_url
    hand = api.get(f"/v1/hands/{hand_id}").json()
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert f"Hand #{hand['number']} at table {hand['table_id']}" in heading and COMPETITION in heading
    seated = {td.text for td in browser.find_elements(By.CSS_SELECTOR, "#seats tbody tr td:nth-child(2)")}
    assert set(alert["players"]) <= seated, (alert["players"], seated)

    # its last step: the pots as the API awarded them
    browser.find_element(By.CSS_SELECTOR, "button[data-go=last]").click()
    awarded = [(p["name"] + (f" ({p['half']})" if p["half"] else ""), p["amount"])
               for p in api.get(f"/v1/hands/{hand_id}/pots").json() if not p["uncalled"]]
    assert awarded, "a judged hand awards a pot"

    def pots() -> list[tuple[str, int]]:
        return [(li.get_attribute("data-pot"), int(li.get_attribute("data-amount")))
                for li in browser.find_elements(By.CSS_SELECTOR, "#pots li[data-pot]")]

    wait_for(lambda: pots() == awarded, f"the replayer's last step showing the pots {awarded}")
    screenshot(browser, "integrity-alert-evidence-hand")
