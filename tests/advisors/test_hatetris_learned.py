"""The learned evaluation of HATETRIS wells: its inputs on hand-worked wells, the kernel's network
against a plain numpy forward pass, the beam's cost with it, network files (sound and damaged),
and the beam and the command line with the shipped network."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from advisors.hatetris import kernel, learned
from advisors.hatetris.beam import BeamSearch, BeamSettings
from advisors.hatetris.heuristic import BEAM_WEIGHTS, DF_WEIGHTS, TERM_NAMES, heuristic_terms
from app import cli
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.hatetris import GAME, Rules, codecs
from engines.hatetris.fast import well_array


def well_of(rows_from_bottom: dict[int, str]) -> tuple[int, ...]:
    """A 20-row well from strings of '#'/'.' keyed by row number (19 = bottom); x = bit x."""
    well = [0] * 20
    for row, text in rows_from_bottom.items():
        well[row] = sum(1 << x for x, char in enumerate(text) if char == "#")
    return tuple(well)


SHAFT = well_of({16: "#.........", 17: "##.####.##", 18: "########.#", 19: "####.#####"})


def random_network(units: int = 5, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    inputs = kernel.feature_count(10)
    return learned.pack(rng.normal(0, 3, inputs), rng.uniform(0.5, 4, inputs), rng.normal(0, 0.4, (inputs, units)),
                        rng.normal(0, 1, units), rng.normal(0, 2, units), 1.25)


def numpy_value(network: np.ndarray, features: np.ndarray) -> float:
    """The network's value written out independently of the kernel: tanh(x W + b) . v + c."""
    inputs, units = int(network[0]), int(network[1])
    at = 2
    means = network[at:at + inputs]
    scales = network[at + inputs:at + 2 * inputs]
    at += 2 * inputs
    hidden = network[at:at + inputs * units].reshape(inputs, units)
    at += inputs * units
    biases, outputs, bias = network[at:at + units], network[at + units:at + 2 * units], network[at + 2 * units]
    return float(np.tanh(((features - means) / scales) @ hidden + biases) @ outputs + bias)


def test_the_inputs_of_a_hand_worked_well():
    features = learned.well_features(np.array([SHAFT]), 10)[0]
    terms = dict(heuristic_terms(SHAFT, 0))
    # The terms but the score, in kernel order, as the advisor shows them.
    assert list(features[:7]) == [terms[name] for name in TERM_NAMES[:8] if name != "score"]
    # Column heights (rows from the floor to the highest filled cell), x = 0 .. 9: column 0 is
    # filled up to row 16 (4 rows), columns 1, 3-6, 8, 9 to row 17 (3), column 2 to row 18 (2),
    # column 7 to row 18 (2).
    assert list(features[7:17]) == [4, 3, 2, 3, 3, 3, 3, 2, 3, 3]
    # Filled cells of the six rows from the stack's top (row 16) down; rows past the floor are full.
    assert list(features[17:]) == [1, 8, 9, 9, 10, 10]


def test_the_empty_well_has_no_heights_and_empty_top_rows():
    features = learned.well_features(np.zeros((1, 20), dtype=np.int64), 10)[0]
    assert list(features[7:17]) == [0] * 10
    # The stack's top of an empty well is the floor: the six rows from there are past it, full.
    assert list(features[17:]) == [10] * 6


def test_the_kernels_network_is_the_plain_forward_pass():
    network = random_network()
    wells = [SHAFT, well_of({19: "#########."}), (0,) * 20]
    features = learned.well_features(np.array(wells), 10)
    for row in features:
        assert kernel.network_value(network, row.copy()) == pytest.approx(numpy_value(network, row), abs=1e-12)


@pytest.mark.parametrize("levels", [0, 4])
def test_the_beams_cost_is_the_hand_cost_less_the_networks_value(levels):
    network = random_network()
    weights = np.array(DF_WEIGHTS)
    well = well_array(SHAFT)
    positions = np.empty((512, 3), dtype=np.int64)
    work = kernel.work_space(20, levels)
    hand = kernel.quiescent_cost(well, 10, 20, 3, weights, 0, positions, work, kernel.scratch_space(10),
                                 kernel.NO_NETWORK)
    with_network = kernel.quiescent_cost(well, 10, 20, 3, weights, 0, positions, work, kernel.scratch_space(10),
                                         network)
    features = learned.well_features(np.array([SHAFT]), 10)[0]
    assert with_network == pytest.approx(hand - numpy_value(network, features), abs=1e-9)
    # With the lookahead the cost can only be lower (the best of the well and its chain).
    chained = kernel.quiescent_cost(well, 10, 20, 3, weights, levels, positions, work, kernel.scratch_space(10),
                                    network)
    assert chained <= with_network + 1e-9


def saved(tmp_path, name="net.npz", **changes) -> str:
    parts = {"network": random_network(), "weights": np.zeros(len(TERM_NAMES)),
             "well": np.array([10, 20], dtype=np.int64), "facts": np.array(json.dumps({"samples": 3}))}
    parts.update(changes)
    buffer = io.BytesIO()
    np.savez(buffer, **parts)
    path = tmp_path / name
    path.write_bytes(buffer.getvalue())
    return str(path)


def test_a_network_file_round_trips(tmp_path):
    network = learned.Network(random_network(), tuple(float(i) for i in range(len(TERM_NAMES))), 10, 20,
                               {"units": 5})
    path = tmp_path / "round.npz"
    network.save(path)
    back = learned.load(path)
    assert np.array_equal(back.network, network.network)
    assert back.weights == network.weights and (back.width, back.depth) == (10, 20) and back.facts == {"units": 5}
    assert back.value(SHAFT) == pytest.approx(numpy_value(network.network,
                                                          learned.well_features(np.array([SHAFT]), 10)[0]))


@pytest.mark.parametrize("changes, message", [
    ({"network": np.zeros(3)}, "the network must have 23 inputs for a 10-wide well"),
    ({"network": np.concatenate([[23, 0], np.zeros(50)])},
     "the network's hidden units must be a whole number from 1 to 256, not 0.0"),
    ({"network": np.concatenate([[23, 2.5], np.zeros(50)])},
     "the network's hidden units must be a whole number from 1 to 256, not 2.5"),
    ({"network": np.concatenate([[23, 5], np.zeros(10)])},
     "the network has 12 numbers; 23 inputs and 5 units take 174"),
    ({"network": np.concatenate([[23, 5], np.ones(172)]) * np.where(np.arange(174) == 30, np.nan, 1)},
     "the array 'network' holds a value that is not finite"),
    ({"network": np.concatenate([[23, 5], np.zeros(172)])}, "an input's scale is not above 0"),
    ({"weights": np.zeros(7)}, "the array 'weights' has 7 weights, not 11 (holes, enclosed holes, enclosed-hole "
                               "lines, surface depth, erasable pieces, score, stack height, cells S cannot reach, "
                               "S surface depth, edge column heights, surface depth after one clear)"),
    ({"well": np.array([10.0, 20.0])}, "the array 'well' is float64, not int64"),
    ({"facts": np.array([1, 2])}, "the array 'facts' must be one text"),
    ({"facts": np.array("[1, 2]")}, "the facts must be a JSON object"),
])
def test_a_damaged_network_file_is_named_with_the_reason(tmp_path, changes, message):
    path = saved(tmp_path, **changes)
    with pytest.raises(KibitzInputError) as caught:
        learned.load(path)
    assert str(caught.value) == f"{path}: {message}"


def test_a_network_saved_before_the_last_terms_weighs_them_0(tmp_path):
    # the shipped network was saved with eight term weights, before Tim's three terms
    shipped = learned.shipped()
    assert len(shipped.weights) == len(TERM_NAMES) and shipped.weights[8:] == (0.0, 0.0, 0.0)
    path = saved(tmp_path, weights=np.arange(8, dtype=np.float64))
    assert learned.load(path).weights == (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0, 0.0)
    # and one saved with ten, before the surface after one clear
    path = saved(tmp_path, name="ten.npz", weights=np.arange(10, dtype=np.float64))
    assert learned.load(path).weights == (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 0.0)


def test_a_truncated_or_foreign_network_file(tmp_path):
    whole = open(saved(tmp_path), "rb").read()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(KibitzInputError, match=f"^{cut}: damaged archive"):
        learned.load(cut)
    other = tmp_path / "other.npz"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("readme.txt", "not a network")
    with pytest.raises(KibitzInputError, match=f"^{other}: the archive lacks network, weights, well, facts$"):
        learned.load(other)


def test_the_shipped_network_loads_and_values_a_healthy_well_above_a_dying_one():
    network = learned.shipped()
    assert (network.width, network.depth) == (10, 20) and network.units <= learned.MAX_UNITS
    assert network.weights[TERM_NAMES.index("score")] == -1.0
    # Lines still to come: a flat well with a clearable row against one stacked to the bar with
    # holes in every row (the AI's pieces can clear nothing there).
    flat = well_of({19: "#########."})
    dying = well_of({row: "#.#.#.#.#." if row % 2 else ".#.#.#.#.#" for row in range(5, 20)})
    assert network.value(flat) > network.value(dying)


def test_settings_name_their_evaluation():
    with pytest.raises(KibitzInputError, match="the evaluation must be hand or learned, not 'neural'"):
        BeamSettings(evaluation="neural")
    old = {"width": 10, "lookahead": 0, "weights": list(DF_WEIGHTS[:8])}  # saved before the learned evaluation
    assert BeamSettings.from_json(old).evaluation == "hand"
    assert BeamSettings.from_json(old).weights == DF_WEIGHTS  # and before Tim's terms: weighed 0
    saved_with_ten = BeamSettings.from_json({**old, "weights": list(DF_WEIGHTS[:10])})  # before the last term
    assert saved_with_ten.weights == DF_WEIGHTS
    with pytest.raises(KibitzInputError, match="11 weights expected"):
        BeamSettings.from_json({**old, "weights": list(DF_WEIGHTS[:9])})
    assert BeamSettings.from_json({**old, "evaluation": "learned"}).evaluation == "learned"
    with pytest.raises(KibitzInputError, match="'evaluation'"):
        BeamSettings.from_json({**old, "evaluation": 1}, "beam.npz")


def test_an_evaluation_by_name_is_its_weight_set_or_the_network():
    assert BeamSettings.named(500, 8, "df") == BeamSettings(500, 8, DF_WEIGHTS)
    assert BeamSettings.named(500, 8, "df").evaluation_name == "df"
    assert BeamSettings.named(500, 0, "kibitz").weights == BEAM_WEIGHTS
    # D&F's set with Tim's three terms weighed on top: theirs unchanged, the other S term still 0
    tim = BeamSettings.named(500, 8, "df-tim")
    assert tim.weights[:8] == DF_WEIGHTS[:8] and tim.evaluation_name == "df-tim"
    assert [tim.weights[TERM_NAMES.index(name)] != 0 for name in
            ("S surface depth", "edge column heights", "surface depth after one clear")] == [True, True, True]
    learned_settings = BeamSettings.named(500, 4, "learned")
    assert (learned_settings.evaluation, learned_settings.evaluation_name) == ("learned", "learned")
    assert BeamSettings(500, 0, (1.0,) * len(TERM_NAMES)).evaluation_name is None  # tuned weights of no set
    with pytest.raises(KibitzInputError, match="the evaluation must be one of df, df-tim, kibitz, learned, not 'nnue'"):
        BeamSettings.named(500, 0, "nnue")


def test_a_learned_beam_plays_a_game_the_engine_replays():
    search = BeamSearch(Line(GAME.initial_state(), ()), BeamSettings(width=30, lookahead=2, evaluation="learned"))
    result = search.run(threads=1)
    assert result.finished
    played = GAME.replay_keys(codecs.decode(result.replay))
    assert played.over and played.score == result.score


def test_a_learned_beam_refuses_a_well_of_another_size():
    start = GAME.initial_state(Rules(width=8, depth=20))
    with pytest.raises(KibitzInputError, match="the learned evaluation is for 10 x 20 wells, not 8 x 20"):
        BeamSearch(Line(start, ()), BeamSettings(width=10, evaluation="learned"))


def test_the_command_line_searches_with_the_learned_evaluation(capsys, tmp_path):
    code = cli.main(["search", "hatetris", "--width", "20", "--evaluation", "learned", "--out", str(tmp_path / "b"),
                     "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["evaluation"] == "learned"
    assert GAME.replay_keys(codecs.decode(result["replay"])).score == result["score"]
    code = cli.main(["search", "hatetris", "--evaluation", "learned", "--weights", "df", "--out", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert code == 2
    assert "--weights is for the hand heuristic; the learned evaluation brings its own" in err
