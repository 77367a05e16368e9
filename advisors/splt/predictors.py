"""The two SPL-T warnings of spec 3.5: "new halving" and "unexpected cluster".

- **New halving**: a split that makes point blocks; will their explosion be a halving event of its
  own for what lies above them? Decided by the reference's stack walk and countdown simulation, so
  the answers equal josh-holder/SPLT's (where the reference answers at all). The reference also
  answers yes for a cluster with no point block under it (it rests on a plain box or the floor):
  nothing can explode with it, trivially. :attr:`HalvingForecast.stacked` tells that case apart;
  the advisor does not call such a cluster a new halving (it adds no halving to any stack).
- **Unexpected cluster**: does the split make boxes fall into a 2x2 group of equal plain boxes the
  player did not make directly? Decided by playing the turn in the engine: exactly the late clusters
  of spec 1.3 step 7 after a fall.
"""

from __future__ import annotations

import dataclasses

from engines.splt import fast, reference
from engines.splt.events import BoxFell, PointBlocksCreated
from engines.splt.state import HEIGHT, Box, Move, State


PLAIN = "plain"
FLOOR = "floor"


@dataclasses.dataclass(frozen=True)
class HalvingForecast:
    """What the stack simulation says about the cluster a split makes.

    ``new_halving`` is the reference's answer (some lowest member's stack ends with one 0). The
    other fields describe the one stack the forecast shows: a lowest member's whose simulation
    qualifies with a point block in it, else one with a point block in it, else any walked one.
    """

    new_halving: bool
    halvings: int  # halvings the new cluster's blocks receive before they explode (best case)
    stack: tuple[int, ...]  # the walked stack under the shown member, top first; () = walk gave up
    base: str = ""  # what ended that walk: PLAIN (a plain box), FLOOR (past row 15), "" (gave up)
    adds_halving: bool = False  # new halving with a point block under it (see ``stacked``)

    @property
    def stacked(self) -> bool:
        """Some point block lies under the cluster (between it and the first plain box or the
        floor), counting down before it: the stack has more than the new blocks' own entry. Only
        then does the cluster's explosion add a halving to a stack, and only then do the blocks
        under it halve it (a stacked cluster always gets at least one halving, as every entry
        below the new blocks' is smaller)."""
        return len(self.stack) > 1

    @property
    def known(self) -> bool:
        """False when the walk gave up under every lowest member (blocks under the cluster that
        explode at different times): the forecast cannot tell how often it is halved."""
        return bool(self.stack)


def _halve(value: int) -> int:
    return value // 2 if value > 1 else value


def simulate_stack(stack: list[int]) -> tuple[list[int], int]:
    """Spec 3.5 step 3.2: count the stack down until its top entry reaches 0; each time entries
    below reach 0, everything above the lowest 0 is halved. Returns the final stack and how many
    times the top entry was halved."""
    entries = list(stack)
    halvings = 0
    while entries[0] > 0:
        if 0 in entries:
            last_zero = len(entries) - 1 - entries[::-1].index(0)
            for position in range(last_zero):
                entries[position] = _halve(entries[position])
            halvings += 1
            entries = [value for value in entries if value != 0]
        # nothing happens until the smallest entry reaches 0: count down to it in one step (a
        # position late in a long game would otherwise take as many steps as its split count)
        steps = max(1, min(entries))
        entries = [value - steps for value in entries]
    return entries, halvings


def _walk_stack(boxes: list[Box], representative: Box, top_value: int) -> tuple[list[int], str] | None:
    """The stack under ``representative``, top first (spec 3.5 step 3.1), and what ended it
    (:data:`PLAIN` or :data:`FLOOR`); None when the walk gives up (values that disagree in a row,
    or nothing under the block)."""
    stack = [top_value]
    left, right = representative.x, representative.right
    for row in range(representative.bottom, HEIGHT):
        value: int | None = None
        last: Box | None = None
        complete = False
        for box in boxes:  # list order
            if not (box.y <= row < box.bottom) or box.x >= right or box.right <= left:
                continue
            if value is not None and box.points - 1 != value:
                return None
            if box.is_plain:
                complete = True
                break
            value = box.points - 1
            last = box
        if complete:
            return stack, PLAIN
        if last is None or value is None:
            return None
        left, right = last.x, last.right
        stack.append(value)
    return stack, FLOOR


def halving_forecast(state: State, move: Move, members: list[int] | None = None) -> HalvingForecast | None:
    """None when the split makes no cluster; otherwise whether the cluster's explosion is a new
    halving event and how many halvings its blocks get. ``members`` (from
    ``reference.split_cluster``) saves recomputing the cluster when the caller has it."""
    index = state.resolve(move)
    if members is None:
        members = reference.split_cluster(state, index)
    if not members:
        return None
    boxes = list(state.boxes)
    box = boxes[index]
    if state.orientation == "H":
        first = Box(box.x, box.y, box.w, box.h // 2)
        second = Box(box.x, box.y + box.h // 2, box.w, box.h // 2)
    else:
        first = Box(box.x, box.y, box.w // 2, box.h)
        second = Box(box.x + box.w // 2, box.y, box.w // 2, box.h)
    boxes[index] = first
    boxes.append(second)
    group = {*members, len(boxes) - 1}  # the new half counts even when it is not a member
    lowest_top = max(boxes[i].y for i in group)
    representatives = sorted(i for i in group if boxes[i].y == lowest_top)
    forecasts: list[HalvingForecast] = []
    for position in representatives:
        walked = _walk_stack(boxes, boxes[position], state.splits + 1)
        if walked is None:
            continue
        stack, base = walked
        final, halvings = simulate_stack(stack)
        forecasts.append(HalvingForecast(final.count(0) == 1, halvings, tuple(stack), base))
    if not forecasts:
        return HalvingForecast(False, 0, ())
    qualifies = any(forecast.new_halving for forecast in forecasts)
    adding = [forecast for forecast in forecasts if forecast.new_halving and forecast.stacked]
    shown = (adding or [forecast for forecast in forecasts if forecast.stacked] or forecasts)[0]
    return dataclasses.replace(shown, new_halving=qualifies, adds_halving=bool(adding))


def makes_new_halving(state: State, move: Move) -> bool:
    """The reference's answer (spec 3.5), including the trivial yes for a cluster with no point
    block under it."""
    forecast = halving_forecast(state, move)
    return forecast is not None and forecast.new_halving


def unexpected_cluster(state: State, move: Move) -> tuple[Box, ...]:
    """The boxes that fall into a cluster the split did not make directly (empty when none)."""
    step = fast.play(state, move)
    if not any(isinstance(event, BoxFell) for event in step.events):
        return ()
    late: list[Box] = []
    for event in step.events:
        if isinstance(event, PointBlocksCreated) and event.late:
            late.extend(event.boxes)
    return tuple(late)
