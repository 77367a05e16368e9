"""An X screen of its own for looking at the window as a person does: Xvfb on the first free
display number with openbox managing it. Used by docs/make_screenshots.py and
benchmarks/follow_on_screen.py.

Needs the Debian packages xvfb, openbox and x11-utils (xprop).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import time

SCREEN = "1600x1000x24"


class Display:
    """Xvfb on the first free display number and openbox on it; :meth:`stop` ends both."""

    def __init__(self, screen: str = SCREEN) -> None:
        self.screen = screen
        self.xvfb: subprocess.Popen | None = None
        self.openbox: subprocess.Popen | None = None
        self.name = ""

    def start(self) -> str:
        for tool in ("Xvfb", "openbox", "xprop"):
            if shutil.which(tool) is None:
                raise RuntimeError(f"{tool} is not installed (Debian: apt install xvfb openbox x11-utils)")
        read_end, write_end = os.pipe()
        try:
            self.xvfb = subprocess.Popen(
                # "-r": no key auto-repeat. A key pressed by xdotool while the machine is busy can be
                # held past the repeat delay, and one Return became eight HATETRIS placements
                ["Xvfb", "-displayfd", str(write_end), "-screen", "0", self.screen, "-nolisten", "tcp", "-br", "-r"],
                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
            os.close(write_end)
            number = b""
            deadline = time.monotonic() + 20
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(read_end, 64) if ready else b""
                if not chunk:
                    error = self.xvfb.stderr.read().decode(errors="replace") if self.xvfb.poll() is not None else ""
                    raise RuntimeError(f"Xvfb did not start: {error.strip()[-500:] or 'no display number after 20 s'}")
                number += chunk
        finally:
            os.close(read_end)
        self.name = f":{number.decode().strip()}"
        self.openbox = subprocess.Popen(["openbox", "--sm-disable"], env=self.env(), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 20
        while True:  # openbox manages the screen once it has set the EWMH check window
            probe = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=self.env(),
                                   capture_output=True, text=True)
            if "window id" in probe.stdout:
                break
            if self.openbox.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"openbox did not start on {self.name}")
            time.sleep(0.1)
        return self.name

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items()
               if key not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "QT_SCALE_FACTOR", "QT_SCREEN_SCALE_FACTORS")}
        env["DISPLAY"] = self.name
        env["QT_QPA_PLATFORM"] = "xcb"
        env.update(extra or {})
        return env

    def stop(self) -> None:
        for process in (self.openbox, self.xvfb):
            if process is None or process.poll() is not None:
                continue
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- driving what runs on the screen ----------------------------------------------------------------
def xdotool(display: str, *arguments: str) -> str:
    """Run xdotool on ``display``; its output."""
    result = subprocess.run(["xdotool", *arguments], env=dict(os.environ, DISPLAY=display), capture_output=True,
                            text=True, timeout=30)
    return result.stdout.strip()


def kibitz_window(display: str, timeout: float = 240.0) -> str:
    """The id of Kibitz's main window once it shows ("" if it does not within ``timeout``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = xdotool(display, "search", "--onlyvisible", "--name", "Kibitz")
        if found:
            return found.splitlines()[-1]
        time.sleep(0.5)
    return ""


def press(display: str, window: str, keys: str) -> None:
    """Press ``keys`` (xdotool's names, e.g. "ctrl+shift+a") in ``window``, made active first."""
    xdotool(display, "windowactivate", "--sync", window)
    xdotool(display, "key", "--window", window, "--clearmodifiers", keys)


def screen_image(display: str):
    """The whole X screen as a BGR numpy array."""
    import mss
    import numpy as np

    with (mss.MSS if hasattr(mss, "MSS") else mss.mss)(display=display) as screen:
        return np.ascontiguousarray(np.asarray(screen.grab(screen.monitors[1]), np.uint8)[:, :, :3])


def headed_chromium(playwright, environment: dict[str, str], box: tuple[int, int, int, int]):
    """Debian's chromium with a window at ``box`` (x, y, width, height) on the X screen of
    ``environment``'s DISPLAY."""
    from tests.real_pages import LAUNCH_ARGUMENTS, chromium_path

    x, y, width, height = box
    return playwright.chromium.launch(
        executable_path=chromium_path(), headless=False, env=environment,
        args=[*LAUNCH_ARGUMENTS, f"--window-position={x},{y}", f"--window-size={width},{height}"])


def fresh_game_page(page, url: str, settle_ms: int = 600):
    """Open ``url`` in ``page`` with the game's saved state cleared (the page keeps it in
    localStorage): a new game, given ``settle_ms`` to draw."""
    page.goto(url)
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_timeout(settle_ms)
    return page


def on_screen(page, selector: str) -> tuple[int, int, int, int]:
    """Where the page's element ``selector`` lies on the X screen: x, y, width, height (the page
    lies at the bottom of the browser window, centred)."""
    box = page.evaluate("""(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return [window.screenX + (window.outerWidth - window.innerWidth) / 2 + r.left,
                window.screenY + (window.outerHeight - window.innerHeight) + r.top, r.width, r.height];
    }""", selector)
    return tuple(round(value) for value in box)


def remember_region(settings_folder, game: str, box: tuple[int, int, int, int]) -> None:
    """What Capture board leaves in Kibitz's settings after the player drags ``box``."""
    from PySide6.QtCore import QSettings

    text = ",".join(str(value) for value in box)
    settings = QSettings(str(settings_folder / "kibitz.ini"), QSettings.Format.IniFormat)
    settings.setValue(f"capture/{game}/region", text)
    settings.setValue(f"capture/{game}/logical", text)
    settings.setValue(f"capture/{game}/screen", "")
    settings.sync()
