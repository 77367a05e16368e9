"""The edge where outside data comes in: bounded integers, JSON with bounded nesting and no
non-finite numbers, ``.npz`` archives read with pickling off and their arrays checked, and sizes
weighed before anything is allocated. Every refusal is a located :class:`KibitzInputError`.

Parsers and loaders of files, options and checkpoints call these once, at the edge, so nothing
unchecked reaches a kernel.
"""

from __future__ import annotations

import json
import os
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from engines.errors import KibitzInputError, Location, NotationError

#: How deeply JSON may nest (move trees nest by branch, not by move: real files stay under 10).
MAX_JSON_DEPTH = 64
#: The largest file any loader reads whole (checkpoints of long searches stay well under it).
MAX_FILE_BYTES = 512 * 1024 * 1024
#: What one request may allocate before it is refused (searches, beams, images).
MAX_MEMORY_BYTES = 4 * 1024 ** 3
#: A long search sized by the player (a HATETRIS beam's width) may hold this share of the
#: machine's memory where that is more than MAX_MEMORY_BYTES: a 250,000-wide beam's history and
#: next layer pass 4 GB at about its 170th piece.
SEARCH_MEMORY_SHARE = 0.75
#: The largest integer any field takes (counters, scores, seeds): 64-bit kernels hold it.
INT64_MAX = 2 ** 63 - 1
#: The largest score a position may carry: exact as a JavaScript number (the real pages' scores) and far
#: enough below 64 bits that no game's gains can overflow a kernel's int64 while it is played on.
MAX_SCORE = 2 ** 53
#: The range of a kernel's int32 fields (coordinates, counters kept in 32-bit arrays).
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1


def _describe_bounds(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low:,} to {high:,}"
    if low is not None:
        return f"at least {low:,}"
    return f"at most {high:,}"


def parse_int(text: str, field: str, low: int | None = None, high: int | None = None,
              location: Location | None = None, **where: object) -> int:
    """``text`` as a decimal integer (ASCII digits, an optional leading minus) within
    [``low``, ``high``]; otherwise a NotationError naming ``field``, the text and the bounds."""
    body = text[1:] if text.startswith("-") else text
    if not body or not body.isascii() or not body.isdigit() or len(body) > 30:
        raise NotationError(f"{field} must be a whole number, not {text!r}", location, **where)
    return check_int(int(text), field, low, high, location, **where)


def check_int(value: Any, field: str, low: int | None = None, high: int | None = None,
              location: Location | None = None, **where: object) -> int:
    """``value`` itself when it is an int (not a bool, not a float) within [``low``, ``high``]
    (and within 64 bits); otherwise a NotationError naming ``field`` and why."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise NotationError(f"{field} must be a whole number, not {_shown(value)}", location, **where)
    value = int(value)
    low = -INT64_MAX - 1 if low is None else low
    high = INT64_MAX if high is None else high
    if not low <= value <= high:
        raise NotationError(f"{field} is {_shown(value)}; it must be {_describe_bounds(low, high)}", location, **where)
    return value


def _shown(value: Any) -> str:
    return shown(value)


def shown(value: Any, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters: a bad value named in a message, however large."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


# -- JSON ---------------------------------------------------------------------------------------------
def _line_column(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _check_depth(text: str, max_depth: int, source: str | None) -> None:
    depth, in_string, escaped = 0, False, False
    for index, character in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > max_depth:
                line, column = _line_column(text, index)
                raise NotationError(f"JSON nested deeper than {max_depth} levels", source=source, line=line,
                                    column=column)
        elif character in "]}":
            depth -= 1


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not np.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def load_json(text: str, source: str | os.PathLike[str] | None = None, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text, refusing (NotationError with the line and column) what is not JSON,
    nesting deeper than ``max_depth``, and the non-standard NaN / Infinity."""
    where = None if source is None else str(source)
    _check_depth(text, max_depth, where)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        raise NotationError(f"not valid JSON ({error.msg})", source=where, line=error.lineno,
                            column=error.colno) from None
    except (ValueError, RecursionError) as error:
        # a refused number (NaN, Infinity, 1e999): placed at its first appearance in the text
        word = str(error).split(" ", 1)[0]
        found = text.find(word) if word else -1
        place = dict(zip(("line", "column"), _line_column(text, found))) if found >= 0 else {}
        raise NotationError(f"not valid JSON ({error})", source=where, **place) from None


def json_of_array(array: np.ndarray, source: str | None, what: str) -> Any:
    """The JSON text an ``.npz`` archive keeps as a byte array (a checkpoint's description),
    parsed; ``what`` names the file's kind in the refusal ("not a <what> (...)")."""
    if array.dtype != np.uint8 or array.ndim != 1:
        raise KibitzInputError(f"not a {what} (its description is not text)", source=source)
    try:
        text = array.tobytes().decode("utf-8")
    except UnicodeDecodeError:
        raise KibitzInputError("its description is damaged (not UTF-8)", source=source) from None
    return load_json(text, source)


def read_json(path: str | os.PathLike[str], max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A JSON file, read with :func:`read_text_file`'s checks and parsed by :func:`load_json`."""
    return load_json(read_text_file(path), path, max_depth)


def require(mapping: Any, field: str, kinds: type | tuple[type, ...], source: str | None = None) -> Any:
    """``mapping[field]`` when ``mapping`` is a JSON object holding it with one of ``kinds``;
    otherwise a NotationError naming the field and what was found."""
    if not isinstance(mapping, Mapping):
        raise NotationError(f"expected a JSON object holding {field!r}, found {type(mapping).__name__}", source=source)
    if field not in mapping:
        raise NotationError(f"the field {field!r} is missing", source=source)
    value = mapping[field]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise NotationError(f"the field {field!r} is {_shown(value)}, not a {_kind_names(kinds)}", source=source)
    if not isinstance(value, kinds):
        raise NotationError(f"the field {field!r} is {_shown(value)}, not a {_kind_names(kinds)}", source=source)
    return value


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    names = {int: "whole number", float: "number", str: "text", list: "list", dict: "object", bool: "true/false"}
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    return " or ".join(names.get(kind, kind.__name__) for kind in kinds)


# -- files ---------------------------------------------------------------------------------------------
def check_path(path: str | os.PathLike[str]) -> Path:
    """``path`` when it names an existing regular file; otherwise a KibitzInputError saying
    "no such file" or "is a folder"."""
    target = Path(path)
    if target.is_dir():
        raise KibitzInputError("is a folder, not a file", source=str(path))
    if not target.exists():
        raise KibitzInputError("no such file", source=str(path))
    return target


def read_bytes_file(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """A file's bytes, after checking it exists, is a file and is not larger than ``max_bytes``."""
    target = check_path(path)
    try:
        size = target.stat().st_size
        if size > max_bytes:
            raise KibitzInputError(f"the file is {size:,} bytes; at most {max_bytes:,} are read", source=str(path))
        return target.read_bytes()
    except OSError as error:
        raise KibitzInputError(f"cannot be read ({error.strerror or error})", source=str(path)) from None


def read_text_file(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 text file (a leading byte-order mark dropped), with :func:`read_bytes_file`'s checks."""
    data = read_bytes_file(path, max_bytes)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise NotationError(f"not UTF-8 text (byte {error.start} is 0x{data[error.start]:02x})",
                            source=str(path)) from None


# -- npz archives -----------------------------------------------------------------------------------
def load_npz(path: str | os.PathLike[str], expected: Iterable[str] = (), max_bytes: int = MAX_FILE_BYTES
             ) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` archive, read whole with pickling off (an archive holding
    Python objects is refused, never unpickled). ``expected``: the names it must hold. A damaged
    archive (truncated, bad CRC, not a zip) is a KibitzInputError naming the file."""
    source = str(path)
    check_path(path)
    try:
        if Path(path).stat().st_size > max_bytes:
            raise KibitzInputError(f"the archive is over {max_bytes:,} bytes", source=source)
        with open(path, "rb") as stream:
            if stream.read(4) != b"PK\x03\x04":
                raise KibitzInputError("not an .npz archive (damaged, or another kind of file)", source=source)
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except KibitzInputError:
        raise
    except ValueError as error:
        if "pickle" in str(error).lower():
            raise KibitzInputError("holds Python objects, which are never loaded (damaged or not Kibitz's)",
                                   source=source) from None
        raise KibitzInputError(f"damaged archive ({_first_line(error)})", source=source) from None
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error, KeyError, RuntimeError, MemoryError) as error:
        raise KibitzInputError(f"damaged archive ({type(error).__name__}: {_first_line(error)})", source=source) from None
    missing = [name for name in expected if name not in arrays]
    if missing:
        raise KibitzInputError(f"the archive lacks {', '.join(missing)}", source=source)
    return arrays


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:120] if text else type(error).__name__


def check_array(arrays: Mapping[str, np.ndarray], name: str, source: str | None = None, *,
                dtype: Any = None, ndim: int | None = None, shape: tuple[int | None, ...] | None = None,
                low: int | float | None = None, high: int | float | None = None) -> np.ndarray:
    """``arrays[name]`` after checking its dtype (kind and size), number of dimensions, shape
    (None: any length on that axis) and that every value lies in [``low``, ``high``]."""
    if name not in arrays:
        raise KibitzInputError(f"the array {name!r} is missing", source=source)
    array = arrays[name]
    if dtype is not None and array.dtype != np.dtype(dtype):
        raise KibitzInputError(f"the array {name!r} is {array.dtype}, not {np.dtype(dtype)}", source=source)
    if ndim is not None and array.ndim != ndim:
        raise KibitzInputError(f"the array {name!r} has {array.ndim} dimensions, not {ndim}", source=source)
    if shape is not None:
        if array.ndim != len(shape) or any(want is not None and have != want for have, want in zip(array.shape, shape)):
            raise KibitzInputError(f"the array {name!r} has shape {array.shape}, not {shape}", source=source)
    if array.size and (low is not None or high is not None):
        if array.dtype.kind == "f" and not np.isfinite(array).all():
            raise KibitzInputError(f"the array {name!r} holds a value that is not finite", source=source)
        if low is not None and array.min() < low:
            raise KibitzInputError(f"the array {name!r} holds {array.min()}, below {low}", source=source)
        if high is not None and array.max() > high:
            raise KibitzInputError(f"the array {name!r} holds {array.max()}, above {high}", source=source)
    return array


# -- sizes --------------------------------------------------------------------------------------------
def check_memory(what: str, estimate_bytes: float, limit_bytes: int = MAX_MEMORY_BYTES, field: str | None = None) -> None:
    """Refuse, before allocating, a request whose estimate is over ``limit_bytes``: a
    KibitzInputError with both figures (and the option or field to lower)."""
    if estimate_bytes > limit_bytes:
        lower = f"; lower {field}" if field else ""
        raise KibitzInputError(f"{what} would take about {shown_bytes(estimate_bytes)}, over the limit of "
                               f"{shown_bytes(limit_bytes)}{lower}")


def machine_memory_bytes() -> int | None:
    """This machine's physical memory; None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def search_memory_limit() -> int:
    """What a long search sized by the player may hold: SEARCH_MEMORY_SHARE of this machine's
    memory, or MAX_MEMORY_BYTES where that is more (or the machine's memory is unknown)."""
    machine = machine_memory_bytes()
    return max(MAX_MEMORY_BYTES, int(SEARCH_MEMORY_SHARE * machine)) if machine else MAX_MEMORY_BYTES


def shown_bytes(count: float) -> str:
    """A byte count as people read it: 2.3 GB, 512.0 KB, 900 bytes."""
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if count >= size:
            return f"{count / size:,.1f} {unit}"
    return f"{int(count)} bytes"


# -- checksums ------------------------------------------------------------------------------------
def arrays_checksum(arrays: Mapping[str, np.ndarray]) -> str:
    """A SHA-256 (hex) of named arrays: names, dtypes, shapes and bytes, in name order. Stored
    beside a checkpoint's arrays, it tells a damaged archive from a sound one before any value is
    trusted."""
    import hashlib

    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}\0{array.dtype.str}\0{array.shape}\0".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()
