"""HATETRIS replay codes: read and write the four formats the official page knows (spec 2).

A replay is the string of every key pressed, one letter per key: ``L`` (left), ``R`` (right),
``D`` (down), ``U`` (rotate). The official page reads four formats and tells them apart in a fixed
order (spec 2.2), which :func:`decode` and :func:`detect` follow exactly:

1. trim leading and trailing whitespace;
2. only ``U L D R``            -> ``"raw"``  (one letter per key);
3. only ``0-9 A-F #`` and space -> ``"hex"``  (the 2010 format, two keys per digit);
4. every character in the Base65536 repertoire -> ``"base65536"`` (2015-2017);
5. otherwise                   -> ``"base2048"`` (what the page writes today).

Decoding is faithful, pad keys included: hex may end with an extra ``D`` and the Base65536 and
Base2048 forms with an extra ``L`` (spec 2.4), as the page itself replays them. Bad input raises
:class:`engines.errors.NotationError` naming the 1-based character position (``column``, counted in
the text as given, before trimming) and the offending character (``token``).

The order is strict, as on the page: a Base2048 string made only of hex digits (``encode("L")`` is
``"F"``) is read as hex, and lowercase ``lrdu`` is tried as Base2048, not as raw keys.

The encoders write what the page would: hex pads an odd key count with ``D`` and groups 4 digits
per space; Base65536 and Base2048 carry the RLE nybble payload (runs of at most 4 keys, nybble =
key << 2 | run - 1 with L R D U = 0 1 2 3, high half first, an odd run count padded with 0000).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from engines.errors import Location, NotationError

FORMATS = ("base2048", "base65536", "hex", "raw")

KEYS = "LRDU"  # index = the 2-bit code of the key in hex digits and RLE nybbles

# What JavaScript's String.prototype.trim removes (Python's str.strip() differs slightly).
_TRIMMED_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

_RAW_CHARACTERS = frozenset(KEYS)
_HEX_CHARACTERS = frozenset("0123456789ABCDEF# ")
_HEX_SEPARATORS = frozenset("# ")
_HEX_GROUP = 4  # digits per space-separated group in what the page writes

_RLE_LONGEST_RUN = 4

# Base65536 (qntm/base65536 v5): 256 blocks of 256 code points; a character's index is
# 256 * (block number in this order) + (its code point's low byte).
BASE65536_BLOCK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4CFF), (0x4E00, 0x9EFF), (0xA100, 0xA3FF), (0xA500, 0xA5FF), (0x10600, 0x106FF),
    (0x12000, 0x122FF), (0x13000, 0x133FF), (0x14400, 0x145FF), (0x16800, 0x169FF),
    (0x20000, 0x285FF),
)
BASE65536_FINAL_BYTE_FIRST = 0x1500  # U+1500 + b writes a trailing single byte b

# Base2048 (qntm/base2048 v3) main alphabet: 221 inclusive code point ranges, z = 0 ... 2047 in
# this order. Generated from data/hatetris/base2048_repertoire.tsv (the authority); a test checks
# it still equals that file.
BASE2048_RANGES: tuple[tuple[int, int], ...] = (
    (0x0038, 0x0039), (0x0041, 0x005A), (0x0061, 0x007A), (0x00C6, 0x00C6), (0x00D0, 0x00D0),
    (0x00D8, 0x00D8), (0x00DE, 0x00DF), (0x00E6, 0x00E6), (0x00F0, 0x00F0), (0x00F8, 0x00F8),
    (0x00FE, 0x00FE), (0x0110, 0x0111), (0x0126, 0x0127), (0x0131, 0x0131), (0x0138, 0x0138),
    (0x0141, 0x0142), (0x014A, 0x014B), (0x0152, 0x0153), (0x0166, 0x0167), (0x0180, 0x019F),
    (0x01A2, 0x01AE), (0x01B1, 0x01C3), (0x01DD, 0x01DD), (0x01E4, 0x01E5), (0x01F6, 0x01F7),
    (0x021C, 0x021D), (0x0220, 0x0225), (0x0234, 0x02AF), (0x0370, 0x0373), (0x0376, 0x0377),
    (0x037B, 0x037D), (0x037F, 0x037F), (0x0391, 0x03A1), (0x03A3, 0x03A9), (0x03B1, 0x03C9),
    (0x03CF, 0x03CF), (0x03D7, 0x03EF), (0x03F3, 0x03F3), (0x03F7, 0x03F8), (0x03FA, 0x03FF),
    (0x0402, 0x0402), (0x0404, 0x0406), (0x0408, 0x040B), (0x040F, 0x0418), (0x041A, 0x0438),
    (0x043A, 0x044F), (0x0452, 0x0452), (0x0454, 0x0456), (0x0458, 0x045B), (0x045F, 0x0475),
    (0x0478, 0x0481), (0x048A, 0x04C0), (0x04C3, 0x04CF), (0x04D4, 0x04D5), (0x04D8, 0x04D9),
    (0x04E0, 0x04E1), (0x04E8, 0x04E9), (0x04F6, 0x04F7), (0x04FA, 0x052F), (0x0531, 0x0556),
    (0x0561, 0x0586), (0x05D0, 0x05EA), (0x05F0, 0x05F2), (0x0620, 0x0621), (0x0627, 0x063F),
    (0x0641, 0x064A), (0x0660, 0x0669), (0x066E, 0x066F), (0x0671, 0x0674), (0x0679, 0x06BF),
    (0x06C1, 0x06C1), (0x06C3, 0x06D2), (0x06D5, 0x06D5), (0x06EE, 0x06FC), (0x06FF, 0x06FF),
    (0x0710, 0x0710), (0x0712, 0x072F), (0x074D, 0x07A5), (0x07B1, 0x07B1), (0x07C0, 0x07EA),
    (0x0800, 0x0815), (0x0840, 0x0858), (0x0860, 0x086A), (0x08A0, 0x08B4), (0x08B6, 0x08BD),
    (0x0904, 0x0928), (0x092A, 0x0930), (0x0932, 0x0933), (0x0935, 0x0939), (0x093D, 0x093D),
    (0x0950, 0x0950), (0x0960, 0x0961), (0x0966, 0x096F), (0x0972, 0x0980), (0x0985, 0x098C),
    (0x098F, 0x0990), (0x0993, 0x09A8), (0x09AA, 0x09B0), (0x09B2, 0x09B2), (0x09B6, 0x09B9),
    (0x09BD, 0x09BD), (0x09CE, 0x09CE), (0x09E0, 0x09E1), (0x09E6, 0x09F1), (0x09F4, 0x09F9),
    (0x09FC, 0x09FC), (0x0A05, 0x0A0A), (0x0A0F, 0x0A10), (0x0A13, 0x0A28), (0x0A2A, 0x0A30),
    (0x0A32, 0x0A32), (0x0A35, 0x0A35), (0x0A38, 0x0A39), (0x0A5C, 0x0A5C), (0x0A66, 0x0A6F),
    (0x0A72, 0x0A74), (0x0A85, 0x0A8D), (0x0A8F, 0x0A91), (0x0A93, 0x0AA8), (0x0AAA, 0x0AB0),
    (0x0AB2, 0x0AB3), (0x0AB5, 0x0AB9), (0x0ABD, 0x0ABD), (0x0AD0, 0x0AD0), (0x0AE0, 0x0AE1),
    (0x0AE6, 0x0AEF), (0x0AF9, 0x0AF9), (0x0B05, 0x0B0C), (0x0B0F, 0x0B10), (0x0B13, 0x0B28),
    (0x0B2A, 0x0B30), (0x0B32, 0x0B33), (0x0B35, 0x0B39), (0x0B3D, 0x0B3D), (0x0B5F, 0x0B61),
    (0x0B66, 0x0B6F), (0x0B71, 0x0B77), (0x0B83, 0x0B83), (0x0B85, 0x0B8A), (0x0B8E, 0x0B90),
    (0x0B92, 0x0B93), (0x0B95, 0x0B95), (0x0B99, 0x0B9A), (0x0B9C, 0x0B9C), (0x0B9E, 0x0B9F),
    (0x0BA3, 0x0BA4), (0x0BA8, 0x0BAA), (0x0BAE, 0x0BB9), (0x0BD0, 0x0BD0), (0x0BE6, 0x0BF2),
    (0x0C05, 0x0C0C), (0x0C0E, 0x0C10), (0x0C12, 0x0C28), (0x0C2A, 0x0C39), (0x0C3D, 0x0C3D),
    (0x0C58, 0x0C5A), (0x0C60, 0x0C61), (0x0C66, 0x0C6F), (0x0C78, 0x0C7E), (0x0C80, 0x0C80),
    (0x0C85, 0x0C8C), (0x0C8E, 0x0C90), (0x0C92, 0x0CA8), (0x0CAA, 0x0CB3), (0x0CB5, 0x0CB9),
    (0x0CBD, 0x0CBD), (0x0CDE, 0x0CDE), (0x0CE0, 0x0CE1), (0x0CE6, 0x0CEF), (0x0CF1, 0x0CF2),
    (0x0D05, 0x0D0C), (0x0D0E, 0x0D10), (0x0D12, 0x0D3A), (0x0D3D, 0x0D3D), (0x0D4E, 0x0D4E),
    (0x0D54, 0x0D56), (0x0D58, 0x0D61), (0x0D66, 0x0D78), (0x0D7A, 0x0D7F), (0x0D85, 0x0D96),
    (0x0D9A, 0x0DB1), (0x0DB3, 0x0DBB), (0x0DBD, 0x0DBD), (0x0DC0, 0x0DC6), (0x0DE6, 0x0DEF),
    (0x0E01, 0x0E30), (0x0E32, 0x0E32), (0x0E40, 0x0E45), (0x0E50, 0x0E59), (0x0E81, 0x0E82),
    (0x0E84, 0x0E84), (0x0E87, 0x0E88), (0x0E8A, 0x0E8A), (0x0E8D, 0x0E8D), (0x0E94, 0x0E97),
    (0x0E99, 0x0E9F), (0x0EA1, 0x0EA3), (0x0EA5, 0x0EA5), (0x0EA7, 0x0EA7), (0x0EAA, 0x0EAB),
    (0x0EAD, 0x0EB0), (0x0EB2, 0x0EB2), (0x0EBD, 0x0EBD), (0x0EC0, 0x0EC4), (0x0ED0, 0x0ED9),
    (0x0EDE, 0x0EDF), (0x0F00, 0x0F00), (0x0F20, 0x0F33), (0x0F40, 0x0F42), (0x0F44, 0x0F47),
    (0x0F49, 0x0F4C), (0x0F4E, 0x0F51), (0x0F53, 0x0F56), (0x0F58, 0x0F5B), (0x0F5D, 0x0F68),
    (0x0F6A, 0x0F6C), (0x0F88, 0x0F8C), (0x1000, 0x1025), (0x1027, 0x102A), (0x103F, 0x1049),
    (0x1050, 0x1055),
)
BASE2048_TAIL_FIRST = 0x30  # tail alphabet '0'...'7' carries 3 bits, last character only
_BASE2048_BITS = 11
_BASE2048_TAIL_BITS = 3


# -- reading --------------------------------------------------------------------------------------
def detect(text: str, source: str | None = None) -> str:
    """The format the official page would read ``text`` as: one of :data:`FORMATS`."""
    body, _ = _trim(text, source)
    return _detect_trimmed(body)


def decode(text: str, source: str | None = None) -> str:
    """The keys of a replay in any of the four formats, told apart as the official page does.

    Pad keys are kept (see the module docstring). Empty input is an error, not an empty replay.
    ``source`` (a file name, say) is only used to locate errors.
    """
    body, offset = _trim(text, source)
    format_name = _detect_trimmed(body)
    try:
        return _DECODERS[format_name](body, offset, source)
    except NotationError as error:
        hint = _misreading_hint(body) if format_name == "base2048" else ""
        if not hint:
            raise
        raise NotationError(error.reason + hint, error.location) from None


def decode_raw(text: str, source: str | None = None) -> str:
    """The keys of a raw replay: the letters ``L R D U`` themselves (uppercase only)."""
    return _decode_raw(*_trim(text, source), source)


def decode_hex(text: str, source: str | None = None) -> str:
    """The keys of a hex replay: each digit 4a+b is two keys a, b; spaces and ``#`` are ignored."""
    return _decode_hex(*_trim(text, source), source)


def decode_base65536(text: str, source: str | None = None) -> str:
    """The keys of a Base65536 replay (RLE nybbles, 16 bits per character)."""
    return _decode_base65536(*_trim(text, source), source)


def decode_base2048(text: str, source: str | None = None) -> str:
    """The keys of a Base2048 replay (RLE nybbles, 11 bits per character, big-endian)."""
    return _decode_base2048(*_trim(text, source), source)


def _trim(text: str, source: str | None) -> tuple[str, int]:
    """``text`` without surrounding whitespace, and how many characters were cut from its front."""
    body = text.strip(_TRIMMED_WHITESPACE)
    if not body:
        raise NotationError("the replay is empty (nothing but whitespace)", Location(source=source))
    return body, len(text) - len(text.lstrip(_TRIMMED_WHITESPACE))


def _detect_trimmed(body: str) -> str:
    characters = set(body)
    if characters <= _RAW_CHARACTERS:
        return "raw"
    if characters <= _HEX_CHARACTERS:
        return "hex"
    if all(_in_base65536_repertoire(character) for character in characters):
        return "base65536"
    return "base2048"


def _decode_raw(body: str, offset: int, source: str | None) -> str:
    for index, character in enumerate(body):
        if character not in _RAW_CHARACTERS:
            case_hint = " (raw keys must be uppercase)" if character.upper() in KEYS else ""
            raise _character_error(
                f"{_nth(body, index, offset)} is not a raw key L, R, D or U{case_hint}",
                body, index, offset, source,
            )
    return body


def _decode_hex(body: str, offset: int, source: str | None) -> str:
    pairs = _hex_digit_keys()
    keys = []
    for index, character in enumerate(body):
        if character in _HEX_SEPARATORS:
            continue
        pair = pairs.get(character)
        if pair is None:
            raise _character_error(
                f"hex replay has {_nth(body, index, offset)}, which is not an uppercase hex digit, "
                "a space or '#'",
                body, index, offset, source,
            )
        keys.append(pair)
    if not keys:
        raise NotationError("hex replay has no digits", Location(source=source))
    return "".join(keys)


def _decode_base65536(body: str, offset: int, source: str | None) -> str:
    block_numbers = _base65536_block_numbers()
    data = bytearray()
    last = len(body) - 1
    for index, character in enumerate(body):
        code_point = ord(character)
        block_number = block_numbers.get(code_point >> 8)
        if block_number is not None:
            data += bytes((code_point & 0xFF, block_number))
        elif _is_base65536_final_byte(code_point):
            if index != last:
                raise _character_error(
                    f"the Base65536 single-byte character {_describe(character)} may only be the "
                    f"last character, but it is character {offset + index + 1}",
                    body, index, offset, source,
                )
            data.append(code_point - BASE65536_FINAL_BYTE_FIRST)
        else:
            raise _character_error(
                f"{_nth(body, index, offset)} is not in the Base65536 repertoire",
                body, index, offset, source,
            )
    return _rle_keys(data)


def _decode_base2048(body: str, offset: int, source: str | None) -> str:
    z_of = _base2048_z_of_character()
    data = bytearray()
    pending = 0  # bits not yet cut into a byte, most significant first
    pending_count = 0
    last = len(body) - 1
    for index, character in enumerate(body):
        z = z_of.get(character)
        if z is not None:
            pending = (pending << _BASE2048_BITS) | z
            pending_count += _BASE2048_BITS
        elif _is_base2048_tail(character):
            if index != last:
                raise _character_error(
                    f"the tail character {_describe(character)} may only be the last character, "
                    f"but it is character {offset + index + 1}",
                    body, index, offset, source,
                )
            pending = (pending << _BASE2048_TAIL_BITS) | (ord(character) - BASE2048_TAIL_FIRST)
            pending_count += _BASE2048_TAIL_BITS
        else:
            raise _character_error(
                f"{_nth(body, index, offset)} is not in the Base2048 alphabet",
                body, index, offset, source,
            )
        while pending_count >= 8:
            pending_count -= 8
            data.append(pending >> pending_count)
            pending &= (1 << pending_count) - 1
    if pending != (1 << pending_count) - 1:
        raise _base2048_padding_error(body, pending, pending_count, offset, source)
    return _rle_keys(data)


def _base2048_padding_error(
    body: str, pending: int, pending_count: int, offset: int, source: str | None
) -> NotationError:
    last = len(body) - 1
    bits = format(pending, f"0{pending_count}b")
    return NotationError(
        f"Base2048 padding mismatch: the last character {_describe(body[last])} leaves bits "
        f"{bits} that are not all 1",
        Location(source=source, column=offset + last + 1, token=body[last]),
    )


def _rle_keys(data: bytes | bytearray) -> str:
    """The keys of an RLE nybble payload, the pad nybble's extra ``L`` included."""
    keys_of_byte = _keys_of_byte()
    return "".join([keys_of_byte[byte] for byte in data])


def _misreading_hint(body: str) -> str:
    """Why text that looks raw or hex was not read as such (the page's order is strict)."""
    squeezed = re.sub(r"\s+", "", body)
    if set(body.upper()) <= _RAW_CHARACTERS:
        return (
            "; note: lowercase l, r, d, u are not raw keys -- the official page reads only "
            "uppercase L R D U as raw and tries Base65536, then Base2048 for anything else"
        )
    if set(squeezed) <= _RAW_CHARACTERS:
        return "; note: a raw replay may not contain whitespace between its keys"
    if set(squeezed.upper()) <= _HEX_CHARACTERS:
        return (
            "; note: the official page reads hex only as uppercase digits separated by spaces "
            "(no lowercase, tabs or line breaks)"
        )
    return ""


# -- writing --------------------------------------------------------------------------------------
def encode(keys: str, format: str = "base2048") -> str:  # noqa: A002 -- the name callers use
    """``keys`` written in ``format`` (one of :data:`FORMATS`, any case), as the page would.

    No keys give ``""``, which :func:`decode` refuses as empty.
    """
    encoder = _ENCODERS.get(format.lower())
    if encoder is None:
        raise ValueError(f"unknown replay format {format!r}; known: {', '.join(FORMATS)}")
    return encoder(keys)


def encode_raw(keys: str) -> str:
    """``keys`` as a raw replay (checked to be only ``L R D U``)."""
    _check_keys(keys)
    return keys


def encode_hex(keys: str) -> str:
    """``keys`` as a hex replay: odd counts padded with ``D``, 4 digits per group between spaces."""
    _check_keys(keys)
    if len(keys) % 2:
        keys += "D"
    digit_of_pair = _hex_digit_of_pair()
    digits = "".join([digit_of_pair[keys[i : i + 2]] for i in range(0, len(keys), 2)])
    return " ".join(digits[i : i + _HEX_GROUP] for i in range(0, len(digits), _HEX_GROUP))


def encode_base65536(keys: str) -> str:
    """``keys`` as a Base65536 replay of their RLE nybbles."""
    _check_keys(keys)
    data = _rle_bytes(keys)
    block_firsts = _base65536_block_first_code_points()
    characters = [
        chr(block_firsts[data[i + 1]] + data[i]) for i in range(0, len(data) - 1, 2)
    ]
    if len(data) % 2:
        characters.append(chr(BASE65536_FINAL_BYTE_FIRST + data[-1]))
    return "".join(characters)


def encode_base2048(keys: str) -> str:
    """``keys`` as a Base2048 replay of their RLE nybbles (what the page's "copy replay" gives)."""
    _check_keys(keys)
    alphabet = _base2048_alphabet()
    characters = []
    pending = 0
    pending_count = 0
    for byte in _rle_bytes(keys):
        pending = (pending << 8) | byte
        pending_count += 8
        if pending_count >= _BASE2048_BITS:
            pending_count -= _BASE2048_BITS
            characters.append(alphabet[pending >> pending_count])
            pending &= (1 << pending_count) - 1
    if pending_count >= 4:  # enough bits left to need a main character
        characters.append(alphabet[_pad_with_ones(pending, pending_count, _BASE2048_BITS)])
    elif pending_count:
        tail = _pad_with_ones(pending, pending_count, _BASE2048_TAIL_BITS)
        characters.append(chr(BASE2048_TAIL_FIRST + tail))
    return "".join(characters)


def _pad_with_ones(bits: int, count: int, width: int) -> int:
    """``bits`` (``count`` of them) followed by 1-bits up to ``width`` bits."""
    padding = width - count
    return (bits << padding) | ((1 << padding) - 1)


def _rle_bytes(keys: str) -> bytes:
    """The RLE nybble payload: runs of at most 4, nybble = key << 2 | (run - 1), high half first."""
    nybbles = []
    for run in re.finditer(r"L+|R+|D+|U+", keys):
        key_code = KEYS.index(run.group()[0]) << 2
        length = len(run.group())
        full_runs, rest = divmod(length, _RLE_LONGEST_RUN)
        nybbles += [key_code | (_RLE_LONGEST_RUN - 1)] * full_runs
        if rest:
            nybbles.append(key_code | (rest - 1))
    if len(nybbles) % 2:
        nybbles.append(0)  # decodes to one extra L
    return bytes((nybbles[i] << 4) | nybbles[i + 1] for i in range(0, len(nybbles), 2))


def _check_keys(keys: str) -> None:
    bad = re.search(r"[^LRDU]", keys)
    if bad:
        index = bad.start()
        raise _character_error(
            f"key {index + 1} {_describe(keys[index])} is not L, R, D or U", keys, index, 0, None
        )


# -- errors ---------------------------------------------------------------------------------------
def _describe(character: str) -> str:
    """A character as messages show it: quoted, with its code point (``'é' (U+00E9)``)."""
    return f"{character!r} (U+{ord(character):04X})"


def _nth(body: str, index: int, offset: int) -> str:
    """``character 17 'é' (U+00E9)``: numbered in the untrimmed text (``offset`` was trimmed)."""
    return f"character {offset + index + 1} {_describe(body[index])}"


def _character_error(
    reason: str, body: str, index: int, offset: int, source: str | None
) -> NotationError:
    """An error about ``body[index]``, located in the untrimmed text (``offset`` was trimmed)."""
    return NotationError(
        reason, Location(source=source, column=offset + index + 1, token=body[index])
    )


# -- alphabets, built once on first use -----------------------------------------------------------
@functools.cache
def _keys_of_byte() -> tuple[str, ...]:
    """The keys of each byte value: its high nybble's run, then its low nybble's."""
    runs = [KEYS[nybble >> 2] * ((nybble & 3) + 1) for nybble in range(16)]
    return tuple(runs[byte >> 4] + runs[byte & 0xF] for byte in range(256))


@functools.cache
def _hex_digit_keys() -> dict[str, str]:
    return {f"{value:X}": KEYS[value >> 2] + KEYS[value & 3] for value in range(16)}


@functools.cache
def _hex_digit_of_pair() -> dict[str, str]:
    return {pair: digit for digit, pair in _hex_digit_keys().items()}


@functools.cache
def _base2048_alphabet() -> str:
    """The 2048 main characters in z order."""
    return "".join(chr(cp) for first, last in BASE2048_RANGES for cp in range(first, last + 1))


@functools.cache
def _base2048_z_of_character() -> dict[str, int]:
    return {character: z for z, character in enumerate(_base2048_alphabet())}


def _is_base2048_tail(character: str) -> bool:
    return BASE2048_TAIL_FIRST <= ord(character) < BASE2048_TAIL_FIRST + 8


@functools.cache
def _base65536_block_first_code_points() -> tuple[int, ...]:
    """The first code point of each of the 256 blocks, in index order."""
    return tuple(
        start for first, last in BASE65536_BLOCK_RANGES for start in range(first, last + 1, 256)
    )


@functools.cache
def _base65536_block_numbers() -> dict[int, int]:
    """Block number (the second byte) of each block, keyed by code point >> 8."""
    return {first >> 8: number for number, first in enumerate(_base65536_block_first_code_points())}


def _is_base65536_final_byte(code_point: int) -> bool:
    return BASE65536_FINAL_BYTE_FIRST <= code_point <= BASE65536_FINAL_BYTE_FIRST + 0xFF


def _in_base65536_repertoire(character: str) -> bool:
    code_point = ord(character)
    return (code_point >> 8) in _base65536_block_numbers() or _is_base65536_final_byte(code_point)


_DECODERS: dict[str, Callable[[str, int, str | None], str]] = {
    "raw": _decode_raw,
    "hex": _decode_hex,
    "base65536": _decode_base65536,
    "base2048": _decode_base2048,
}

_ENCODERS: dict[str, Callable[[str], str]] = {
    "raw": encode_raw,
    "hex": encode_hex,
    "base65536": encode_base65536,
    "base2048": encode_base2048,
}
