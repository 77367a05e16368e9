"""What becomes of a screenshot before a reader sees it: shown at another size, saved as a JPEG.
One home for the reader tests and the looks' capture generators."""

from __future__ import annotations

import cv2
import numpy as np


def resized(image: np.ndarray, factor: float) -> np.ndarray:
    """``image`` scaled by ``factor`` as an image viewer would (area average down, cubic up)."""
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation)


def jpeg(image: np.ndarray, quality: int | None) -> np.ndarray:
    """``image`` after a JPEG round trip at ``quality`` (None: kept as a PNG keeps it)."""
    if quality is None:
        return image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"OpenCV could not encode a {image.shape} image as JPEG")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
