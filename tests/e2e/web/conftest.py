"""The browser tests' fixtures (web_browser.py): the demo's data served by ``pokeraudit serve``, and Debian's
Chromium driven headless."""

from web_browser import browser, chromium, web_server

__all__ = ["browser", "chromium", "web_server"]
