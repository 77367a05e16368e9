"""Fuzz targets for images (issue 23): every image Kibitz reads reaches a reader checked.

(a) Image *files*: valid PNG / JPEG / WebP / BMP / GIF / TIFF encodings of the real screenshots
in the reference data (cropped and resized) and of synthetic pictures, mutated byte by byte,
decoded by ``vision.images.decode`` and, when decoded, read by every game's reader.
(b) Arrays of odd shapes, dtypes, sizes, memory layouts and contents handed straight to
``vision.read(game, array)``.

A case passes when decoding ends in an image or an ImageError, and every reading in a Reading or
NoBoardFound. Accepted cases are checked further: a decoded image is 8-bit BGR of the size its
header gives (and, unmutated and lossless, equal to the pixels encoded); a reading's board text
loads back as the same board and its confidences lie in [0, 1]; the array read is left as it was.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import GAMES
from engines.errors import NotationError
from tests.conftest import reference_data_dir
from tests.fuzz.mutations import TALLY, check, fuzz_settings, mutated_bytes
from vision import READER_MODULES, NoBoardFound, Reading, read
from vision.images import decode, image_size
from vision.reading import DOUBTFUL_BELOW

FILES_FROM_SCREENSHOTS = "images: mutated files of real screenshots -> decode -> every reader"
FILES_FROM_PICTURES = "images: mutated files of synthetic pictures -> decode -> every reader"
ODD_ARRAYS = "images: arrays of odd shapes, dtypes and contents -> vision.read"

GAME_NAMES = sorted(READER_MODULES)
#: Images read by all five readers are kept under this long side (10-40 ms a reader); larger
#: ones are read by one reader, so a case stays well inside the hang limit.
SMALL_SIDE = 360
#: (extension, imencode parameters, lossless) of each encoding tried.
ENCODINGS = (
    (".png", (), True),
    (".png", (cv2.IMWRITE_PNG_COMPRESSION, 0), True),
    (".jpg", (cv2.IMWRITE_JPEG_QUALITY, 90), False),
    (".jpg", (cv2.IMWRITE_JPEG_QUALITY, 20), False),
    (".jpg", (cv2.IMWRITE_JPEG_PROGRESSIVE, 1), False),
    (".webp", (cv2.IMWRITE_WEBP_QUALITY, 101), True),
    (".webp", (cv2.IMWRITE_WEBP_QUALITY, 60), False),
    (".bmp", (), True),
    (".tiff", (), True),
    (".gif", (), False),
)


@functools.cache
def screenshots() -> tuple[np.ndarray, ...]:
    """The real screenshots of the reference data, as BGR arrays."""
    from vision.images import load

    folder = reference_data_dir()
    if folder is None:
        return ()
    paths = sorted(path for path in folder.glob("*/*") if path.suffix.lower() in (".png", ".jpg", ".jpeg"))
    return tuple(load(path) for path in paths)


def _need_screenshots() -> None:
    if not screenshots():
        pytest.skip("reference data from the real games not found: set KIBITZ_REFERENCE_DATA or put shared/data "
                    "beside the project (see README, 'For developers')")


# -- pictures ------------------------------------------------------------------------------------------
@st.composite
def screenshot_views(draw: st.DrawFn) -> np.ndarray:
    """A real screenshot, cropped (or not) and resized (mostly down to a small size)."""
    shots = screenshots()
    image = shots[draw(st.integers(0, len(shots) - 1))]
    height, width = image.shape[:2]
    if draw(st.integers(0, 2)) == 0:  # a crop mostly cuts the board: a third of the cases
        top = draw(st.integers(0, height - 1))
        left = draw(st.integers(0, width - 1))
        image = image[top:top + draw(st.integers(1, height - top)), left:left + draw(st.integers(1, width - left))]
    height, width = image.shape[:2]
    longest = draw(st.sampled_from((SMALL_SIDE, SMALL_SIDE, SMALL_SIDE, 200, 120, 48, 1200)))
    if max(height, width) > longest or draw(st.booleans()):
        scale = min(longest / max(height, width), draw(st.sampled_from((0.25, 0.5, 1.0, 1.5))))
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return np.ascontiguousarray(image)


@st.composite
def synthetic_pictures(draw: st.DrawFn) -> np.ndarray:
    """Small pictures from nothing: solid colours, noise, grids of coloured cells, stripes, in
    grey, BGR or BGRA, 8 or 16 bits, of any size from 1 px (thin ones too)."""
    height = draw(st.sampled_from((1, 2, 15, 16, 17, 40, 100, 240)))
    width = draw(st.sampled_from((1, 2, 15, 16, 17, 40, 100, 240, 3000)))
    channels = draw(st.sampled_from((1, 3, 3, 4)))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    kind = draw(st.sampled_from(("solid", "noise", "cells", "stripes")))
    shape = (height, width, channels)
    if kind == "solid":
        image = np.full(shape, rng.integers(0, 256, channels), np.uint8)
    elif kind == "noise":
        image = rng.integers(0, 256, shape, dtype=np.uint8)
    elif kind == "cells":
        pitch = draw(st.integers(2, 40))
        colours = rng.integers(0, 256, (height // pitch + 1, width // pitch + 1, channels), dtype=np.uint8)
        image = colours[np.arange(height) // pitch][:, np.arange(width) // pitch]
        image[::pitch, :] = 250
        image[:, ::pitch] = 250
    else:
        image = np.zeros(shape, np.uint8)
        image[::draw(st.integers(1, 9))] = 255
    if draw(st.booleans()) and channels != 4:
        image = image.astype(np.uint16) * 257  # a 16-bit picture (PNG and TIFF keep it)
    return image[:, :, 0] if channels == 1 else image


def encoded(draw: st.DrawFn, image: np.ndarray) -> tuple[bytes, np.ndarray | None]:
    """``image`` encoded in a drawn format: its bytes, and the pixels a lossless decoding must
    give back (None when the format is lossy or cannot hold the image as it is)."""
    extension, parameters, lossless = draw(st.sampled_from(ENCODINGS))
    if image.dtype != np.uint8 and extension not in (".png", ".tiff"):
        image = (image >> 8).astype(np.uint8)
    ok, data = cv2.imencode(extension, image, list(parameters))
    if not ok:  # e.g. a size this format cannot hold: PNG takes anything
        extension, lossless = ".png", True
        ok, data = cv2.imencode(extension, image)
    assert ok
    # lossless WebP may change the colour of transparent pixels (libwebp's default, not "exact")
    lossless = lossless and not (extension == ".webp" and image.ndim == 3 and image.shape[2] == 4)
    expected = _as_bgr_by_hand(image) if lossless else None
    return data.tobytes(), expected


def _as_bgr_by_hand(image: np.ndarray) -> np.ndarray:
    """What 8-bit BGR an image should become, worked out with numpy alone."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.shape[2] == 1:
        image = np.repeat(image, 3, axis=2)
    return image[:, :, :3]


# -- what is checked ----------------------------------------------------------------------------------
def read_every_game(image: np.ndarray) -> dict[str, Reading | NoBoardFound]:
    """Each game's reading of ``image`` (every reader on a small image, one drawn by size on a
    large one), or the NoBoardFound it raised; any other exception propagates."""
    games = GAME_NAMES if max(image.shape[:2]) <= SMALL_SIDE else [GAME_NAMES[sum(image.shape) % len(GAME_NAMES)]]
    outcomes: dict[str, Reading | NoBoardFound] = {}
    for game in games:
        try:
            outcomes[game] = read(game, image)
        except NoBoardFound as error:
            assert error.reason.strip(), f"{game}: NoBoardFound without a reason"
            outcomes[game] = error
    return outcomes


def decode_and_read(data: bytes) -> tuple[np.ndarray, dict[str, Reading | NoBoardFound]]:
    image = decode(data, "fuzzed image")
    return image, read_every_game(image)


def check_reading(game: str, reading: Reading) -> None:
    """A reading that can be loaded: its game, confidences in [0, 1], JSON-ready, and its board
    text loads back as the same board."""
    assert reading.game == game
    confidence = np.asarray(reading.per_cell_confidence, dtype=float)
    assert np.isfinite(confidence).all() and (confidence >= 0).all() and (confidence <= 1).all()
    json.dumps(reading.to_json())
    rules = GAMES[game]
    text = reading.board_text()
    if reading.sure:
        assert rules.board_text(rules.parse_board(text)) == text
        return
    # an unsure reading goes to the review, shown as read: a board the game cannot have (an SPL-T
    # box over a void) is refused by the rules with their reason, every cell of it doubtful
    try:
        assert rules.board_text(rules.parse_board(text)) == text
    except NotationError as refused:
        assert refused.reason
        assert (confidence < DOUBTFUL_BELOW).all(), "a board the rules refuse with cells read sure"


def check_decoded(data: bytes, image: np.ndarray, expected: np.ndarray | None, mutated: bool) -> None:
    _, width, height = image_size(data)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.flags.c_contiguous
    assert image.shape[:2] == (height, width), "decoded to another size than its header gives"
    if expected is not None and not mutated:
        assert np.array_equal(image, expected), "a lossless encoding decoded to other pixels"


def verify(target: str, verification, *args) -> None:
    """Check an accepted case further; a mismatch makes it a failed case in the tally (and fails
    the test), not an accepted one."""
    try:
        verification(*args)
    except BaseException:
        TALLY[target]["accepted"] -= 1
        TALLY[target]["failed"] += 1
        raise


def run_file_case(target: str, data: bytes, original: bytes, expected: np.ndarray | None) -> None:
    accepted, result = check(target, decode_and_read, data)
    if not accepted:
        return
    image, outcomes = result
    verify(target, check_decoded, data, image, expected, data != original)
    for game, outcome in outcomes.items():
        if isinstance(outcome, Reading):
            verify(target, check_reading, game, outcome)


# -- (a) image files -----------------------------------------------------------------------------------
@fuzz_settings()
@given(st.data())
def test_mutated_files_of_real_screenshots(data):
    _need_screenshots()
    original, expected = encoded(data.draw, data.draw(screenshot_views()))
    mutated = data.draw(mutated_bytes(st.just(original)))
    run_file_case(FILES_FROM_SCREENSHOTS, mutated, original, expected)


@fuzz_settings()
@given(st.data())
def test_mutated_files_of_synthetic_pictures(data):
    original, expected = encoded(data.draw, data.draw(synthetic_pictures()))
    mutated = data.draw(mutated_bytes(st.just(original)))
    run_file_case(FILES_FROM_PICTURES, mutated, original, expected)


# -- (b) arrays straight to vision.read -----------------------------------------------------------------
DTYPES = ("uint8", "uint8", "uint16", ">u2", "int8", "int32", "int64", "uint64", "float16", "float32", "float64",
          "bool", "complex64", "object")


@st.composite
def odd_arrays(draw: st.DrawFn) -> np.ndarray:
    """Real screenshots as arrays of every channel layout and dtype, and arrays of any shape (0 to
    4 dimensions, empty to long strips, 0 to 5 channels) with solid, noisy, extreme or NaN
    contents; in odd memory layouts too (reversed, strided, read-only, broadcast)."""
    if screenshots() and draw(st.booleans()):
        array = screenshot_array(draw)
    else:
        array = shaped_array(draw)
    layout = draw(st.sampled_from(("plain", "plain", "reversed", "strided", "read-only", "broadcast")))
    if layout == "reversed" and array.ndim >= 2:
        array = array[::-1, ::-1]
    elif layout == "strided" and array.ndim >= 2:
        array = np.repeat(np.repeat(array, 2, axis=0), 2, axis=1)[::2, ::2]
    elif layout == "read-only":
        array.setflags(write=False)
    elif layout == "broadcast" and array.ndim >= 2 and array.shape[0]:
        array = np.broadcast_to(array[:1], array.shape)
    return array


def screenshot_array(draw: st.DrawFn) -> np.ndarray:
    """A real screenshot (cropped, resized) as grey, grey and alpha, BGR or BGRA, in a drawn dtype
    with the values that dtype's images hold (16-bit: x 257, float: / 255, bool: thresholded)."""
    bgr = draw(screenshot_views())
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    alpha = np.full(bgr.shape[:2], 255, np.uint8)
    layout = draw(st.sampled_from(("bgr", "bgr", "bgra", "grey", "grey1", "grey-alpha")))
    image = {"bgr": lambda: bgr, "bgra": lambda: np.dstack([bgr, alpha]), "grey": lambda: grey,
             "grey1": lambda: grey[:, :, None], "grey-alpha": lambda: np.dstack([grey, alpha])}[layout]()
    dtype = draw(st.sampled_from(("uint8", "uint8", "uint16", ">u2", "int16", "int64", "bool", "float32")))
    if dtype in ("uint16", ">u2"):
        return (image.astype(np.uint16) * 257).astype(dtype)
    if dtype == "bool":
        return image > 127
    if dtype == "float32":
        return image.astype(np.float32) / 255
    return image.astype(dtype)


DTYPES = ("uint8", "uint8", "uint16", ">u2", "int8", "int32", "int64", "uint64", "float16", "float32", "float64",
          "bool", "complex64", "object")


def shaped_array(draw: st.DrawFn) -> np.ndarray:
    ndim = draw(st.sampled_from((2, 3, 3, 3, 0, 1, 4)))
    sides = st.sampled_from((0, 1, 2, 15, 16, 17, 33, 64, 100, 200, 300))
    shape = [draw(sides) for _ in range(min(ndim, 2))]
    if ndim >= 2 and draw(st.integers(0, 9)) == 0:
        shape[draw(st.integers(0, 1))] = draw(st.sampled_from((1000, 5000)))  # a long strip
    if ndim >= 3:
        shape.append(draw(st.sampled_from((3, 3, 4, 1, 2, 0, 5))))
    if ndim == 4:
        shape.append(draw(st.sampled_from((1, 3))))
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    content = draw(st.sampled_from(("noise", "solid", "extreme", "zeros")))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    if content == "noise":
        values = rng.uniform(0, 256, shape)
    elif content == "solid":
        values = np.full(shape, draw(st.sampled_from((0.0, 1.0, 128.0, 255.0))))
    elif content == "extreme":
        values = rng.choice(np.array([0.0, 255.0, 256.0, -1.0, 65535.0, 1e30, -1e30, np.nan, np.inf]), shape)
    else:
        values = np.zeros(shape)
    with np.errstate(all="ignore"):
        if dtype.kind == "b":
            return np.nan_to_num(values) > 127
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            finite = np.nan_to_num(values, nan=0.0, posinf=1e30, neginf=-1e30)
            return np.clip(finite, info.min, info.max).astype(dtype)
        return values.astype(dtype)


@fuzz_settings()
@given(st.data())
def test_odd_arrays_read_by_every_game(data):
    array = data.draw(odd_arrays())
    small = array.ndim < 2 or max(array.shape[:2]) <= SMALL_SIDE
    games = GAME_NAMES if small else [data.draw(st.sampled_from(GAME_NAMES))]
    before = array.tobytes()
    for game in games:  # a case each
        accepted, reading = check(ODD_ARRAYS, read, game, array)
        if accepted:
            verify(ODD_ARRAYS, check_reading, game, reading)
        assert array.tobytes() == before, f"the {game} reader changed the image it was given"


def test_the_screenshots_are_found_when_the_reference_data_is_there():
    folder = reference_data_dir()
    if folder is None:
        pytest.skip("reference data from the real games not found")
    assert len(screenshots()) == len([path for path in Path(folder).glob("*/*")
                                      if path.suffix.lower() in (".png", ".jpg", ".jpeg")]) > 0
