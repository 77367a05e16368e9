"""The learned evaluation of HATETRIS wells (issue 28, spec 3.7 in miniature): a small network that
values a well by the lines still to come from it, beside the hand heuristic's terms.

Its inputs (:func:`advisors.hatetris.kernel.fill_features`) are the hand terms but the score, the
ten column heights and how full the rows from the stack's top down are; one hidden layer of tanh
units; a linear output in lines. The beam's cost of a well is then ``weights . terms`` less that
value, with the score's weight -1 (a line is a line, earned or to come) and the lookahead's chain
lines counting half as with the hand heuristic. The network is trained by
``benchmarks/hatetris_learned.py`` on wells of Kibitz's own beams, each labelled by how many lines a
small beam from it clears; the shipped one is ``assets/evaluations/hatetris.npz``.

A network file is an ``.npz`` archive: ``network`` (the packed float64 layout of
:func:`advisors.hatetris.kernel.network_value`), ``weights`` (the eight term weights), ``well``
(its width and depth) and ``facts`` (JSON text: how it was trained). Loading checks every part, so
a damaged file is a precise error before anything reaches a kernel.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
from importlib import resources
from pathlib import Path

import numpy as np

from advisors.hatetris import kernel
from advisors.hatetris.heuristic import EARLIER_TERM_COUNTS, TERM_NAMES, all_terms_weighed
from engines import limits
from engines.errors import KibitzInputError
from engines.files import write_bytes_atomic

#: The most hidden units a network file may have (bounds what a file can make us allocate).
MAX_UNITS = 256
#: The most bytes of a network file (a 10-wide network of MAX_UNITS units is about 50 KB).
MAX_FILE_BYTES = 4 * 1024 * 1024
SHIPPED = "hatetris.npz"
#: The term weights a trained network is saved with: only the score counts (-1 a line), so a
#: well's cost is minus its lines earned and minus the lines the network expects from it.
LEARNED_WEIGHTS = tuple(-1.0 if name == "score" else 0.0 for name in TERM_NAMES)


@dataclasses.dataclass(frozen=True, eq=False)
class Network:
    network: np.ndarray  # float64, the kernel's packed layout
    weights: tuple[float, ...]  # the terms' weights used beside it
    width: int
    depth: int
    facts: dict

    @property
    def inputs(self) -> int:
        return int(self.network[0])

    @property
    def units(self) -> int:
        return int(self.network[1])

    def check_well(self, width: int, depth: int) -> None:
        """Refuse a well of another size than the network was trained for."""
        if (width, depth) != (self.width, self.depth):
            raise KibitzInputError(f"the learned evaluation is for {self.width} x {self.depth} wells, "
                                   f"not {width} x {depth}; use the hand heuristic there")

    def value(self, well: tuple[int, ...], width: int = 10) -> float:
        """The network's value of ``well`` (lines still to come), as the beam computes it."""
        self.check_well(width, len(well))
        features = well_features(np.array([well], dtype=np.int64), width)
        return float(kernel.network_value(self.network, features[0]))

    def save(self, path: str | Path) -> None:
        """Write the network to ``path`` atomically."""
        buffer = io.BytesIO()
        np.savez(buffer, network=self.network, weights=np.array(self.weights, dtype=np.float64),
                 well=np.array([self.width, self.depth], dtype=np.int64),
                 facts=np.array(json.dumps(self.facts, sort_keys=True)))
        write_bytes_atomic(path, buffer.getvalue())


def pack(means: np.ndarray, scales: np.ndarray, hidden: np.ndarray, biases: np.ndarray, outputs: np.ndarray,
         output_bias: float) -> np.ndarray:
    """The kernel's packed layout of a network (``hidden``: inputs x units)."""
    inputs, units = hidden.shape
    packed = np.concatenate([[inputs, units], means, scales, hidden.ravel(), biases, outputs, [output_bias]])
    assert len(packed) == kernel.network_size(inputs, units)
    return np.ascontiguousarray(packed, dtype=np.float64)


def unpack(network: np.ndarray) -> tuple[np.ndarray, ...]:
    """(means, scales, hidden, biases, outputs, output bias) of a packed network."""
    inputs, units = int(network[0]), int(network[1])
    parts = np.split(network[kernel.NETWORK_HEADER:], np.cumsum([inputs, inputs, inputs * units, units, units]))
    means, scales, hidden, biases, outputs, bias = parts
    return means, scales, hidden.reshape(inputs, units), biases, outputs, float(bias[0])


def well_features(wells: np.ndarray, width: int) -> np.ndarray:
    """The network's inputs for each of ``wells`` (rows of int64 rows), before normalising."""
    depth = wells.shape[1]
    out = np.empty((len(wells), kernel.feature_count(width)), dtype=np.float64)
    kernel.features_of_wells(np.ascontiguousarray(wells, dtype=np.int64), width, depth, out)
    return out


def load(path: str | Path) -> Network:
    """The network saved in ``path``, every part checked (KibitzInputError naming the file)."""
    source = str(path)
    arrays = limits.load_npz(path, ("network", "weights", "well", "facts"), max_bytes=MAX_FILE_BYTES)
    well = limits.check_array(arrays, "well", source, dtype=np.int64, shape=(2,), low=1, high=64)
    width, depth = int(well[0]), int(well[1])
    weights = limits.check_array(arrays, "weights", source, dtype=np.float64, ndim=1, low=-1e9, high=1e9)
    if len(weights) not in (len(TERM_NAMES), *EARLIER_TERM_COUNTS):
        raise KibitzInputError(f"the array 'weights' has {len(weights)} weights, not {len(TERM_NAMES)} "
                               f"({', '.join(TERM_NAMES)})", source=source)
    network = limits.check_array(arrays, "network", source, dtype=np.float64, ndim=1, low=-1e9, high=1e9)
    inputs = kernel.feature_count(width)
    if len(network) < kernel.NETWORK_HEADER or network[0] != inputs:
        raise KibitzInputError(f"the network must have {inputs} inputs for a {width}-wide well", source=source)
    units = network[1]
    if units != int(units) or not 1 <= units <= MAX_UNITS:
        raise KibitzInputError(f"the network's hidden units must be a whole number from 1 to {MAX_UNITS}, "
                               f"not {units}", source=source)
    size = kernel.network_size(inputs, int(units))
    if len(network) != size:
        raise KibitzInputError(f"the network has {len(network)} numbers; {inputs} inputs and {int(units)} units "
                               f"take {size}", source=source)
    scales = unpack(network)[1]
    if (scales <= 0).any():
        raise KibitzInputError("an input's scale is not above 0", source=source)
    facts_array = arrays["facts"]
    if facts_array.dtype.kind != "U" or facts_array.ndim != 0:
        raise KibitzInputError("the array 'facts' must be one text", source=source)
    facts = limits.load_json(str(facts_array), source)
    if not isinstance(facts, dict):
        raise KibitzInputError("the facts must be a JSON object", source=source)
    return Network(np.ascontiguousarray(network), all_terms_weighed(tuple(float(w) for w in weights)), width, depth,
                   facts)


@functools.cache
def shipped() -> Network:
    """The network shipped with Kibitz (assets/evaluations/hatetris.npz)."""
    with resources.as_file(resources.files("assets.evaluations") / SHIPPED) as path:
        return load(path)
