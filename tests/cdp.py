"""A headless Chromium driven over the DevTools protocol through a pipe, for tests.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages (JSON, each ended by a NUL
byte) on file descriptor 3 and writes its answers and events on descriptor 4, so no WebSocket
library, driver binary or network port is needed: only the browser (Debian's ``chromium``).
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--remote-debugging-pipe")


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    """One Chromium process; :meth:`page` opens a tab and returns its session."""

    def __init__(self, executable: str, *, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="shipcheck-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # the child needs them as descriptors 3 and 4: park them above 10 first so dup2 cannot clash
        hi_r = _dup_above(to_child_r, 10)
        hi_w = _dup_above(from_child_w, 10)

        def wire() -> None:
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            pass_fds=(3, 4, hi_r, hi_w), preexec_fn=wire, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for fd in (to_child_r, from_child_w, hi_r, hi_w):
            os.close(fd)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    # -- protocol --------------------------------------------------------------------------------
    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for ev in self.events:
            if predicate(ev):
                return ev
        while True:
            ev = self._read()
            self.events.append(ev)
            if predicate(ev):
                return ev

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise BrowserError(f"no answer from chromium within {self.timeout} s")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self._buf += chunk
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    # -- pages -----------------------------------------------------------------------------------
    def page(self, *, width: int, height: int, scale: float = 1.0, mobile: bool = False) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        p = Page(self, session)
        for domain in ("Page", "Runtime", "Log", "Network"):
            p.call(f"{domain}.enable")
        p.call("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        return p

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        self.profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _dup_above(fd: int, low: int) -> int:
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD, low)


class Page:
    """One tab: navigate, evaluate, screenshot; ``errors()`` lists script errors and console errors."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def _mine(self, ev: dict[str, Any]) -> bool:
        return ev.get("sessionId") == self.session

    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        self.browser.wait_for(lambda ev: self._mine(ev) and ev.get("method") == "Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in res:
            raise BrowserError(f"script failed: {res['exceptionDetails']}")
        return res["result"].get("value")

    def errors(self) -> list[str]:
        out = []
        for ev in self.browser.events:
            if not self._mine(ev):
                continue
            method, params = ev.get("method"), ev.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(f"log: {params['entry'].get('text')}")
            elif method == "Network.loadingFailed":
                out.append(f"failed to load: {params.get('errorText')}")
        return out

    def requested(self) -> list[str]:
        """Every URL the page asked for."""
        return [ev["params"]["request"]["url"] for ev in self.browser.events
                if self._mine(ev) and ev.get("method") == "Network.requestWillBeSent"]

    def screenshot(self, *, full_page: bool = True) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", params)["data"])
