"""The edge where images come in: files and raw bytes decoded, and arrays (decoded, captured,
pasted or handed over by a caller) checked and normalised, so a reader only ever gets an 8-bit,
3-channel BGR image of a size it can handle.

Sizes are bounded before anything is allocated: a file's width and height are read from its
header (PNG, JPEG, GIF, BMP, WebP, TIFF) and an image over :data:`MAX_PIXELS` is refused with
both figures before it is decoded. What the codecs print about damaged data (libpng, libjpeg,
OpenCV's log) never reaches the terminal: it becomes the reason of the error instead.
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

from engines.errors import KibitzInputError
from vision.reading import NoBoardFound

#: The most pixels an image may have (8000 x 8000; three 4K screens side by side are 25
#: megapixels). Its 8-bit BGR pixels take 192 MB.
MAX_PIXELS = 64_000_000
#: No game's board can be read in fewer pixels a side: 2 px a cell for SPL-T's 8 columns.
MIN_BOARD_SIDE = 16
#: The formats whose size is read from their header before decoding; others are refused.
FORMATS = ("PNG", "JPEG", "GIF", "BMP", "WebP", "TIFF")

# OpenCV's own log would print decoders' complaints above Kibitz's error: silenced once, here.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


class ImageError(KibitzInputError):
    """An image file or array that cannot be loaded; the message names the file and says why."""


# -- sizes ------------------------------------------------------------------------------------------
def oversized(width: int, height: int) -> str | None:
    """Why an image of ``width`` x ``height`` pixels is too large to read, or None: the one place
    the pixel bound is applied (headers, arrays and screen regions alike)."""
    pixels = width * height
    if pixels <= MAX_PIXELS:
        return None
    return (f"the image is {width:,} x {height:,} px, {pixels:,} pixels; Kibitz reads images of at most "
            f"{MAX_PIXELS:,} pixels ({MAX_PIXELS / 1e6:g} megapixels)")


def image_size(data: bytes, source: str = "image") -> tuple[str, int, int]:
    """(format, width, height) read from the header of encoded image ``data``, without decoding
    it. Raises :class:`ImageError` for a format not in :data:`FORMATS` or a damaged header."""
    for signature_ok, name, reader in _HEADER_READERS:
        if signature_ok(data):
            try:
                size = reader(data)
            except (struct.error, IndexError, ValueError):
                size = None
            if size is None:
                raise ImageError(f"damaged {name} header: no width and height in it", source=source)
            width, height = size
            if width <= 0 or height <= 0:
                raise ImageError(f"the {name} header gives a size of {width} x {height} px", source=source)
            return name, width, height
    raise ImageError(f"not a {', '.join(FORMATS[:-1])} or {FORMATS[-1]} image", source=source)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


#: JPEG markers of a frame header (SOF0-15 but DHT, JPG and DAC), which holds the image's size.
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
#: Markers without a length: TEM and the restart markers.
_JPEG_STANDALONE = frozenset([0x01, *range(0xD0, 0xD8)])


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at < len(data):
        # bytes before a marker are skipped (libjpeg warns and goes on), as are fill bytes
        at = data.find(b"\xff", at)
        if at < 0:
            return None
        while at < len(data) and data[at] == 0xFF:
            at += 1
        if at >= len(data):
            return None
        marker = data[at]
        at += 1
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", data[at + 3:at + 7])
            return width, height
        if marker in (0xDA, 0xD9):  # the scan (or the end) before any frame header
            return None
        if marker == 0x00 or marker in _JPEG_STANDALONE:
            continue
        length = struct.unpack(">H", data[at:at + 2])[0]
        if length < 2:
            return None
        at += length
    return None


def _gif_size(data: bytes) -> tuple[int, int]:
    return struct.unpack("<HH", data[6:10])


def _bmp_size(data: bytes) -> tuple[int, int]:
    header = struct.unpack("<I", data[14:18])[0]
    if header == 12:  # the OS/2 core header: 16-bit sizes
        return struct.unpack("<HH", data[18:22])
    width, height = struct.unpack("<ii", data[18:26])
    return width, abs(height)  # a negative height is a top-down bitmap


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    directory = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[directory:directory + 2])[0]
    found: dict[int, int] = {}
    for entry in range(count):
        at = directory + 2 + 12 * entry
        tag, kind = struct.unpack(order + "HH", data[at:at + 4])
        if tag in (256, 257):  # ImageWidth, ImageLength: a SHORT or a LONG
            if kind == 3:
                found[tag] = struct.unpack(order + "H", data[at + 8:at + 10])[0]
            elif kind == 4:
                found[tag] = struct.unpack(order + "I", data[at + 8:at + 12])[0]
    if 256 not in found or 257 not in found:
        return None
    return found[256], found[257]


_HEADER_READERS = (
    (lambda data: data[:8] == b"\x89PNG\r\n\x1a\n", "PNG", _png_size),
    (lambda data: data[:3] == b"\xff\xd8\xff", "JPEG", _jpeg_size),
    (lambda data: data[:6] in (b"GIF87a", b"GIF89a"), "GIF", _gif_size),
    (lambda data: data[:2] == b"BM", "BMP", _bmp_size),
    (lambda data: data[:4] == b"RIFF" and data[8:12] == b"WEBP", "WebP", _webp_size),
    (lambda data: data[:4] in (b"II*\x00", b"MM\x00*"), "TIFF", _tiff_size),
)


# -- decoding ---------------------------------------------------------------------------------------
_STDERR = threading.Lock()


@contextlib.contextmanager
def _codec_messages() -> Iterator[list[str]]:
    """Collect what C libraries print on the process's standard error (file descriptor 2) in
    the block -- libpng and libjpeg write their complaints there themselves -- instead of letting
    it reach the terminal. The list is filled when the block ends."""
    messages: list[str] = []
    with _STDERR:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (AttributeError, OSError, ValueError):  # no standard error at all (a windowed app)
            saved = None
        if saved is None:
            yield messages
            return
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield messages
            finally:
                os.dup2(saved, 2)
                os.close(saved)
                sink.seek(0)
                messages.extend(line.strip() for line in sink.read(65536).decode("utf-8", "replace").splitlines()
                                if line.strip())


def decode(data: bytes, source: str = "image") -> np.ndarray:
    """Decode PNG/JPEG/GIF/BMP/WebP/TIFF bytes (the format is told by the content, not a name) as
    8-bit BGR. The size is checked from the header first; a damaged file is refused with what
    the codec said. Raises :class:`ImageError` naming ``source``."""
    if not data:
        raise ImageError("empty (0 bytes): not an image", source=source)
    name, width, height = image_size(data, source)
    too_large = oversized(width, height)
    if too_large:
        raise ImageError(too_large, source=source)
    with _codec_messages() as messages:
        try:
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_UNCHANGED)
        except cv2.error:
            image = None
    said = f" ({messages[-1]})" if messages else ""
    if image is None:
        raise ImageError(f"damaged {name} data: it cannot be decoded{said}", source=source)
    if any("Premature end of JPEG file" in message for message in messages):
        # libjpeg greys out what is missing: a board read from it would be half made up
        raise ImageError("the JPEG data ends early (a truncated file?)", source=source)
    try:
        return as_bgr(image)
    except ImageError as error:  # e.g. a float TIFF: say which file
        raise ImageError(error.reason, source=source) from None


def load(path: str | Path) -> np.ndarray:
    """Read an image file as BGR; a missing, unreadable, oversized or undecodable file raises
    :class:`ImageError` naming it."""
    from engines.limits import read_bytes_file

    try:
        data = read_bytes_file(path)
    except ImageError:
        raise
    except KibitzInputError as error:
        raise ImageError(error.reason, error.location) from None
    return decode(data, str(path))


def read_stream(stream: BinaryIO, source: str = "standard input") -> np.ndarray:
    """Decode an image from a binary stream (``kibitz read GAME -``), reading no more than the
    largest file Kibitz reads."""
    from engines.limits import MAX_FILE_BYTES

    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"more than {MAX_FILE_BYTES:,} bytes; at most that many are read", source=source)
    return decode(data, source)


# -- arrays -----------------------------------------------------------------------------------------
def as_bgr(image: np.ndarray) -> np.ndarray:
    """``image`` as contiguous 8-bit, 3-channel BGR: grey (H x W or H x W x 1) and grey with
    alpha made three channels, BGRA without its alpha, 16-bit pixels cut to their top 8 bits,
    booleans black and white, other whole numbers kept when they all lie in 0..255. Anything else
    (floats, other numbers, other shapes) raises :class:`ImageError` saying what it is."""
    if not isinstance(image, np.ndarray):
        raise ImageError(f"expected an image array, got {type(image).__name__}")
    if image.ndim == 3 and image.shape[2] in (1, 2):
        image = image[:, :, 0]  # grey, or grey and alpha
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (3, 4)):
        raise ImageError(f"expected a grey, BGR or BGRA image (height x width, 1 to 4 channels), "
                         f"got an array of shape {image.shape}")
    image = np.ascontiguousarray(_eight_bit(image))
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def _eight_bit(image: np.ndarray) -> np.ndarray:
    kind = image.dtype.kind
    if image.dtype == np.uint8:
        return image
    if kind == "b":
        return image.astype(np.uint8) * np.uint8(255)
    if kind == "u" and image.dtype.itemsize == 2:
        return (image >> 8).astype(np.uint8)
    if kind in "iu":
        if image.size and (image.min() < 0 or image.max() > 255):
            raise ImageError(f"expected an 8-bit image, got {image.dtype} pixels from {image.min()} to {image.max()}")
        return image.astype(np.uint8)
    raise ImageError(f"expected an 8-bit image, got {image.dtype} pixels")


def board_image(image: np.ndarray) -> np.ndarray:
    """``image`` as every reader takes it (see :func:`as_bgr`), after checking it can hold a
    board: at least :data:`MIN_BOARD_SIDE` pixels each way and at most :data:`MAX_PIXELS`.
    Raises :class:`NoBoardFound` saying why not."""
    if not isinstance(image, np.ndarray):
        raise NoBoardFound(f"not an image but a {type(image).__name__}")
    if image.ndim not in (2, 3):
        raise NoBoardFound(f"not an image but an array of shape {image.shape}")
    height, width = image.shape[:2]
    if height == 0 or width == 0:
        raise NoBoardFound(f"the image is empty ({width} x {height} px)")
    if min(height, width) < MIN_BOARD_SIDE:
        raise NoBoardFound(f"the image is {width} x {height} px; a board needs at least {MIN_BOARD_SIDE} px "
                           f"each way")
    too_large = oversized(width, height)
    if too_large:
        raise NoBoardFound(too_large)
    try:
        return as_bgr(image)
    except ImageError as error:
        raise NoBoardFound(error.reason) from None
