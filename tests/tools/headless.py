"""Headless chromium for the page tests: one browser for all the pages a test worker loads.

`chromium --headless --dump-dom URL` starts a whole browser for one page: about 2 CPU-s
on an idle machine, 3 to 4 beside another CPU-heavy job, measured; the tools tests load
seven pages. Here one browser per worker loads them all, driven over the DevTools
protocol on a pipe (--remote-debugging-pipe: JSON messages that end in a NUL byte,
commands read from the browser's fd 3 and answers written to its fd 4;
https://chromedevtools.github.io/devtools-protocol/). A page is read as --dump-dom
reads it: document.documentElement.outerHTML once the document has loaded (its
inline scripts and load handlers have run).
"""
import base64
import json
import os
import shutil
import subprocess
import time

TIMEOUT = 120       # seconds for one page or one answer, a hang bound on a loaded machine


class BrowserError(Exception):
    """The browser did not answer as the protocol says; str() says what it did."""


def find():
    """chromium's path, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


class Browser:
    def __init__(self, path, profile):
        self._log = os.path.join(profile, "stderr.log")    # a file: a pipe nobody reads would fill
        to_browser, self._to = os.pipe()
        self._from, from_browser = os.pipe()

        def on_fds_3_and_4():
            # Copies first: a pipe's own descriptor may be 3 or 4.
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self._log, "wb"),
            pass_fds=(3, 4), preexec_fn=on_fds_3_and_4)
        os.close(to_browser)
        os.close(from_browser)
        self._next, self._buffer = 0, b""

    def _send(self, method, params=None, session=None):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to, json.dumps(message).encode() + b"\0")
        return self._next

    def _message(self, deadline):
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError(f"no answer within {TIMEOUT} s")
            chunk = os.read(self._from, 65536)
            if not chunk:
                with open(self._log, "rb") as f:
                    err = f.read().decode(errors="replace")[-2000:]
                raise BrowserError(f"the browser closed the pipe (exit {self.proc.poll()}): {err}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        """The result of one command; events in between are passed over."""
        wanted = self._send(method, params, session)
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self._message(deadline)
            if m.get("id") == wanted:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error']}")
                return m["result"]

    def page(self, url, window=None, screenshot=None):
        """The loaded page's HTML (as --dump-dom prints it); with screenshot, a PNG of the
        window (width, height) written there too."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            if window:
                self.call("Emulation.setDeviceMetricsOverride", {"width": window[0], "height": window[1],
                                                                 "deviceScaleFactor": 1, "mobile": False}, session)
            self.call("Page.navigate", {"url": url}, session)
            deadline = time.monotonic() + TIMEOUT
            while not self._value("document.readyState === 'complete' && location.href !== 'about:blank'",
                                  session):
                if time.monotonic() > deadline:
                    raise BrowserError(f"{url} did not load within {TIMEOUT} s")
                time.sleep(0.05)
            html = self._value("document.documentElement.outerHTML", session)
            if screenshot:
                png = self.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
                with open(screenshot, "wb") as f:
                    f.write(base64.b64decode(png))
            return html
        finally:
            self.call("Target.closeTarget", {"targetId": target})

    def _value(self, expression, session):
        got = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        if "exceptionDetails" in got:
            raise BrowserError(f"{expression}: {got['exceptionDetails'].get('text')}")
        return got["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to)
        os.close(self._from)
