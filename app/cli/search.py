"""``kibitz search GAME``: a long search headless (SPL-T: greedy, weighted random, ParanoidPlay;
HATETRIS: beam search), with a progress line and a folder of bests and checkpoints to continue
from. The folder is ``--out``, or a new one under the data folder's ``searches``, said at start."""

from __future__ import annotations

from pathlib import Path

from app.cli.data_folder import new_search_folder
from app.cli.options import number, whole_number

SUMMARY = "search for long games on all cores (SPL-T: greedy, weighted random, ParanoidPlay; HATETRIS: beam search)"
DESCRIPTION = ("Search for the longest game. Every new best is written at once to the output folder; the folder "
               "also holds checkpoints, so a killed search continues with --resume FOLDER. Ctrl-C stops cleanly.")
GENERIC = False


def add_arguments(parser, game) -> None:
    parser.add_argument("game", help="short name of the game: splt or hatetris")
    parser.add_argument("--from", dest="from_file", metavar="FILE",
                        help="start from this sequence file instead of the empty board (HATETRIS: a "
                        "replay code or a file holding one)")
    parser.add_argument("--from-move", type=whole_number(0, 10 ** 9), metavar="K",
                        help="keep the file's first K moves and search only after them "
                        "(default: all of its moves)")
    parser.add_argument("--minutes", type=number(0, 10 ** 7), help="stop after this many minutes (default: until "
                        "Ctrl-C or the search ends)")
    parser.add_argument("--resume", metavar="FOLDER", help="continue the search saved in FOLDER")
    parser.add_argument("--out", metavar="FOLDER",
                        help="where bests and checkpoints go (default: a new folder GAME-...-DATE-TIME in the "
                        "data folder's 'searches': $KIBITZ_DATA_DIR, else ~/.local/share/kibitz on Linux, "
                        "~/Library/Application Support/kibitz on macOS, %%LOCALAPPDATA%%\\kibitz on Windows)")
    parser.add_argument("--checkpoint-seconds", type=number(0, 86_400), default=30.0,
                        help="how often the search saves its state, above 0 and at most 86,400 (default 30)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run the search on a Ray cluster: 'local' (start Ray on this machine), 'auto' (the "
                        "cluster this machine joined with 'ray start') or ray://HOST:PORT; needs "
                        'pip install "kibitz[cluster]"')
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def output_folder(args, name: str) -> Path:
    """``--out``, else a new folder NAME-DATE-TIME under the data folder's ``searches``."""
    return Path(args.out) if args.out else new_search_folder(name)


def cluster_address(args) -> str | None:
    """``--cluster``, checked, and the cluster joined, before anything is written (a wrong
    address, a missing Ray or an unreachable cluster leaves no folder behind)."""
    if not getattr(args, "cluster", None):
        return None
    from advisors import cluster
    from app.cli.reporting import progress as say_progress

    address = cluster.check_address(args.cluster)
    cluster.ray_module()
    say_progress(f"joining the cluster at {address}…" if address != cluster.LOCAL else "starting Ray on this machine…")
    cluster.connect(address, cpus=getattr(args, "workers", None))
    return address
