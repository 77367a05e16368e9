"""Reading and writing files: precise errors on read, atomic writes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from engines.errors import NotationError


def read_text(path: str | os.PathLike[str]) -> str:
    """A text file's contents (UTF-8, a leading byte-order mark dropped). Raises OSError when
    the file cannot be opened and NotationError naming the byte when it is not UTF-8 text."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotationError(
            f"not UTF-8 text (byte {error.start} is 0x{data[error.start]:02x}); is this a sequence file?",
            source=str(path),
        ) from None
    return text.removeprefix("\ufeff")


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) so that ``path`` holds either its old contents or all of the new
    ones, never half a file."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` so that ``path`` holds either its old contents or all of the new ones,
    never half a file: write a temporary file beside it, flush it to disk, then rename."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
