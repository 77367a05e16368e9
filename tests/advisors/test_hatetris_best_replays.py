"""The best HATETRIS games Kibitz's beam found, kept as replay codes in ``docs/hatetris/`` (named
``beam-<lines>.txt``): each is a whole game that ends with the lines its name and the README claim,
on Kibitz's engine and on the real page (``shared/clients/hatetris``: pasted into "show a replay",
the score read from the page's own state at the end)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.hatetris import GAME, codecs
from tests import real_pages

PROJECT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((PROJECT / "docs" / "hatetris").glob("beam-*.txt"))


def lines_named(path: Path) -> int:
    found = re.fullmatch(r"beam-(\d+)", path.stem)
    assert found, f"{path.name}: a best game's replay is named beam-<lines>.txt"
    return int(found.group(1))


def code_of(path: Path) -> str:
    return path.read_text(encoding="utf-8").strip()


def test_the_best_games_are_kept_and_the_readme_links_each_with_its_lines():
    assert REPLAYS, "no best game kept in docs/hatetris"
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    for path in REPLAYS:
        link = f"(docs/hatetris/{path.name})"
        assert link in readme, f"the README does not link {path.name}"
        row = next(line for line in readme.splitlines() if link in line)
        assert f"**{lines_named(path)} lines**" in row, row


@pytest.mark.parametrize("path", REPLAYS, ids=lambda path: path.name)
def test_each_replay_is_a_whole_game_with_the_lines_of_its_name_on_the_engine(path):
    replayed = GAME.replay_keys(codecs.decode(code_of(path)))
    assert replayed.over
    assert replayed.score == lines_named(path)


def test_each_replay_ends_with_the_lines_of_its_name_on_the_real_page():
    from tests.vision.pages_hatetris import HatetrisPage

    with real_pages.live_page("hatetris") as (browser, url):
        for path in REPLAYS:
            with HatetrisPage(browser, url, clock=True) as page:
                truth = page.replay_to_end(code_of(path))
            assert (truth["mode"], truth["score"]) == ("GAME_OVER", lines_named(path)), path.name
            assert truth["engine_checked"]
