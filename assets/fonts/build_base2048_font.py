"""Build assets/fonts/KibitzBase2048-Regular.ttf: one font with a glyph for every character a
HATETRIS Base2048 replay code can hold, so the sequence editor shows those codes on any machine.

Base2048 (qntm/base2048 v3, what the HATETRIS page's "copy replay" writes) draws its 2048 main
characters from some 40 scripts: Latin, IPA, Greek and Coptic, Cyrillic, Armenian, Hebrew, Arabic,
Syriac, Thaana, N'Ko, Samaritan, Mandaic, the Indic scripts, Sinhala, Thai, Lao, Tibetan and
Myanmar, plus the tail characters ``0``-``7``. A stock machine has fonts for few of them; Qt then
draws empty boxes and, for the scripts it shapes with OpenType (Syriac to Sinhala, N'Ko), warns
"OpenType support missing" once per font it tries. The built font covers the whole repertoire
and declares each of those scripts in its GSUB table, so Qt takes it for them without a warning.

The glyphs are subsets of open fonts (SIL Open Font License 1.1, kept in assets/fonts/OFL.txt):

* Noto, as Debian ships it in ``fonts-noto-core`` (version 20201225): every character but the
  eleven Syriac Supplement letters U+0860-U+086A, which no Noto font of that release has;
* GNU Unifont 15.0.01 (dual-licensed OFL 1.1 / GPL 2+ with the font embedding exception), as
  Debian ships it in ``fonts-unifont``: those eleven letters.

Each character comes from the first source font below that has it; each source font is cut to
its characters (OpenType layout kept: Arabic joining forms, the Indic scripts' features) and the
cuts are merged. Unifont's CFF outlines are converted to TrueType ones and scaled to Noto's 1000
units per em first.

Getting the sources (the script downloads nothing)::

    apt-get download fonts-noto-core fonts-unifont
    dpkg-deb -x fonts-noto-core_*.deb /tmp/noto
    dpkg-deb -x fonts-unifont_*.deb /tmp/unifont
    pip install fonttools          # in the project's environment (the repertoire comes from engines)
    python assets/fonts/build_base2048_font.py \\
        --noto /tmp/noto/usr/share/fonts/truetype/noto \\
        --unifont /tmp/unifont/usr/share/fonts/opentype/unifont/unifont.otf

It writes the font and assets/fonts/SOURCES.txt (each source file's SHA-256 and the characters it
gave), and refuses to write anything when a character of the repertoire is left without a glyph.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT))

from fontTools import subset  # noqa: E402
from fontTools.merge import Merger  # noqa: E402
from fontTools.pens.cu2quPen import Cu2QuPen  # noqa: E402
from fontTools.pens.ttGlyphPen import TTGlyphPen  # noqa: E402
from fontTools.ttLib import TTFont, newTable  # noqa: E402
from fontTools.ttLib.scaleUpem import scale_upem  # noqa: E402
from fontTools.ttLib.tables import otTables  # noqa: E402

from engines.hatetris.codecs import BASE2048_RANGES, BASE2048_TAIL_FIRST  # noqa: E402

FAMILY = "Kibitz Base2048"
POSTSCRIPT_NAME = "KibitzBase2048-Regular"
OUTPUT_NAME = "KibitzBase2048-Regular.ttf"
VERSION = "1.000"
UNITS_PER_EM = 1000
TIMESTAMP = 3_846_960_000  # head.created/modified: seconds since 1904 (2025-11-26), fixed so that builds are identical

# The Noto fonts, in the order they are asked for a character.
NOTO_FILES = (
    "NotoSans-Regular.ttf", "NotoSansCoptic-Regular.ttf", "NotoSansArmenian-Regular.ttf",
    "NotoSansHebrew-Regular.ttf", "NotoSansArabic-Regular.ttf", "NotoSansSyriac-Regular.ttf",
    "NotoSansThaana-Regular.ttf", "NotoSansNKo-Regular.ttf", "NotoSansSamaritan-Regular.ttf",
    "NotoSansMandaic-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansBengali-Regular.ttf",
    "NotoSansGurmukhi-Regular.ttf", "NotoSansGujarati-Regular.ttf", "NotoSansOriya-Regular.ttf",
    "NotoSansTamil-Regular.ttf", "NotoSansTelugu-Regular.ttf", "NotoSansKannada-Regular.ttf",
    "NotoSansMalayalam-Regular.ttf", "NotoSansSinhala-Regular.ttf", "NotoSansThai-Regular.ttf",
    "NotoSansLao-Regular.ttf", "NotoSerifTibetan-Regular.ttf", "NotoSansMyanmar-Regular.ttf",
)

# OpenType script tags of the scripts Qt shapes only with a font whose GSUB names them
# (QFontEngine::supportsScript: Syriac ... Sinhala, Khmer, N'Ko), by the first code point of
# their Unicode block. HarfBuzz accepts either tag of the Indic pairs.
OPENTYPE_SCRIPTS = (
    (0x0700, 0x074F, "syrc"), (0x0860, 0x086F, "syrc"), (0x0780, 0x07BF, "thaa"), (0x07C0, 0x07FF, "nko "),
    (0x0900, 0x097F, "dev2"), (0x0980, 0x09FF, "bng2"), (0x0A00, 0x0A7F, "gur2"), (0x0A80, 0x0AFF, "gjr2"),
    (0x0B00, 0x0B7F, "ory2"), (0x0B80, 0x0BFF, "tml2"), (0x0C00, 0x0C7F, "tel2"), (0x0C80, 0x0CFF, "knd2"),
    (0x0D00, 0x0D7F, "mlm2"), (0x0D80, 0x0DFF, "sinh"),
)
OLD_INDIC_TAGS = {"dev2": "deva", "bng2": "beng", "gur2": "guru", "gjr2": "gujr", "ory2": "orya",
                  "tml2": "taml", "tel2": "telu", "knd2": "knda", "mlm2": "mlym"}


def repertoire() -> list[int]:
    """Every code point of a Base2048 code: the 2048 main characters and the tail 0-7."""
    main = [cp for first, last in BASE2048_RANGES for cp in range(first, last + 1)]
    assert len(main) == 2048, len(main)
    return main + list(range(BASE2048_TAIL_FIRST, BASE2048_TAIL_FIRST + 8))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cut(font_path: Path, code_points: list[int], keep_notdef: bool) -> TTFont:
    """The font cut to ``code_points``, layout features and scripts kept, hinting dropped."""
    options = subset.Options()
    options.layout_features = ["*"]
    options.layout_scripts = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.hinting = False
    options.notdef_outline = keep_notdef
    options.recalc_bounds = True
    font = subset.load_font(str(font_path), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=code_points)
    subsetter.subset(font)
    return font


def cff_to_truetype(font: TTFont) -> None:
    """Replace a CFF font's cubic outlines by quadratic glyf outlines (Unifont's are straight
    pixel edges, so nothing is approximated)."""
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in font.getGlyphOrder():
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = font.getGlyphOrder()
    glyf.glyphs = glyphs
    font["head"].glyphDataFormat = 0
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = font.getGlyphOrder()
    font.sfntVersion = "\x00\x01\x00\x00"


def declare_scripts(font: TTFont, covered: set[int]) -> list[str]:
    """Give GSUB a script record (no features) for every OpenType-shaped script among the
    covered characters that no source font declared (Noto Sans Thaana has no GSUB at all)."""
    if "GSUB" not in font:
        gsub = font["GSUB"] = newTable("GSUB")
        gsub.table = otTables.GSUB()
        gsub.table.Version = 0x00010000
        gsub.table.ScriptList = otTables.ScriptList()
        gsub.table.ScriptList.ScriptRecord = []
        gsub.table.FeatureList = otTables.FeatureList()
        gsub.table.FeatureList.FeatureRecord = []
        gsub.table.LookupList = otTables.LookupList()
        gsub.table.LookupList.Lookup = []
    script_list = font["GSUB"].table.ScriptList
    present = {record.ScriptTag for record in script_list.ScriptRecord}
    added = []
    for first, last, tag in OPENTYPE_SCRIPTS:
        if not any(first <= cp <= last for cp in covered):
            continue
        if tag in present or OLD_INDIC_TAGS.get(tag) in present:
            continue
        record = otTables.ScriptRecord()
        record.ScriptTag = tag
        record.Script = otTables.Script()
        record.Script.DefaultLangSys = otTables.DefaultLangSys()
        record.Script.DefaultLangSys.LookupOrder = None
        record.Script.DefaultLangSys.ReqFeatureIndex = 0xFFFF
        record.Script.DefaultLangSys.FeatureIndex = []
        record.Script.DefaultLangSys.FeatureCount = 0
        record.Script.LangSysRecord = []
        record.Script.LangSysCount = 0
        script_list.ScriptRecord.append(record)
        present.add(tag)
        added.append(tag)
    script_list.ScriptRecord.sort(key=lambda record: record.ScriptTag)
    script_list.ScriptCount = len(script_list.ScriptRecord)
    return added


def rename(font: TTFont, copyright_text: str) -> None:
    """Name the merged font as Kibitz's own (the sources' names are not reused)."""
    names = font["name"]
    names.names = []
    entries = {
        0: copyright_text,
        1: FAMILY,
        2: "Regular",
        3: f"{VERSION};{POSTSCRIPT_NAME}",
        4: f"{FAMILY} Regular",
        5: f"Version {VERSION}",
        6: POSTSCRIPT_NAME,
        10: "The characters of HATETRIS Base2048 replay codes, cut from Noto and GNU Unifont for Kibitz.",
        13: "This Font Software is licensed under the SIL Open Font License, Version 1.1.",
        14: "https://openfontlicense.org",
    }
    for name_id, text in entries.items():
        names.setName(text, name_id, 3, 1, 0x409)
        names.setName(text, name_id, 1, 0, 0)
    os2 = font["OS/2"]
    os2.achVendID = "NONE"
    os2.fsSelection = (os2.fsSelection & ~0b1100001) | 0b1000000  # REGULAR only
    font["head"].macStyle = 0


def build(noto: Path, unifont: Path, output: Path) -> None:
    wanted = repertoire()
    sources = [noto / name for name in NOTO_FILES] + [unifont]
    missing = [str(path) for path in sources if not path.is_file()]
    if missing:
        raise SystemExit("missing source fonts:\n  " + "\n  ".join(missing))

    left = list(wanted)
    plan: list[tuple[Path, list[int]]] = []
    for path in sources:
        cmap = TTFont(str(path), lazy=True).getBestCmap()
        taken = [cp for cp in left if cp in cmap]
        if taken:
            plan.append((path, taken))
            left = [cp for cp in left if cp not in cmap]
    if left:
        raise SystemExit("no source font has " + " ".join(f"U+{cp:04X}" for cp in left))

    with tempfile.TemporaryDirectory() as scratch:
        cut_paths = []
        for index, (path, code_points) in enumerate(plan):
            font = cut(path, code_points, keep_notdef=index == 0)
            if "CFF " in font:
                cff_to_truetype(font)
            if font["head"].unitsPerEm != UNITS_PER_EM:
                scale_upem(font, UNITS_PER_EM)
            cut_path = Path(scratch) / f"{index:02d}-{path.stem}.ttf"
            font.save(str(cut_path))
            cut_paths.append(str(cut_path))
        merged = Merger().merge(cut_paths)

    cmap = merged.getBestCmap()
    absent = [cp for cp in wanted if cp not in cmap]
    if absent:
        raise SystemExit("the merged font lost " + " ".join(f"U+{cp:04X}" for cp in absent))
    added = declare_scripts(merged, set(wanted))
    rename(merged, "Noto: Copyright 2010-2020 Google Inc., 2015-2020 Google LLC. "
                   "GNU Unifont: Copyright 1998-2022 Roman Czyborra, Paul Hardy, Qianqian Fang, Andrew Miller, "
                   "Johnnie Weaver, David Corbett, Nils Moskopp, Rebecca Bettencourt, et al.")
    merged["head"].created = merged["head"].modified = TIMESTAMP  # the same bytes on every build
    merged.recalcTimestamp = False
    output.mkdir(parents=True, exist_ok=True)
    target = output / OUTPUT_NAME
    merged.save(str(target))

    lines = [
        f"{OUTPUT_NAME}: built by assets/fonts/build_base2048_font.py from these files (SIL OFL 1.1, see OFL.txt).",
        f"{len(wanted)} characters (the Base2048 repertoire and its tail 0-7), {len(merged.getGlyphOrder())} glyphs;",
        f"GSUB script records added for: {' '.join(added) or 'none'}.",
        "",
        "characters  sha256                                                            file",
    ]
    for path, code_points in plan:
        package = "fonts-unifont 1:15.0.01-2" if path == unifont else "fonts-noto-core 20201225-1"
        lines.append(f"{len(code_points):>10}  {sha256(path)}  {path.name} ({package})")
    (output / "SOURCES.txt").write_text("\n".join(lines) + "\n")
    counts = Counter(package for package in ("unifont" if path == unifont else "noto" for path, _ in plan))
    print(f"wrote {target} ({target.stat().st_size:,} bytes; {len(plan)} source fonts: {dict(counts)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--noto", type=Path, required=True, help="folder of fonts-noto-core's TTF files")
    parser.add_argument("--unifont", type=Path, required=True, help="fonts-unifont's unifont.otf")
    parser.add_argument("--output", type=Path, default=PROJECT / "assets" / "fonts")
    options = parser.parse_args()
    build(options.noto, options.unifont, options.output)


if __name__ == "__main__":
    main()
