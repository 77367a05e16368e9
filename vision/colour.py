"""The readers' one colour model: CIE Lab (D65, L in 0..100, a and b around 0) of sRGB colours,
images shrunk to a pixel budget, and per-pixel labels looked up in a table over a 5-bit-per-channel
colour lattice (32,768 entries, built once per palette) instead of a distance per pixel.

Every grid reader (2048, 1010!, HATETRIS, Destruct-o-Match) speaks of colours in these terms; what
colours a game has and what they mean stays in that game's reader.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab (D65) of sRGB colours given in 0..1, shape (..., 3): the exact formula, for
    palettes and tables (images go through :func:`lab_image`)."""
    rgb = np.asarray(rgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _SRGB_TO_XYZ.T / _WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
                    axis=-1)


def rgb_of_hex(colour: str) -> np.ndarray:
    """``"#rrggbb"`` as float RGB in 0..255."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    return np.array([int(text[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def lab_of_hex(colour: str) -> np.ndarray:
    """Lab of a ``"#rrggbb"`` colour, float32 (3,)."""
    return srgb_to_lab(rgb_of_hex(colour) / 255.0).astype(np.float32)


def lab_image(bgr: np.ndarray) -> np.ndarray:
    """Lab (L 0..100) of BGR uint8 pixels of any shape (last axis the three channels), float32."""
    pixels = np.ascontiguousarray(bgr, dtype=np.uint8)
    flat = pixels.reshape(1, -1, 3).astype(np.float32) * np.float32(1 / 255)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(pixels.shape)


def delta_e(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Euclidean Lab distance (CIE76) between ``lab`` (..., 3) and a colour or colours broadcast
    against it."""
    return np.sqrt(((np.asarray(lab, np.float32) - np.asarray(reference, np.float32)) ** 2).sum(axis=-1))


# -- labels through a lattice table --------------------------------------------------------------
LATTICE_BITS = 5
_LEVELS = 1 << LATTICE_BITS
#: each channel's part of the table's index (its top five bits, shifted into place): B, G, R
_CHANNEL_INDEX = tuple((np.arange(256, dtype=np.uint16) >> (8 - LATTICE_BITS)) << shift
                       for shift in (2 * LATTICE_BITS, LATTICE_BITS, 0))


def lattice_lab() -> np.ndarray:
    """Lab of the middle of every lattice cell, in table order (index b << 10 | g << 5 | r)."""
    levels = (np.arange(_LEVELS) * (256 // _LEVELS) + (128 // _LEVELS)) / 255.0
    blue, green, red = np.meshgrid(levels, levels, levels, indexing="ij")
    return srgb_to_lab(np.stack([red, green, blue], axis=-1).reshape(-1, 3)).astype(np.float32)


def label_table(classify: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """A lookup table for :func:`labels`: ``classify`` gets the Lab of every lattice colour
    (32,768 × 3) and returns their labels (any integer dtype)."""
    return np.asarray(classify(lattice_lab()))


def labels(bgr: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Each pixel's label from a :func:`label_table`, shape of the image without its channels."""
    blue, green, red = cv2.split(np.ascontiguousarray(bgr, dtype=np.uint8))
    index = cv2.add(cv2.add(cv2.LUT(blue, _CHANNEL_INDEX[0]), cv2.LUT(green, _CHANNEL_INDEX[1])),
                    cv2.LUT(red, _CHANNEL_INDEX[2]))
    return table[index]


# -- shrinking ------------------------------------------------------------------------------------
def shrink_by(image: np.ndarray, block: int) -> np.ndarray:
    """``image`` averaged over ``block`` × ``block`` squares (cut to a multiple of the block first,
    which OpenCV's area resize does much faster than any other factor)."""
    if block <= 1:
        return image
    # a side shorter than the block is averaged whole into one pixel (cut to nothing, it broke resize)
    height, width = max(image.shape[0] // block, 1), max(image.shape[1] // block, 1)
    return cv2.resize(image[:height * block, :width * block], (width, height), interpolation=cv2.INTER_AREA)


def shrink_to(image: np.ndarray, most_pixels: int) -> tuple[np.ndarray, int]:
    """``image`` averaged over whole square blocks so that it has at most ``most_pixels``; the
    block side (1: the image itself)."""
    pixels = image.shape[0] * image.shape[1]
    block = max(1, int(np.ceil((pixels / most_pixels) ** 0.5)))
    return shrink_by(image, block), block


def rgb_of_lab(lab: np.ndarray) -> np.ndarray:
    """sRGB (float, 0..255, clipped to the gamut) of Lab colours (..., 3): the inverse of
    :func:`lab_image`, for a colour measured in Lab that is to be mixed as light."""
    lab = np.asarray(lab, dtype=np.float32)
    rgb = cv2.cvtColor(lab.reshape(-1, 1, 3), cv2.COLOR_Lab2RGB).reshape(lab.shape)
    return np.clip(rgb, 0.0, 1.0) * 255.0


def components(mask: np.ndarray, connectivity: int = 8, algorithm: int | None = None
               ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a 0/1 (or bool) mask, safe on an empty mask
    (OpenCV crashes the process on one): (count, labels, stats, centroids), the background being
    label 0 as OpenCV gives it."""
    mask = np.ascontiguousarray(mask.view(np.uint8) if mask.dtype == np.bool_ else mask)
    if mask.ndim != 2 or mask.shape[0] == 0 or mask.shape[1] == 0:
        height, width = (mask.shape + (0, 0))[:2] if mask.ndim >= 1 else (0, 0)
        stats = np.array([[0, 0, width, height, 0]], np.int32)
        return 1, np.zeros((height, width), np.int32), stats, np.zeros((1, 2), np.float64)
    if algorithm is None:
        return cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    return cv2.connectedComponentsWithStatsWithAlgorithm(mask, connectivity, cv2.CV_32S, algorithm)
