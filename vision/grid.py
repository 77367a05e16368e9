"""The readers' one grid finder: the period of a profile across an image (how much each column or
row looks like a gap between cells), the lines of a regular grid through the gaps found, and the
evenly spaced lines best supported by detected positions.

A board is found from its structure, whatever its palette: a reader makes a profile of what
separates its cells (a colour change, an edge, a lighter gap) and asks this module where the
period and the lines are. Which profile, and how many cells a board has, is the game's own.
"""

from __future__ import annotations

import dataclasses

import numpy as np


def autocorrelation(profile: np.ndarray) -> np.ndarray:
    """The profile's normalised autocorrelation (each lag averaged over its overlap)."""
    centred = np.asarray(profile, np.float64) - float(np.mean(profile))
    n = len(centred)
    spectrum = np.fft.rfft(centred, 2 * n)
    correlation = np.fft.irfft(spectrum * np.conj(spectrum))[:n] / np.arange(n, 0, -1)
    return correlation / correlation[0] if correlation[0] > 0 else correlation * 0


def period(profile: np.ndarray, shortest: int, multiples: int = 3, enough: float = 0.25,
           longest_share: float = 1 / 2.4) -> int | None:
    """The profile's period in whole pixels: the shortest autocorrelation peak whose first few
    ``multiples`` are peaks too (a texture inside a cell may repeat at the pitch, never at half of
    it; the board may fill only part of the image, so only as many multiples as a small board
    spans), at least ``shortest`` and at most ``longest_share`` of the profile. None when nothing
    repeats at least ``enough`` (mean correlation of the multiples)."""
    n = len(profile)
    correlation = autocorrelation(profile)
    scores = {}
    for lag in range(max(shortest, 1), int(n * longest_share) + 1):
        if lag + 1 >= n or correlation[lag] < correlation[lag - 1] or correlation[lag] < correlation[lag + 1]:
            continue
        peaks = []
        for k in range(1, min(multiples, int(0.75 * n / lag)) + 1):
            low, high = int(k * (lag - 0.5)) - 1, int(np.ceil(k * (lag + 0.5))) + 1  # the k-th peak is there
            peaks.append(correlation[low:min(high, n - 1) + 1].max())
        if peaks:
            scores[lag] = float(np.mean(peaks))
    if not scores or max(scores.values()) < enough:
        return None
    best = max(scores.values())
    return min(lag for lag, score in scores.items() if score >= 0.8 * best)


def line_fit(points: dict[int, float]) -> tuple[float, float]:
    """Least-squares slope and intercept of points {k: position} (plain arithmetic: a LAPACK call
    per gap would cost more than the fit)."""
    k = np.fromiter(points.keys(), float)
    x = np.fromiter(points.values(), float)
    spread = ((k - k.mean()) ** 2).sum()
    slope = float(((k - k.mean()) * (x - x.mean())).sum() / spread) if spread else 0.0
    return slope, float(x.mean() - slope * k.mean())


def regular_lines(profile: np.ndarray, pitch: int, strong_share: float = 0.6) -> tuple[float, float]:
    """The lines of a regular grid of about ``pitch`` through a gap profile: from the strongest
    gap, step by the pitch to the strongest gap near each next place (the pitch re-fitted as they
    come, so a whole-pixel period does not drift), then a straight line through them. A gap counts
    where the profile reaches ``strong_share`` of its maximum. Returns (the first line, in
    [0, pitch), the pitch)."""
    n = len(profile)
    strong = strong_share * float(np.max(profile))

    def gap_near(position: float, step: float) -> float | None:
        low, high = max(1, int(position - 0.2 * step)), min(n - 1, int(position + 0.2 * step) + 1)
        if high - low < 2:
            return None
        top = low + int(np.argmax(profile[low:high]))
        if profile[top] < strong:
            return None
        side = profile[top - 1:top + 2]
        curvature = side[0] - 2 * side[1] + side[2]
        return top + (0.5 * (side[0] - side[2]) / curvature if curvature < 0 else 0.0)

    anchor = float(np.argmax(profile))
    found = {0: anchor}
    step = float(pitch)
    for direction in (1, -1):
        k = 0
        while True:
            k += direction
            predicted = anchor + k * step
            if not -0.5 * step < predicted < n + 0.5 * step:
                break
            position = gap_near(predicted, step)
            if position is None:
                continue
            found[k] = position
            fitted = line_fit(found)[0]
            if 0.9 * pitch <= fitted <= 1.1 * pitch:
                step = fitted
    if len(found) >= 2:
        fitted, intercept = line_fit(found)
        if fitted > 0:  # gaps that fit no positive step (all at one place) keep the period
            step, anchor = fitted, intercept
    return anchor % step, step


def run_centres(counts: np.ndarray, minimum: float) -> np.ndarray:
    """Centres of the runs of indices whose count reaches ``minimum`` (a line a few pixels thick is
    one position)."""
    strong = np.asarray(counts) >= minimum
    if not strong.any():
        return np.zeros(0)
    edges = np.diff(np.concatenate([[0], strong.astype(np.int8), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    return (starts + ends - 1) / 2.0


def even_lines(positions: np.ndarray, count: int, least_step: float,
               tolerance: float = 0.08) -> tuple[float, float, int] | None:
    """The ``count`` evenly spaced lines best supported by ``positions``, at least ``least_step``
    apart: (first, step, hits), a hit being a position within ``tolerance`` of a step (at least
    one pixel) of a line. None without two positions far enough apart."""
    best: tuple[int, float, float] | None = None
    total = len(positions)
    for i in range(total):
        for j in range(total - 1, i, -1):
            step = (positions[j] - positions[i]) / (count - 1)
            if step < least_step:
                break
            expected = positions[i] + step * np.arange(count)
            nearest = np.abs(positions[None, :] - expected[:, None]).min(axis=1)
            hits = int((nearest <= max(1.0, tolerance * step)).sum())
            if best is None or (hits, step) > (best[0], best[1]):
                best = (hits, step, positions[i])
    if best is None:
        return None
    hits, step, first = best
    return first, step, hits


# -- a grid of cells between bands ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class BandedGrid:
    """``cells`` cells along one axis of a board ``length`` pixels long, with bands of the board's
    colour ``gap`` wide at the start, between the cells and at the end (2048's board)."""

    length: float
    gap: float
    contrast: float  # mean board colour in the bands minus between them


def banded_grid(profile: np.ndarray, cells: int) -> BandedGrid | None:
    """The banded grid of ``cells`` cells that best explains ``profile`` (the share of
    board-coloured pixels across each column, or row, of a candidate board), or None if the
    profile does not look like one: the bands must be mostly board colour, the cells mostly not,
    and no band as wide as half a gap may cross a cell's middle (a finer grid, a table)."""
    length = len(profile)
    if length < 6 * cells:
        return None
    bands = cells + 1
    cumulative = np.concatenate([[0.0], np.cumsum(profile, dtype=np.float64)])
    positions = np.arange(length + 1, dtype=np.float64)
    gaps = np.arange(max(1.0, 0.008 * length), 0.16 * length + 1, 0.5 if length < 200 else 1.0)
    starts = np.arange(bands)[None, :] * ((length - gaps) / cells)[:, None]
    inside = (np.interp(starts + gaps[:, None], positions, cumulative)
              - np.interp(starts, positions, cumulative)).sum(axis=1)
    band_means = inside / (bands * gaps)
    between_means = (cumulative[-1] - inside) / (length - bands * gaps)
    contrasts = band_means - between_means
    best = int(np.argmax(contrasts))
    contrast, gap = float(contrasts[best]), float(gaps[best])
    band_mean, between_mean = band_means[best], between_means[best]
    if band_mean < 0.55 or between_mean > 0.4 or contrast < 0.35:
        return None
    # thinner lines across a cell are edges blended into the board's colour
    pitch = (length - gap) / cells
    window = max(1, int(gap / 2))
    smoothed = np.convolve(profile, np.full(window, 1.0 / window), mode="same")
    for cell in range(cells):
        start = cell * pitch + gap
        middle = smoothed[int(start + 0.15 * (pitch - gap)):int(np.ceil(start + 0.85 * (pitch - gap)))]
        if middle.size and middle.max() > max(0.5, between_mean + 0.3):
            return None
    return BandedGrid(float(length), float(gap), float(contrast))
