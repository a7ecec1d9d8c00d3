"""The web app in a real browser (fixtures and helpers of tests/e2e/web): the demo's data served by ``pokeraudit serve`` (embedded, its referee and
projector running) and Debian's Chromium, headless, driven through Debian's chromedriver (installed by
deploy/chromium/chromium.sh when absent; named explicitly, so selenium never downloads a browser or a driver).

Screenshots of every page the tests open go to tests/e2e/web/screenshots/ (ignored by git), for review.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.auth import issue_token
from api.demo import load_demo
from api.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM_SCRIPT = ROOT / "deploy" / "chromium" / "chromium.sh"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
#: the simulated tables of the demo (3 × 9, with dealers' slips refused)
TABLES = "sim-7"


@dataclass(frozen=True)
class WebServer:
    base: str
    secret: str
    data_dir: Path

    def token(self, role: str, person: str | None = None, **claims: str) -> str:
        return issue_token(self.secret, person or f"test-{role}", role, **claims)  # type: ignore[arg-type]

    def api(self, role: str = "chief_judge", **claims: str) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token(role, **claims)}"}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    data_dir = tmp_path_factory.mktemp("web") / "demo"
    settings = Settings(POKERAUDIT_DATA_DIR=data_dir)  # type: ignore[call-arg]
    assert load_demo(settings, out=lambda line: None) == TABLES
    with served(data_dir) as server:
        yield server


@contextmanager
def served(data_dir: Path) -> Iterator[WebServer]:
    """``pokeraudit serve`` (embedded) on the store in ``data_dir``, until the block ends."""
    # The server's log goes to a file, never to a pipe nobody reads: a browser's traffic writes well over the
    # pipe's 64 KiB, and a full pipe blocks the log's write in the event loop, so the server stops answering.
    log_path = data_dir.parent / "server.log"
    secret = secrets.token_urlsafe(32)
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    # the rate limits as served (a page counts once, api/limits.py): the pages must work within them
    env.update(POKERAUDIT_DATA_DIR=str(data_dir), POKERAUDIT_JWT_SECRET=secret, POKERAUDIT_DEMO_SIGN_IN="true")
    for name in ("POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE", "POKERAUDIT_RATE_SUBMITS_PER_MINUTE"):
        env.pop(name, None)
    port = _free_port()
    log = log_path.open("w")
    server = subprocess.Popen(
        [str(POKERAUDIT), "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log_path.read_text()[-5000:]
            try:
                if httpx.get(f"{base}/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not become ready in 60 s"
            time.sleep(0.2)
        yield WebServer(base, secret, data_dir)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def chromium_paths() -> tuple[str, str]:
    """The browser and its driver, installed from Debian's packages when absent."""
    found = subprocess.run(["bash", str(CHROMIUM_SCRIPT), "ensure"], capture_output=True, text=True, timeout=900)
    assert found.returncode == 0, found.stderr
    browser, driver = found.stdout.split()[:2]
    return browser, driver


@pytest.fixture(scope="session")
def chromium() -> tuple[str, str]:
    return chromium_paths()


def new_browser(chromium: tuple[str, str], width: int = 1280, height: int = 900) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = chromium
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    # the network log: what the page fetched, to look for sealed cards in it
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    os.environ["SE_OFFLINE"] = "true"  # selenium's manager must never fetch a driver
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


@pytest.fixture
def browser(chromium: tuple[str, str]) -> Iterator[Any]:
    driver = new_browser(chromium)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def sign_in(driver: Any, base: str, role: str) -> None:
    """Through the demo's role picker, as a person would."""
    from selenium.webdriver.common.by import By

    driver.get(f"{base}/web/sign-in")
    driver.delete_cookie("pokeraudit_session")  # whoever was signed in before
    driver.get(f"{base}/")
    assert "/web/sign-in" in driver.current_url
    driver.find_element(By.CSS_SELECTOR, f"input[name=role][value={role}]").click()
    driver.find_element(By.ID, "demo-sign-in").click()
    wait_for(lambda: "/web/sign-in" not in driver.current_url, f"signing in as {role}")


def wait_for(condition: Any, what: str, timeout: float = 10.0, every: float = 0.02) -> float:
    """Seconds until ``condition()`` holds; fails naming ``what`` after ``timeout``."""
    start = time.monotonic()
    while True:
        try:
            if condition():
                return time.monotonic() - start
        except Exception:  # the page is being replaced under the probe
            pass
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(every)


