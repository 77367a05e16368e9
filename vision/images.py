"""Loading images for the readers: files and raw bytes, always as 8-bit BGR numpy arrays."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ImageError(ValueError):
    """An image that cannot be loaded; the message names the file and says why."""


def as_bgr(image: np.ndarray) -> np.ndarray:
    """``image`` as 8-bit, 3-channel BGR (grey and BGRA are converted; alpha is dropped)."""
    if image.dtype != np.uint8:
        raise ImageError(f"expected an 8-bit image, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise ImageError(f"expected a grey, BGR or BGRA image, got shape {image.shape}")


def decode(data: bytes, source: str = "image") -> np.ndarray:
    """Decode PNG/JPEG/BMP/... bytes (the format is told by the content, not a name)."""
    array = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(array, cv2.IMREAD_UNCHANGED) if array.size else None
    if image is None:
        raise ImageError(f"{source}: not an image this reader can decode (PNG, JPEG, BMP, WebP, TIFF)")
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    try:
        return as_bgr(image)
    except ImageError as error:  # e.g. a float TIFF: say which file
        raise ImageError(f"{source}: {error}") from None


def load(path: str | Path) -> np.ndarray:
    """Read an image file as BGR; a missing or undecodable file raises :class:`ImageError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageError(f"{path}: is a directory, not an image") from None
    except OSError as error:
        raise ImageError(f"{path}: cannot be read ({error.strerror})") from None
    return decode(data, str(path))
