"""The web app as officials, viewers and dealers use it, in Debian's Chromium (headless): signing in as each
role, a live table changing while hands are submitted, the replayer against the API, a viewer's page holding no
sealed card, a ruling recorded from a protest's page with its verdict, an evidence hand followed from the integrity pages into
the replayer, and a screenshot of every page."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from web_browser import TABLES, WebServer, new_browser, screenshot, sign_in, wait_for
from web_hands import HOLE_CARDS, live_hand, submit

from api.auth import API_ROLES
from api.demo_people import DEMO_PEOPLE, WHOLE

pytestmark = pytest.mark.e2e


def _by() -> Any:
    from selenium.webdriver.common.by import By

    return By


@pytest.mark.parametrize("role", sorted(r.value for r in API_ROLES))
def test_each_role_signs_in_with_the_demo_picker_and_reads_as_that_role(
    web_server: WebServer, browser: Any, role: str
) -> None:
    By = _by()
    sign_in(browser, web_server.base, role)
    assert browser.current_url.endswith("/web/")
    header = browser.find_element(By.CSS_SELECTOR, "form.who").text
    assert role in header and DEMO_PEOPLE[role][0] in header
    assert "Demo only" in browser.find_element(By.CLASS_NAME, "demo-banner").text
    # the session is an HttpOnly, SameSite=Strict cookie: no script of the page can read the token
    cookie = browser.get_cookie("pokeraudit_session")
    assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert "pokeraudit_session" not in browser.execute_script("return document.cookie")
    # the same roles as the API: the rejections are for officials
    browser.get(f"{web_server.base}/web/competitions/{TABLES}/rejections")
    official = role in {"judge", "chief_judge", "secretary", "federation", "integrity"}
    rows = browser.find_elements(By.CSS_SELECTOR, "table[data-grid=rejections] tbody tr")
    if official:
        assert len(rows) == 16, "the demo's 16 refused records of the simulated tables"
    else:
        assert "Not for this role" in browser.find_element(By.TAG_NAME, "h1").text
    screenshot(browser, f"sign-in-as-{role}")


def test_a_token_pasted_on_the_sign_in_page_signs_in_and_a_bad_one_is_refused(
    web_server: WebServer, browser: Any
) -> None:
    By = _by()
    browser.get(f"{web_server.base}/web/sign-in")
    screenshot(browser, "sign-in")
    browser.find_element(By.ID, "token").send_keys("not-a-token")
    browser.find_element(By.CSS_SELECTOR, "form[action='/web/sign-in'] button").click()
    assert "the token is not valid" in browser.find_element(By.CSS_SELECTOR, "p.error").text
    browser.find_element(By.ID, "token").send_keys(web_server.token("secretary", "s.nowak"))
    browser.find_element(By.CSS_SELECTOR, "form[action='/web/sign-in'] button").click()
    wait_for(lambda: "s.nowak" in browser.find_element(By.CSS_SELECTOR, "form.who").text, "signed in as s.nowak")
    # signing out ends the session: the dashboard asks to sign in again
    browser.find_element(By.CSS_SELECTOR, "form.who button").click()
    wait_for(lambda: "/web/sign-in" in browser.current_url, "signed out")
    assert browser.get_cookie("pokeraudit_session") is None
    browser.get(f"{web_server.base}/web/")
    assert "/web/sign-in" in browser.current_url


def test_a_form_without_this_browsers_csrf_token_is_refused(web_server: WebServer) -> None:
    with httpx.Client(base_url=web_server.base) as client:
        client.cookies.set("pokeraudit_session", web_server.token("chief_judge"))
        answer = client.post(f"/web/competitions/{WHOLE}/acts", data={"act": "decision", "protest": "protest-1"})
        assert answer.status_code == 403 and "CSRF" in answer.text
        answer = client.post("/web/sign-in/demo", data={"role": "federation", "csrf": "forged"})
        assert answer.status_code == 403 and "pokeraudit_session" not in answer.headers.get("set-cookie", "")


def test_a_live_table_changes_within_a_second_of_each_record(web_server: WebServer, browser: Any) -> None:
    By = _by()
    competition, table = "web-live-1", "L1"
    records = live_hand(competition, table, "test-judge")
    judge = web_server.api("judge", person="test-judge")
    submit(judge, records[:4])  # the start, the blinds, seat 2's cards
    sign_in(browser, web_server.base, "judge")
    browser.get(f"{web_server.base}/web/competitions/{competition}/tables/{table}")
    wait_for(lambda: "on" in browser.find_element(By.ID, "live-state").get_attribute("class"), "the event stream open")

    def version() -> int:
        # read in one script: the stream's first event makes htmx fetch the part again and swap it in, so an
        # element found by one WebDriver call may be gone by the next
        return int(browser.execute_script("return document.querySelector('#table-now section').dataset.version"))

    assert version() == 4
    latencies = []
    for n in range(4, len(records)):
        start = time.monotonic()
        # on the log (202), not waiting for the verdict: from here the referee, the projector, the stream and
        # the page's fetch are all in the time measured
        assert judge.post("/v1/events", json=records[n]).status_code == 202
        wait_for(lambda n=n: version() == n + 1, f"event {n + 1} shown", 5)
        latencies.append(time.monotonic() - start)
    screenshot(browser, "table-live")
    assert max(latencies) < 1.0, latencies
    # Cy raised to 60 and Ann called: the page shows the stacks the API has
    link, stacks = browser.execute_script(
        "return [document.querySelector('#now-title a').getAttribute('href'),"
        " [...document.querySelectorAll('td[data-stack]')].map(td => [td.dataset.stack, td.textContent.trim()])]"
    )
    hand = judge.get(f"/v1/hands/{link.split('/')[-1].split('?')[0]}").json()
    shown = {int(seat): text for seat, text in stacks}
    assert shown == {s["seat"]: f"{s['stack']:,}" for s in hand["seats"]}


def _side_pot_hand(api: httpx.Client) -> str:
    for table in ("T1", "T2", "T3"):
        hands = api.get(f"/v1/competitions/{TABLES}/tables/{table}/hands", params={"limit": 500}).json()["items"]
        for hand in hands:
            pots = api.get(f"/v1/hands/{hand['hand_id']}/pots").json()
            if len({p["pot_index"] for p in pots if p["awarded"]}) >= 2:
                return str(hand["hand_id"])
    raise AssertionError("the demo's simulated tables have no hand with a side pot")


def test_the_replayer_steps_through_a_hand_with_the_apis_stacks_and_pots(web_server: WebServer, browser: Any) -> None:
    By = _by()
    from selenium.webdriver.common.keys import Keys

    api = web_server.api("chief_judge")
    hand = _side_pot_hand(api)
    stacks = api.get(f"/v1/hands/{hand}/stacks").json()
    pots = api.get(f"/v1/hands/{hand}/pots").json()
    sign_in(browser, web_server.base, "chief_judge")
    browser.get(f"{web_server.base}/web/hands/{hand}")
    body = browser.find_element(By.TAG_NAME, "body")
    for expected in stacks:
        step = int(browser.find_element(By.ID, "replayer").get_attribute("data-step"))
        assert step == expected["version"]
        seen = {
            int(td.get_attribute("data-stack")): int(td.text.replace(",", ""))
            for td in browser.find_elements(By.CSS_SELECTOR, "#seats td[data-stack]")
        }
        committed = {
            int(td.get_attribute("data-committed")): int(td.text.replace(",", ""))
            for td in browser.find_elements(By.CSS_SELECTOR, "#seats td[data-committed]")
        }
        assert seen == {s["seat"]: s["stack"] for s in expected["seats"]}, f"stacks at step {step}"
        assert committed == {s["seat"]: s["committed"] for s in expected["seats"]}, f"committed at step {step}"
        body.send_keys(Keys.ARROW_RIGHT)
    # the last step: the pots as the API awarded them, the side pot with its eligible seats
    shown = [(li.get_attribute("data-pot"), int(li.get_attribute("data-amount")), li.text)
             for li in browser.find_elements(By.CSS_SELECTOR, "#pots li")]
    awarded = [p for p in pots if not p["uncalled"]]
    assert [(name, amount) for name, amount, _ in shown] == [
        (p["name"] + (f" ({p['half']})" if p["half"] else ""), p["amount"]) for p in awarded
    ]
    for (_, _, text), pot in zip(shown, awarded, strict=True):
        assert f"eligible seats {', '.join(map(str, pot['eligible']))}" in text
    screenshot(browser, "replayer-last-step")
    # a link to any step opens the hand there; the buttons step back
    browser.get(f"{web_server.base}/web/hands/{hand}?step=3")
    assert browser.find_element(By.ID, "replayer").get_attribute("data-step") == "3"
    browser.find_element(By.CSS_SELECTOR, "[data-go=prev]").click()
    assert browser.find_element(By.ID, "replayer").get_attribute("data-step") == "2"
    screenshot(browser, "replayer-step-2")


def _network_bodies(driver: Any, base: str) -> list[str]:
    """Every response body of this site the page fetched (documents, fragments, the event stream aside)."""
    bodies = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] != "Network.responseReceived":
            continue
        url = message["params"]["response"]["url"]
        if not url.startswith(base) or "/web/static/" in url or url.endswith("/live"):
            continue
        try:
            body = driver.execute_cdp_cmd("Network.getResponseBody", {"requestId": message["params"]["requestId"]})
        except Exception:  # a redirect's or an evicted body: nothing to look into
            continue
        bodies.append(body.get("body", ""))
    return bodies


def test_a_viewers_pages_and_their_network_hold_no_sealed_card(
    web_server: WebServer, chromium: tuple[str, str]
) -> None:
    By = _by()
    competition, table = "web-sealed-1", "S1"
    judge = web_server.api("judge", person="test-judge")
    records = live_hand(competition, table, "test-judge")
    submit(judge, records[:7])  # dealt, Cy raised: the hand is being played
    hand_id = judge.get(f"/v1/competitions/{competition}/tables/{table}").json()["last_hand_id"]
    assert {s["seat"]: "".join(s["hole_cards"]) for s in judge.get(f"/v1/hands/{hand_id}").json()["seats"]} == HOLE_CARDS
    secret_cards = {card for cards in HOLE_CARDS.values() for card in re.findall("..", cards)}
    driver = new_browser(chromium)
    try:
        sign_in(driver, web_server.base, "viewer")
        for path, name in ((f"/web/competitions/{competition}/tables/{table}", "viewer-table"),
                           (f"/web/hands/{hand_id}", "viewer-replayer")):
            driver.get(web_server.base + path)
            if "hands" in path:
                driver.find_element(By.TAG_NAME, "body").send_keys("\ue010")  # End: the last step
            screenshot(driver, name)
            dom = driver.execute_script("return document.documentElement.outerHTML")
            texts = [dom, *_network_bodies(driver, web_server.base)]
            assert len(texts) > 1, "the page's own responses were captured"
            for text in texts:
                found = {card for card in secret_cards if re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text)}
                assert not found, f"{path}: sealed cards {found} reached the viewer's browser"
            assert "??" in dom  # the seats' cards are there, sealed
    finally:
        driver.quit()


def test_a_ruling_recorded_from_a_protests_page_shows_the_referees_verdict(web_server: WebServer, browser: Any) -> None:
    By = _by()
    sign_in(browser, web_server.base, "chief_judge")
    browser.get(f"{web_server.base}/web/competitions/{WHOLE}/protests/protest-1")
    assert "Ruling ruling-1" in browser.page_source
    browser.find_element(By.ID, "r-hand").send_keys("T2/1")
    browser.find_element(By.ID, "r-rule").send_keys("bfsp 2.1.6")
    browser.find_element(By.ID, "r-finding").send_keys("reviewed on the protest: the call stands")
    browser.find_element(By.CSS_SELECTOR, "#ruling-form button").click()
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#verdict .verdict"), "the verdict", 15)
    verdict = browser.find_element(By.CSS_SELECTOR, "#verdict .verdict")
    assert verdict.get_attribute("data-outcome") == "accepted", verdict.text
    screenshot(browser, "protest-ruling-accepted")
    browser.get(f"{web_server.base}/web/competitions/{WHOLE}/rulings")
    assert "reviewed on the protest: the call stands" in browser.page_source
    # a judge may not decide as the Chief Judge: the referee refuses it, citing the roles table's rule
    sign_in(browser, web_server.base, "judge")
    browser.get(f"{web_server.base}/web/competitions/{WHOLE}/protests/protest-1")
    browser.find_element(By.ID, "r-hand").send_keys("T2/1")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "r-kind")).select_by_value("chief_judge_decision")
    browser.find_element(By.ID, "r-rule").send_keys("bfsp 2.1.6")
    browser.find_element(By.ID, "r-finding").send_keys("a judge trying the Chief Judge's decision")
    browser.find_element(By.CSS_SELECTOR, "#ruling-form button").click()
    wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#verdict .verdict"), "the verdict", 15)
    verdict = browser.find_element(By.CSS_SELECTOR, "#verdict .verdict")
    assert verdict.get_attribute("data-outcome") == "rejected", verdict.text
    assert "2.1.6" in verdict.text
    screenshot(browser, "protest-ruling-rejected")


#: every visible text's contrast with the background behind it (WCAG 2 relative luminance), the lowest found
CONTRAST = """
function lum(c) {
  const v = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(x => x / 255)
    .map(x => x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4));
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(el) {
  for (; el; el = el.parentElement) {
    const c = getComputedStyle(el).backgroundColor;
    const alpha = c.startsWith("rgba") ? Number(c.match(/[\\d.]+/g)[3]) : 1;
    if (alpha > 0.5) return c;
  }
  return "rgb(255, 255, 255)";
}
let worst = [99, ""];
for (const el of document.querySelectorAll("body *")) {
  if (!el.offsetParent || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
  if (el.closest("canvas, svg, input[type=range]")) continue;
  const a = lum(getComputedStyle(el).color), b = lum(background(el));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst[0]) worst = [ratio, el.tagName + "." + el.className + ": " + el.textContent.trim().slice(0, 40)];
}
return worst;
"""


def test_every_page_renders_for_an_official_at_desktop_and_tablet_width(
    web_server: WebServer, chromium: tuple[str, str]
) -> None:
    By = _by()
    api = web_server.api("chief_judge")
    hand = _side_pot_hand(api)
    pages = {
        "dashboard": "/web/",
        "overview-tables": f"/web/competitions/{TABLES}",
        "overview-competition": f"/web/competitions/{WHOLE}",
        "table": f"/web/competitions/{TABLES}/tables/T1",
        "replayer": f"/web/hands/{hand}?step=12",
        "rejections": f"/web/competitions/{TABLES}/rejections",
        "rejections-filtered": f"/web/competitions/{TABLES}/rejections?rule=bfsp+4.8.2",
        "protests": f"/web/competitions/{WHOLE}/protests",
        "protest": f"/web/competitions/{WHOLE}/protests/protest-2",
        "penalties": f"/web/competitions/{WHOLE}/penalties",
        "rulings": f"/web/competitions/{WHOLE}/rulings",
        "protocol": f"/web/competitions/{WHOLE}/protocol",
        "integrity-cases": f"/web/competitions/{WHOLE}/integrity/cases",
        "operations": "/web/operations",
    }
    for width, height, suffix in ((1280, 900, ""), (820, 1180, "-tablet")):
        driver = new_browser(chromium, width, height)
        try:
            sign_in(driver, web_server.base, "chief_judge")
            for name, path in pages.items():
                driver.get(web_server.base + path)
                assert driver.find_element(By.TAG_NAME, "h1").text, name
                assert "Refused" not in driver.title and "Not found" not in driver.title, (name, driver.title)
                if name.startswith("overview"):
                    wait_for(lambda d=driver: d.execute_script(
                        "var c = document.getElementById('chips-chart'); return c && window.Chart && Chart.getChart(c) && Chart.getChart(c).data.datasets.length > 0"
                    ), f"{name}: the chip chart drawn")
                    wait_for(lambda d=driver: d.find_elements(By.ID, "clock-title"), f"{name}: the clock loaded")
                if name in ("protest", "protocol"):
                    wait_for(lambda d=driver: d.find_elements(By.CSS_SELECTOR, ".badge[data-verified=yes]"),
                             f"{name}: the snapshot verified", 20)
                ratio, where = driver.execute_script(CONTRAST)
                assert ratio >= 4.5, f"{name}: text contrast {ratio:.2f} < 4.5 (WCAG AA) at {where}"
                # nothing wider than the window: usable on a tablet
                overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"{name} is {overflow} px wider than the window at {width} px"
                screenshot(driver, f"{name}{suffix}")
        finally:
            driver.quit()
    # every form field has a label, every table view a CSV export with the page's own rows
    with httpx.Client(base_url=web_server.base, cookies={"pokeraudit_session": web_server.token("chief_judge")}) as c:
        csv = c.get(f"/web/competitions/{TABLES}/rejections", params={"format": "csv"})
        assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
        assert csv.text.splitlines()[0] == "#,at,table,hand,event,rule,reason,field"
        assert len(csv.text.splitlines()) == 17
        # a rejection's hand link opens the replayer where the hand stood when the refused record came
        page = c.get(f"/web/competitions/{TABLES}/rejections").text
        link = re.search(r'href="(/web/hands/[0-9a-f-]+\?before_seq=(\d+))"', page)
        assert link is not None
        replayer = c.get(link.group(1).replace("&amp;", "&"))
        start = re.search(r'data-start="(\d+)"', replayer.text)
        assert replayer.status_code == 200 and start is not None and 1 <= int(start.group(1)) <= int(link.group(2))
        protest = c.get(f"/web/competitions/{WHOLE}/protests/protest-1").text
        ids = set(re.findall(r'<(?:input|select|textarea)[^>]*\bid="([^"]+)"', protest))
        labelled = set(re.findall(r'<label for="([^"]+)"', protest))
        assert ids and ids <= labelled, ids - labelled


def test_the_integrity_role_opens_the_alert_queue_and_follows_an_evidence_hand_into_the_replayer(
    web_server: WebServer, browser: Any
) -> None:
    By = _by()
    api = web_server.api("integrity")
    alerts = api.get(f"/v1/integrity/competitions/{TABLES}/alerts", params={"min_hands": 10}).json()
    pairs = api.get(f"/v1/integrity/competitions/{TABLES}/pairs", params={"min_hands": 10}).json()
    sign_in(browser, web_server.base, "integrity")
    browser.get(f"{web_server.base}/web/competitions/{TABLES}/integrity")
    rows = browser.find_elements(By.CSS_SELECTOR, "table[data-grid=alerts] tbody tr td:nth-child(2)")
    assert [r.text for r in rows] == [" & ".join(a["players"]) for a in alerts] or (not alerts and len(rows) == 1)
    if alerts:
        # the queue lists each alert's evidence hands, each a link into the replayer
        expected = alerts[0]["evidence"][0]["hand_id"]
    else:
        # the demo's bots play honestly, so the queue may be empty: the top pair's page holds its evidence hands
        assert pairs and pairs[0]["evidence"]
        top = pairs[0]
        browser.get(f"{web_server.base}/web/competitions/{TABLES}/integrity/chip-flow")
        assert browser.find_elements(By.CSS_SELECTOR, "svg.flow-graph line")
        browser.get(f"{web_server.base}/web/competitions/{TABLES}/integrity/pair?a={top['player_a']}&b={top['player_b']}")
        expected = top["evidence"][0]["hand_id"]
    browser.find_element(By.CSS_SELECTOR, f'a[href="/web/hands/{expected}"]').click()
    wait_for(lambda: f"/web/hands/{expected}" in browser.current_url, "the evidence hand's replayer")
    hand = api.get(f"/v1/hands/{expected}").json()
    assert browser.find_element(By.ID, "replayer")
    assert f"Hand #{hand['number']} at table {hand['table_id']}" in browser.find_element(By.TAG_NAME, "h1").text
    screenshot(browser, "integrity-evidence-replayer")
