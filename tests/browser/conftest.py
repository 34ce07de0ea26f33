"""Browser tests: uvicorn in a thread on a free port, Debian's chromium through Playwright.

Each xdist worker starts one server (on its own temporary database) and one browser; every test gets a
fresh browser context, so a fresh player cookie and a fresh localStorage.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The features Playwright itself launches chromium without (playwright-core's chromiumSwitches)."""
TOP_CHROME_PRELOADS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "PreloadTopChromeWebUI")
"""The browser's own pages a window preloads (the address bar's popups), in a renderer of their
own for every context: a third of the CPU of opening a page in a fresh context, for a window no test
ever sees (bench/browser_pages.py)."""
PRESCRIBED_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""The switches every browser test's chromium has."""
CHROMIUM_ARGS = [
    *PRESCRIBED_ARGS,
    # Chromium keeps only the last --disable-features it is given and Playwright passes its own
    # first, so this one repeats Playwright's (tests/browser/test_chromium.py checks it still does).
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + TOP_CHROME_PRELOADS),
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
expect.set_options(timeout=10_000)


@contextmanager
def served(app: Any) -> Iterator[int]:
    """Uvicorn serving ``app`` in a thread on a free loopback port; yields the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    # Idle keep-alive connections stay open for the whole test: with uvicorn's 5 s, a test's own
    # request (page.request) could reuse one just as the server closed it (ECONNRESET).
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_keep_alive=120)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tripeaks.web.app import create_app

    app = create_app(tmp_path_factory.mktemp("store") / "tripeaks.db")
    with served(app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


NewPage = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser, base_url: str) -> Iterator[NewPage]:
    """Open the app in a fresh context: ``new_page(width=, height=, scheme=, locale=, motion=, code=,
    script=)`` (``script``: run in the page before its own).

    The first game's guide is marked as seen unless ``guide=True``."""
    contexts: list[BrowserContext] = []

    def open_page(
        width: int = 1280,
        height: int = 800,
        scheme: str = "light",
        locale: str = "en-US",
        motion: str = "reduce",
        code: str | None = None,
        settings: dict[str, str] | None = None,
        touch: bool = False,
        guide: bool = False,
        script: str | None = None,
    ) -> Page:
        context = browser.new_context(
            base_url=base_url,
            viewport={"width": width, "height": height},
            color_scheme=scheme,  # type: ignore[arg-type]
            locale=locale,
            reduced_motion=motion,  # type: ignore[arg-type]
            has_touch=touch,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        stored: dict[str, Any] = dict(settings or {})
        if not guide:  # the first game's guide (guide.js) only where a test asks for it
            stored.setdefault("tripeaks.guide", "done")
        if code is not None:
            reply = context.request.post("/api/games", data={"code": code})
            assert reply.status == 201, reply.text()
            stored["tripeaks.game"] = reply.json()["id"]
        if stored:
            lines = "".join(
                f"localStorage.setItem({key!r}, {value!r});" for key, value in stored.items()
            )
            context.add_init_script(
                f"if (!sessionStorage.getItem('seeded')) {{{lines}"
                "sessionStorage.setItem('seeded', '1');}"
            )
        if script is not None:  # the test's own, before the page's
            context.add_init_script(script)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        # Anything the Content-Security-Policy blocked is an error of the page too.
        page.on(
            "console",
            lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
        )
        page.errors = errors  # type: ignore[attr-defined]
        page.goto("/")
        page.wait_for_selector("body[data-ready]")
        return page

    yield open_page
    for context in contexts:
        for page in context.pages:
            assert not getattr(page, "errors", []), page.errors  # type: ignore[attr-defined]
        context.close()
