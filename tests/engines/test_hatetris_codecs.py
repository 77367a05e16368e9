"""HATETRIS replay codes (spec 2): the four formats, the official decoding order, precise errors.

Expected values come from the archived record replays (shared/data/hatetris: ``records.tsv`` and
the keys of ``records_decoded.tsv``), the published Base2048 alphabet file, the spec's worked
examples, and small cases worked out by hand from the format descriptions in spec 2.3.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.errors import NotationError
from engines.hatetris import codecs

# Spec 2.3 / 2.4: the all-Down demo, 90 x D then the pad L.
NINETY_DOWN_BASE2048 = "௨ටໃݹ௨ටໃݹठ"
NINETY_DOWN_BASE65536 = "𤆻𤆻𤆻𤆻𤆻𡚻"
NINETY_DOWN_HEX = " ".join(["AAAA"] * 11) + " A2"  # 45 x A (DD) then 2 (LD): 90 x D, L, D


@pytest.fixture(scope="session")
def hatetris_data(reference_data: Path) -> Path:
    return reference_data / "hatetris"


def _read_tsv(path: Path) -> list[dict[str, str]]:
    # Not the csv module: replay strings and notes may hold quote characters.
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    names = header.split("\t")
    return [dict(zip(names, line.split("\t"), strict=True)) for line in lines if line]


@pytest.fixture(scope="session")
def records(hatetris_data: Path) -> list[dict[str, str]]:
    return _read_tsv(hatetris_data / "records.tsv")


@pytest.fixture(scope="session")
def decoded_by_label(hatetris_data: Path) -> dict[str, dict[str, str]]:
    return {row["label"]: row for row in _read_tsv(hatetris_data / "records_decoded.tsv")}


def _code_point(text: str) -> int:
    """``U+0038`` -> 0x38."""
    assert text.startswith("U+")
    return int(text[2:], 16)


def _rle_run_count(keys: str) -> int:
    """How many RLE nybbles ``keys`` need: each maximal run split into runs of at most 4."""
    return sum(-(-len(run.group()) // 4) for run in re.finditer(r"(.)\1*", keys))


def _pad_key(keys: str, format_name: str) -> str:
    """The key a format's decoder adds after ``keys`` (spec 2.3), or ``""``."""
    if format_name == "hex":
        return "D" if len(keys) % 2 else ""
    if format_name in ("base65536", "base2048"):
        return "L" if _rle_run_count(keys) % 2 else ""
    return ""


# -- the embedded Base2048 alphabet --------------------------------------------------------------
def test_embedded_base2048_alphabet_equals_the_repertoire_file(hatetris_data):
    path = hatetris_data / "base2048_repertoire.tsv"
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    assert header.split("\t") == [
        "repertoire", "z_first", "z_last", "codepoint_first", "codepoint_last",
    ]
    rows = [line.split("\t") for line in lines if line]
    main = [row for row in rows if row[0] == "11bit"]
    assert [row[0] for row in rows] == ["11bit"] * 221 + ["3bit_tail"]

    from_file = [(_code_point(row[3]), _code_point(row[4])) for row in main]
    assert list(codecs.BASE2048_RANGES) == from_file
    next_z = 0
    for _, z_first, z_last, first, last in main:
        width = _code_point(last) - _code_point(first)
        assert (int(z_first), int(z_last)) == (next_z, next_z + width)
        next_z = int(z_last) + 1
    assert next_z == 2048
    assert rows[-1] == ["3bit_tail", "0", "7", "U+0030", "U+0037"]
    assert codecs.BASE2048_TAIL_FIRST == 0x30


def test_embedded_base2048_alphabet_matches_the_spec_landmarks():
    ranges = codecs.BASE2048_RANGES
    assert len(ranges) == 221
    assert sum(last - first + 1 for first, last in ranges) == 2048
    assert ranges[:4] == ((0x38, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0xC6, 0xC6))
    assert ranges[-1] == (0x1050, 0x1055)
    assert all(last < 0x1100 for _, last in ranges)


# -- the archived records ------------------------------------------------------------------------
def test_every_record_decodes_to_the_archived_keys(records, decoded_by_label):
    """All encodings of one game agree up to one trailing pad key played after game over (2.4)."""
    assert len(records) == 44
    for row in records:
        game = decoded_by_label[row["label"]]
        archived = game["keys"]
        assert len(archived) == int(game["keys_total"])
        keys = codecs.decode(row["replay"])
        where = f"{row['label']} ({row['encoding']})"

        assert codecs.detect(row["replay"]) == row["encoding"].lower(), where
        shorter, longer = sorted((keys, archived), key=len)
        assert longer.startswith(shorter), where
        assert len(longer) - len(shorter) <= 1, where
        assert len(shorter) >= int(game["keys_used"]), f"{where}: a key before game over differs"
        if len(keys) > len(archived):
            assert keys[-1] == {"hex": "D"}.get(row["encoding"], "L"), where


def test_each_format_of_a_game_ends_with_its_own_pad(records):
    """Where two encodings of one game differ in length, the longer one's extra key is its pad."""
    by_label: dict[str, dict[str, str]] = {}
    for row in records:
        keys = codecs.decode(row["replay"])
        by_label.setdefault(row["label"], {})[row["encoding"].lower()] = keys
    three_encodings = {label: keys for label, keys in by_label.items() if len(keys) == 3}
    assert len(three_encodings) == 13
    for label, keys in three_encodings.items():
        assert keys["base65536"] == keys["base2048"], label
        assert len(keys["hex"]) % 2 == 0, label


def test_records_encode_back_to_the_archived_strings(records):
    checked = 0
    for row in records:
        format_name = row["encoding"].lower()
        if format_name == "raw":
            continue
        keys = codecs.decode(row["replay"])
        written = codecs.encode(keys, format_name)
        if format_name == "hex":
            assert written.split() == row["replay"].split(), row["label"]
            assert written == " ".join(row["replay"].split()), row["label"]
        else:
            assert written == row["replay"].strip(), f"{row['label']} ({row['encoding']})"
        checked += 1
    assert checked == 42


# -- worked examples of the spec ----------------------------------------------------------------
def test_ninety_downs_in_every_format():
    assert codecs.decode(NINETY_DOWN_BASE2048) == "D" * 90 + "L"
    assert codecs.decode(NINETY_DOWN_BASE65536) == "D" * 90 + "L"
    assert codecs.decode(NINETY_DOWN_HEX) == "D" * 90 + "LD"
    assert codecs.encode_base2048("D" * 90) == NINETY_DOWN_BASE2048
    assert codecs.encode("D" * 90 + "L") == NINETY_DOWN_BASE2048  # the pad L is re-absorbed
    assert codecs.encode_base65536("D" * 90) == NINETY_DOWN_BASE65536
    assert codecs.encode("D" * 90 + "L", "hex") == NINETY_DOWN_HEX
    assert codecs.detect(NINETY_DOWN_BASE2048) == "base2048"
    assert codecs.detect(NINETY_DOWN_BASE65536) == "base65536"
    assert codecs.detect(NINETY_DOWN_HEX) == "hex"


@pytest.mark.parametrize(
    ("digit", "keys"),
    [("A", "DD"), ("2", "LD"), ("5", "RR"), ("F", "UU"), ("0", "LL"), ("D", "UR")],
)
def test_hex_digit_meanings(digit, keys):
    assert codecs.decode_hex(digit) == keys
    assert codecs.encode_hex(keys) == digit


def test_hex_ignores_spaces_and_hashes_and_pads_with_down():
    assert codecs.decode("#A2 5F") == "DDLDRRUU"
    assert codecs.encode_hex("DDL") == "A2"
    assert codecs.encode_hex("D" * 18) == "AAAA AAAA A"


def test_small_payloads_worked_by_hand():
    # "L": nybble 0000 + pad 0000 = byte 00. Base65536: a lone byte b is U+1500 + b.
    assert codecs.encode_base65536("L") == "\u1500"
    assert codecs.encode_base65536("RRRR") == "\u1570"  # 0111 0000
    assert codecs.decode("\u1570") == "RRRRL"
    # Base2048: 8 bits 00000000 padded with 111 -> z 7 = 'F' (z 2 = 'A').
    assert codecs.encode_base2048("L") == "F"
    # "LRLRLR": bytes 04 04 04 = 24 bits = 2 x 11 + 2; the last 2 bits 00 + pad 1 -> tail '1'.
    written = codecs.encode_base2048("LRLRLR")
    assert len(written) == 3 and written[-1] == "1"
    assert codecs.decode_base2048(written) == "LRLRLR"


def test_base2048_of_a_single_left_is_read_as_hex_by_the_official_order():
    """The official order is strict: "F" (Base2048 for "L") is only hex digits, so it means UU."""
    assert codecs.detect("F") == "hex"
    assert codecs.decode("F") == "UU"
    assert codecs.decode_base2048("F") == "LL"


# -- the decoding order ----------------------------------------------------------------------------
def test_hex_made_only_of_d_digits_is_raw():
    assert codecs.detect("DDDD") == "raw"
    assert codecs.decode("DDDD") == "DDDD"
    assert codecs.decode_hex("DDDD") == "UR" * 4  # D = 13 = 4*3 + 1


@pytest.mark.parametrize(
    ("text", "format_name"),
    [
        ("LRDU", "raw"), ("AB12 #", "hex"), ("ᔀ", "base65536"), ("ab", "base2048"),
        ("lrdu", "base2048"),
    ],
)
def test_detect(text, format_name):
    assert codecs.detect(text) == format_name


def test_whitespace_around_is_trimmed():
    assert codecs.decode(" \n\t" + NINETY_DOWN_BASE2048 + "\u3000\n") == "D" * 90 + "L"
    assert codecs.decode("  LRDU\n") == "LRDU"


# -- round trips ----------------------------------------------------------------------------------
_KEYS = st.text(alphabet="LRDU", min_size=1, max_size=400)
_RUNNY_KEYS = st.lists(
    st.tuples(st.sampled_from("LRDU"), st.integers(1, 13)), min_size=1, max_size=60
).map(lambda runs: "".join(key * length for key, length in runs))


@pytest.mark.parametrize("format_name", codecs.FORMATS)
@given(keys=st.one_of(_KEYS, _RUNNY_KEYS))
def test_decode_of_encode_is_the_keys_and_the_pad(format_name, keys):
    written = codecs.encode(keys, format_name)
    decoder = getattr(codecs, f"decode_{format_name}")
    assert decoder(written) == keys + _pad_key(keys, format_name)
    if codecs.detect(written) == format_name:  # "F" and the like read as hex (see above)
        assert codecs.decode(written) == keys + _pad_key(keys, format_name)


@given(keys=_KEYS)
def test_hex_is_written_in_groups_of_four(keys):
    written = codecs.encode_hex(keys)
    assert re.fullmatch(r"([0-9A-F]{4} )*[0-9A-F]{1,4}", written)
    assert len(written.replace(" ", "")) == -(-len(keys) // 2)


def test_formats():
    assert codecs.FORMATS == ("base2048", "base65536", "hex", "raw")
    assert codecs.encode("LRDU", "Raw") == "LRDU"
    with pytest.raises(ValueError, match="unknown replay format 'base64'"):
        codecs.encode("LRDU", "base64")


# -- errors ---------------------------------------------------------------------------------------
def test_bad_character_in_the_middle_of_base2048():
    text = NINETY_DOWN_BASE2048[:4] + "é" + NINETY_DOWN_BASE2048[5:]
    with pytest.raises(NotationError) as caught:
        codecs.decode(text, source="replay.txt")
    error = caught.value
    location = error.location
    assert (location.column, location.token, location.source) == (5, "é", "replay.txt")
    assert "character 5 'é' (U+00E9) is not in the Base2048 alphabet" in str(error)


def test_columns_count_the_trimmed_whitespace():
    with pytest.raises(NotationError) as caught:
        codecs.decode("  ௨é")
    assert caught.value.location.column == 4
    assert "character 4 'é'" in str(caught.value)


def test_base2048_padding_mismatch():
    # '8' is z 0 and 'a' z 28: 22 bits = 2 bytes + the 6 bits 011100, which are not all 1.
    with pytest.raises(NotationError) as caught:
        codecs.decode("8a")
    assert caught.value.location.column == 2 and caught.value.location.token == "a"
    assert (
        "Base2048 padding mismatch: the last character 'a' (U+0061) leaves bits 011100 that are "
        "not all 1"
    ) in str(caught.value)


def test_tail_character_only_at_the_end():
    with pytest.raises(NotationError) as caught:
        codecs.decode("௨3ට")
    assert caught.value.location.column == 2 and caught.value.location.token == "3"
    assert "the tail character '3' (U+0033) may only be the last character" in str(caught.value)


def test_base65536_single_byte_character_only_at_the_end():
    with pytest.raises(NotationError) as caught:
        codecs.decode("\u1500𤆻")
    assert caught.value.location.column == 1
    assert "may only be the last character" in str(caught.value)


def test_character_outside_base65536_when_asked_for_it():
    with pytest.raises(NotationError) as caught:
        codecs.decode_base65536("𤆻x")
    assert caught.value.location.column == 2
    assert "character 2 'x' (U+0078) is not in the Base65536 repertoire" in str(caught.value)


@pytest.mark.parametrize("text", ["", "   ", "\n\t \u3000"])
def test_empty_input(text):
    with pytest.raises(NotationError, match="the replay is empty"):
        codecs.decode(text)


def test_lowercase_raw_keys_are_not_raw_and_the_error_says_so():
    # 'u' is z 48 = 00000110000: 44 bits leave 0000.
    with pytest.raises(NotationError) as caught:
        codecs.decode("lrdu")
    message = str(caught.value)
    assert "padding mismatch" in message and "0000" in message
    assert "lowercase l, r, d, u are not raw keys" in message


def test_spaced_raw_keys_are_not_raw_and_the_error_says_so():
    with pytest.raises(NotationError) as caught:
        codecs.decode("RRR DDD")
    assert caught.value.location.column == 4
    assert "may not contain whitespace" in str(caught.value)


def test_direct_decoders_name_the_bad_character():
    with pytest.raises(NotationError, match=r"hex replay has character 3 'G' \(U\+0047\)"):
        codecs.decode_hex("AAGA")
    with pytest.raises(NotationError, match="hex replay has no digits"):
        codecs.decode_hex("# #")
    with pytest.raises(NotationError, match=r"character 2 .r. \(U\+0072\) is not a raw key"):
        codecs.decode_raw("Lr")


def test_encoders_reject_unknown_keys():
    with pytest.raises(NotationError) as caught:
        codecs.encode("LRX")
    assert caught.value.location.column == 3 and caught.value.location.token == "X"
    assert "key 3 'X' (U+0058) is not L, R, D or U" in str(caught.value)
