"""vision.images, the edge where images come in: sizes read from headers and bounded before
decoding, codecs' complaints kept off the terminal, arrays normalised or refused, and boards too
thin to hold a game refused with NoBoardFound instead of an OpenCV traceback (issue 23)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from engines.errors import KibitzInputError
from vision import READER_MODULES, NoBoardFound, read, reader
from vision.images import MAX_PIXELS, MIN_BOARD_SIDE, ImageError, board_image, decode, image_size, load

PROJECT = Path(__file__).resolve().parents[2]


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def black_png(width: int, height: int) -> bytes:
    """A valid black PNG written by hand (1 bit a pixel, as editors save black and white), so a
    huge one is made without holding its pixels."""
    compressor = zlib.compressobj(9)
    row = bytes(1 + (width + 7) // 8)  # filter byte 0, then the row's bits, all black
    rows_at_once = 1000
    body = [compressor.compress(row * min(rows_at_once, height - done)) for done in range(0, height, rows_at_once)]
    idat = b"".join(body) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def _run_python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter (the project on its path): its own peak memory, and its
    standard error as the terminal would get it, at the file-descriptor level."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(PROJECT), "PATH": "/usr/bin:/bin"})


# -- thin images: the 1010! and Destruct-o-Match readers raised cv2.error '!dsize.empty()' -------------
@pytest.mark.parametrize("game", sorted(READER_MODULES))
@pytest.mark.parametrize("height, width", [(1, 3000), (1, 100_000), (3000, 1), (100_000, 1), (2, 2)])
def test_a_very_thin_image_holds_no_board(game, height, width):
    with pytest.raises(NoBoardFound) as caught:
        read(game, np.full((height, width, 3), 200, np.uint8))
    assert caught.value.reason == (f"the image is {width} x {height} px; a board needs at least 16 px each way")


@pytest.mark.parametrize("game", ["1010", "destructo", "hatetris"])
def test_the_readers_themselves_refuse_a_thin_image(game):
    # called directly (as the follower may), not only through vision.read
    with pytest.raises(NoBoardFound, match="3000 x 1 px"):
        reader(game).read(np.full((1, 3000, 3), 200, np.uint8))


@pytest.mark.parametrize("game", sorted(READER_MODULES))
@pytest.mark.parametrize("height, width", [(MIN_BOARD_SIDE, 100_000), (100_000, MIN_BOARD_SIDE), (20, 4000)])
def test_a_long_strip_as_wide_as_the_minimum_holds_no_board(game, height, width):
    # each way at least the minimum, but shrunk overviews once cut the short side to nothing
    image = np.random.default_rng(height + width).integers(0, 256, (height, width, 3), dtype=np.uint8)
    with pytest.raises(NoBoardFound):
        read(game, image)


def test_a_thin_png_file_is_no_board_not_a_traceback(tmp_path):
    path = tmp_path / "thin.png"
    assert cv2.imwrite(str(path), np.full((1, 3000, 3), 90, np.uint8))
    image = load(path)
    assert image.shape == (1, 3000, 3)
    with pytest.raises(NoBoardFound, match="3000 x 1 px"):
        read("1010", image)


# -- sizes bounded before decoding ---------------------------------------------------------------
def test_a_20000_px_square_black_png_is_refused_from_its_header_quickly_and_in_little_memory(tmp_path):
    # decoded, it took 2.3 GB before anything refused it
    path = tmp_path / "black.png"
    path.write_bytes(black_png(20_000, 20_000))
    result = _run_python(f"""
        import json, resource, time
        from vision.images import ImageError, load
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        try:
            load({str(path)!r})
            message = None
        except ImageError as error:
            message = str(error)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({{"message": message, "seconds": seconds, "grew_kb": after - before}}))
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["message"] == (f"{path}: the image is 20,000 x 20,000 px, 400,000,000 pixels; Kibitz reads "
                                  "images of at most 64,000,000 pixels (64 megapixels)")
    assert outcome["seconds"] < 0.5
    assert outcome["grew_kb"] < 20 * 1024  # its pixels alone would be 400 MB
    assert result.stderr == ""


def _encoded(extension: str, width: int, height: int, **params) -> bytes:
    image = np.random.default_rng(width * height).integers(0, 256, (height, width, 3), dtype=np.uint8)
    flags = [value for pair in params.items() for value in (getattr(cv2, pair[0]), pair[1])]
    ok, data = cv2.imencode(extension, image, flags)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("extension, name, params", [
    (".png", "PNG", {}), (".jpg", "JPEG", {}), (".jpg", "JPEG", {"IMWRITE_JPEG_PROGRESSIVE": 1}), (".gif", "GIF", {}),
    (".bmp", "BMP", {}), (".webp", "WebP", {"IMWRITE_WEBP_QUALITY": 80}), (".webp", "WebP", {"IMWRITE_WEBP_QUALITY": 101}),
    (".tiff", "TIFF", {})])
def test_the_size_is_read_from_each_formats_header(extension, name, params):
    data = _encoded(extension, 37, 23, **params)
    assert image_size(data) == (name, 37, 23)
    assert decode(data).shape == (23, 37, 3)


def _with_size(data: bytes, name: str, width: int, height: int) -> bytes:
    """``data`` with the width and height in its header replaced (the pixels left as they are)."""
    patched = bytearray(data)
    if name == "PNG":
        patched[16:24] = struct.pack(">II", width, height)
    elif name == "JPEG":
        at = max(data.find(bytes([0xFF, marker])) for marker in (0xC0, 0xC2))
        patched[at + 5:at + 9] = struct.pack(">HH", height, width)
    elif name == "GIF":
        patched[6:10] = struct.pack("<HH", width, height)
    elif name == "BMP":
        patched[18:26] = struct.pack("<ii", width, -height)
    elif name == "WebP":  # the lossless form: 14 bits of width - 1, then of height - 1
        bits = int.from_bytes(data[21:25], "little") & ~((1 << 28) - 1)
        patched[21:25] = (bits | (width - 1) | (height - 1) << 14).to_bytes(4, "little")
    return bytes(patched)


@pytest.mark.parametrize("extension, name, params", [
    (".png", "PNG", {}), (".jpg", "JPEG", {}), (".gif", "GIF", {}), (".bmp", "BMP", {}),
    (".webp", "WebP", {"IMWRITE_WEBP_QUALITY": 101})])
def test_a_header_claiming_too_many_pixels_is_refused_before_decoding(extension, name, params):
    data = _with_size(_encoded(extension, 37, 23, **params), name, 16_000, 9_000)
    with pytest.raises(ImageError) as caught:
        decode(data, "shot" + extension)
    assert str(caught.value) == (f"shot{extension}: the image is 16,000 x 9,000 px, 144,000,000 pixels; Kibitz "
                                 "reads images of at most 64,000,000 pixels (64 megapixels)")


def test_an_image_of_exactly_the_limit_is_not_refused_for_its_size():
    side = int(MAX_PIXELS ** 0.5)
    assert side * side == MAX_PIXELS  # 8000 x 8000
    data = _with_size(_encoded(".png", 37, 23), "PNG", side, side)
    with pytest.raises(ImageError, match="damaged PNG data"):  # the pixels do not fill it
        decode(data)


@pytest.mark.parametrize("data, reason", [
    (b"", "empty (0 bytes): not an image"),
    (b"hello, world", "not a PNG, JPEG, GIF, BMP, WebP or TIFF image"),
    (b"P6\n40 30\n255\n" + bytes(3600), "not a PNG, JPEG, GIF, BMP, WebP or TIFF image"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "damaged PNG header: no width and height in it"),
    (b"\xff\xd8\xff\xd9", "damaged JPEG header: no width and height in it"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + struct.pack(">II", 0, 10), "the PNG header gives a size of 0 x 10 px"),
])
def test_what_is_not_an_image_is_refused_with_the_reason(data, reason):
    with pytest.raises(ImageError) as caught:
        decode(data, "clip.bin")
    assert str(caught.value) == f"clip.bin: {reason}"
    assert isinstance(caught.value, KibitzInputError)


def test_standard_input_is_read_bounded_and_named(monkeypatch):
    import io

    import engines.limits
    from vision.images import read_stream

    data = _encoded(".png", 37, 23)
    assert read_stream(io.BytesIO(data)).shape == (23, 37, 3)
    monkeypatch.setattr(engines.limits, "MAX_FILE_BYTES", len(data) - 1)
    with pytest.raises(ImageError) as caught:
        read_stream(io.BytesIO(data))
    assert str(caught.value) == f"standard input: more than {len(data) - 1:,} bytes; at most that many are read"


def test_a_missing_file_and_a_folder_are_named(tmp_path):
    with pytest.raises(ImageError, match=r"nothing\.png: no such file"):
        load(tmp_path / "nothing.png")
    with pytest.raises(ImageError, match="is a folder"):
        load(tmp_path)


# -- damaged files: the codecs' complaints are the error's reason, never printed ----------------------
def test_decoding_damaged_files_prints_nothing_and_names_the_damage(tmp_path):
    # OpenCV's log and libpng / libjpeg wrote "[ WARN:0@…] … PNG input buffer is incomplete" and
    # the like on the terminal above Kibitz's own error
    good = _encoded(".png", 64, 48)
    jpeg = _encoded(".jpg", 64, 48)
    bad_crc = bytearray(good)
    idat = good.find(b"IDAT")
    bad_crc[idat + 4 + struct.unpack(">I", good[idat - 4:idat])[0]] ^= 0xFF  # the chunk's checksum
    files = {"truncated.png": good[:-20], "half.png": good[:len(good) // 2], "crc.png": bytes(bad_crc), "truncated.jpg": jpeg[:len(jpeg) // 2],
             "truncated.gif": _encoded(".gif", 64, 48)[:200], "truncated.bmp": _encoded(".bmp", 64, 48)[:500],
             "truncated.tiff": _encoded(".tiff", 64, 48)[:300], "truncated.webp": _encoded(".webp", 64, 48)[:100]}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    result = _run_python(f"""
        import json
        from vision.images import ImageError, load
        messages = {{}}
        for name in {sorted(files)!r}:
            try:
                load(name)
                messages[name] = None
            except ImageError as error:
                messages[name] = str(error)
        print(json.dumps(messages))
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    messages = json.loads(result.stdout)
    assert messages["truncated.png"] == ("truncated.png: damaged PNG data: it cannot be decoded (libpng error: PNG "
                                         "input buffer is incomplete)")
    assert messages["half.png"].startswith("half.png: damaged PNG data: it cannot be decoded")
    assert messages["crc.png"] == "crc.png: damaged PNG data: it cannot be decoded (libpng error: IDAT: CRC error)"
    assert messages["truncated.jpg"] == "truncated.jpg: damaged JPEG data: it cannot be decoded"
    for name in ("truncated.gif", "truncated.bmp", "truncated.tiff", "truncated.webp"):
        kind = {"gif": "GIF", "bmp": "BMP", "tiff": "TIFF", "webp": "WebP"}[name.split(".")[1]]
        assert messages[name].startswith(f"{name}: damaged {kind} "), messages[name]  # its header or its data


def test_a_jpeg_that_libjpeg_fills_in_is_refused(monkeypatch, capfd):
    # OpenCV 4.x decodes a truncated JPEG, the missing part grey, with libjpeg's warning only
    import os

    import vision.images

    def fill_in(data, flags):
        os.write(2, b"Premature end of JPEG file\n")
        return np.full((48, 64, 3), 128, np.uint8)

    monkeypatch.setattr(vision.images.cv2, "imdecode", fill_in)
    with pytest.raises(ImageError) as caught:
        decode(_encoded(".jpg", 64, 48), "cut.jpg")
    assert str(caught.value) == "cut.jpg: the JPEG data ends early (a truncated file?)"
    assert capfd.readouterr().err == ""


def test_kibitz_read_says_only_its_own_error_for_a_thin_a_damaged_and_a_huge_image(tmp_path):
    # a traceback (thin), codec warnings above the error (damaged), 2.3 GB decoded (huge) before
    assert cv2.imwrite(str(tmp_path / "thin.png"), np.full((1, 3000, 3), 90, np.uint8))
    (tmp_path / "cut.png").write_bytes(_encoded(".png", 64, 48)[:-20])
    (tmp_path / "huge.png").write_bytes(black_png(20_000, 20_000))
    expected = {
        "thin.png": "kibitz: thin.png: no board found (the image is 3000 x 1 px; a board needs at least 16 px each way)",
        "cut.png": "kibitz: cut.png: damaged PNG data: it cannot be decoded (libpng error: PNG input buffer is "
                   "incomplete)",
        "huge.png": "kibitz: huge.png: the image is 20,000 x 20,000 px, 400,000,000 pixels; Kibitz reads images of at "
                    "most 64,000,000 pixels (64 megapixels)",
    }
    for name, message in expected.items():
        result = subprocess.run([sys.executable, "-m", "app", "read", "1010", name], cwd=tmp_path, timeout=120,
                                capture_output=True, text=True, env={"PYTHONPATH": str(PROJECT), "PATH": "/usr/bin:/bin"})
        assert (result.returncode, result.stdout, result.stderr) == (1, "", message + "\n")


def test_standard_error_works_again_after_decoding(capfd):
    with pytest.raises(ImageError):
        decode(_encoded(".png", 64, 48)[:300])
    print("after", file=sys.stderr)
    assert capfd.readouterr().err == "after\n"


# -- arrays: normalised to 8-bit BGR, or refused with what they are ---------------------------------
def test_grey_and_alpha_and_16_bit_arrays_become_8_bit_bgr():
    grey = np.arange(20 * 30, dtype=np.uint16).reshape(20, 30) * 100  # up to 59,900
    expected_grey = (grey // 256).astype(np.uint8)
    for image in (grey, grey[:, :, None], np.dstack([grey, np.full_like(grey, 7)])):
        assert np.array_equal(board_image(image), np.dstack([expected_grey] * 3))
    bgra = np.dstack([np.full((20, 30), v, np.uint8) for v in (10, 20, 30, 40)])
    assert np.array_equal(board_image(bgra), bgra[:, :, :3])
    assert np.array_equal(board_image(np.eye(20, dtype=bool))[:, :, 1], np.eye(20, dtype=np.uint8) * 255)
    whole = np.full((20, 20, 3), 255, np.int64)
    assert board_image(whole).dtype == np.uint8 and board_image(whole).max() == 255
    flipped = np.arange(20 * 40 * 3, dtype=np.uint8).reshape(20, 40, 3)[::-1, ::-2]  # not contiguous
    assert np.array_equal(board_image(flipped), flipped) and board_image(flipped).flags.c_contiguous


@pytest.mark.parametrize("image, reason", [
    (np.zeros((20, 20, 3), np.float32), "expected an 8-bit image, got float32 pixels"),
    (np.full((20, 20), np.nan), "expected an 8-bit image, got float64 pixels"),
    (np.full((20, 20, 3), 300, np.int32), "expected an 8-bit image, got int32 pixels from 300 to 300"),
    (np.full((20, 20, 3), -1, np.int8), "expected an 8-bit image, got int8 pixels from -1 to -1"),
    (np.zeros((20, 20, 5), np.uint8), "expected a grey, BGR or BGRA image (height x width, 1 to 4 channels), "
                                      "got an array of shape (20, 20, 5)"),
    (np.zeros((20, 20, 3, 1), np.uint8), "not an image but an array of shape (20, 20, 3, 1)"),
    (np.zeros(20, np.uint8), "not an image but an array of shape (20,)"),
    (np.zeros((20, 20, 3), complex), "expected an 8-bit image, got complex128 pixels"),
    ([[1, 2], [3, 4]], "not an image but a list"),
])
def test_an_array_no_reader_can_take_is_no_board(image, reason):
    with pytest.raises(NoBoardFound) as caught:
        read("2048", image)
    assert caught.value.reason == reason


def test_an_array_over_the_pixel_limit_is_refused_before_it_is_converted():
    image = np.broadcast_to(np.zeros((1, 1), np.uint16), (8001, 8000))  # no memory behind it
    with pytest.raises(NoBoardFound) as caught:
        read("1010", image)
    assert caught.value.reason == ("the image is 8,000 x 8,001 px, 64,008,000 pixels; Kibitz reads images of at "
                                   "most 64,000,000 pixels (64 megapixels)")


def test_16_bit_grey_and_bgra_pngs_decode_to_8_bit_bgr():
    grey = (np.arange(40 * 30, dtype=np.uint16).reshape(30, 40) * 50)
    ok, data = cv2.imencode(".png", grey)
    assert ok
    assert np.array_equal(decode(data.tobytes()), np.dstack([(grey >> 8).astype(np.uint8)] * 3))
    bgra = np.dstack([np.full((30, 40), v, np.uint8) for v in (1, 2, 3, 0)])
    ok, data = cv2.imencode(".png", bgra)
    assert np.array_equal(decode(data.tobytes()), bgra[:, :, :3])
