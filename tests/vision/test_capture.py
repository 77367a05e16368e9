"""Screen capture: logical-to-monitor conversion on HiDPI and side-by-side screens, and the
errors a platform without capture gives."""

from __future__ import annotations

import numpy as np
import pytest

from vision import capture
from vision.capture import CaptureUnavailable, Monitor, Region, to_monitor_region


def test_device_pixel_ratio_one_keeps_coordinates():
    monitor = Monitor(0, 0, 1920, 1080)
    assert to_monitor_region((100, 50, 400, 300), (0, 0, 1920, 1080), monitor) == Region(100, 50, 400, 300)


def test_device_pixel_ratio_two_doubles_offsets_and_sizes():
    # a 2560 x 1440 panel at 200 %: Qt reports 1280 x 720 logical pixels
    monitor = Monitor(0, 0, 2560, 1440)
    assert to_monitor_region((100, 50, 400, 300), (0, 0, 1280, 720), monitor) == Region(200, 100, 800, 600)


def test_second_screen_right_of_the_first_with_its_own_ratio():
    # screen 2 starts at logical x 1920 (Qt keeps a screen's native origin) and is 150 %
    monitor = Monitor(1920, 0, 3840, 2160)
    region = to_monitor_region((1920 + 40, 20, 200, 100), (1920, 0, 2560, 1440), monitor)
    assert region == Region(1920 + 60, 30, 300, 150)


def test_points_backend_keeps_logical_units():
    # macOS: mss counts points, so a Retina screen's monitor is as wide as Qt's logical screen
    monitor = Monitor(0, 0, 1440, 900)
    assert to_monitor_region((10, 10, 100, 100), (0, 0, 1440, 900), monitor) == Region(10, 10, 100, 100)


def test_region_checks_its_size_and_round_trips():
    with pytest.raises(ValueError, match="positive size"):
        Region(0, 0, 0, 10)
    assert Region.from_list([1, 2, 3, 4]).as_list() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="left, top, width, height"):
        Region.from_list([1, 2, 3])


class _FakeShot:
    def __init__(self, pixels):
        self.pixels = pixels

    def __array__(self, dtype=None, copy=None):
        return self.pixels


class _FakeMss:
    def __init__(self, pixels=None, error=None, monitor_pixels=None):
        self.pixels, self.error = pixels, error
        self.monitor_pixels = pixels if monitor_pixels is None else monitor_pixels
        self.monitors = [{"left": 0, "top": 0, "width": 300, "height": 200},
                         {"left": 0, "top": 0, "width": 300, "height": 200}]

    def __enter__(self):
        if self.error:
            raise self.error
        return self

    def __exit__(self, *exc):
        return False

    def grab(self, box):
        if box in self.monitors:
            return _FakeShot(self.monitor_pixels)
        self.box = box
        return _FakeShot(self.pixels)


def _patch_mss(monkeypatch, fake):
    import mss

    monkeypatch.setattr(mss, "mss", lambda: fake)
    monkeypatch.setattr(mss, "MSS", lambda: fake, raising=False)


def test_grab_returns_bgr_of_the_region(monkeypatch):
    bgra = np.zeros((20, 30, 4), np.uint8)
    bgra[..., 0], bgra[..., 1], bgra[..., 2], bgra[..., 3] = 10, 20, 30, 255
    fake = _FakeMss(bgra)
    _patch_mss(monkeypatch, fake)
    image = capture.grab(Region(5, 6, 30, 20))
    assert fake.box == {"left": 5, "top": 6, "width": 30, "height": 20}
    assert image.shape == (20, 30, 3) and image[0, 0].tolist() == [10, 20, 30]


def test_all_black_screens_are_reported_as_no_capture(monkeypatch):
    _patch_mss(monkeypatch, _FakeMss(np.zeros((20, 30, 4), np.uint8)))
    with pytest.raises(CaptureUnavailable, match="all-black.*open a screenshot file or paste"):
        capture.grab([0, 0, 30, 20])


def test_a_black_region_of_a_lit_screen_is_just_black(monkeypatch):
    # an empty HATETRIS well is black: the screen around it shows the platform gives pixels
    lit = np.full((200, 300, 4), 255, np.uint8)
    _patch_mss(monkeypatch, _FakeMss(np.zeros((20, 30, 4), np.uint8), monitor_pixels=lit))
    image = capture.grab([0, 0, 30, 20])
    assert image.shape == (20, 30, 3) and not image.any()


def test_backend_failure_is_reported_as_no_capture(monkeypatch):
    _patch_mss(monkeypatch, _FakeMss(error=RuntimeError("XOpenDisplay() failed")))
    with pytest.raises(CaptureUnavailable, match="XOpenDisplay"):
        capture.grab(Region(0, 0, 10, 10))
    with pytest.raises(CaptureUnavailable):
        capture.monitors()
