"""One device's waiting jobs, taken in turn by client (round-robin).

Each client has its own line and a turn number: `pop` takes the oldest job of the client
with the lowest turn (the earliest to arrive among equals) and moves that client on a turn.
A client that arrives starts at the turn now being served, so it goes before everyone who
has been served this round already; a client back soon after its line emptied starts no
earlier than the turn after its last, so leaving and coming back wins nothing. So a client
that queued ten jobs gets one run per round, like everyone else, and thirty learners with
one job each wait no longer for it.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Item = TypeVar("Item")


@dataclass
class _Line(Generic[Item]):
    turn: int
    arrival: int
    items: deque[Item] = field(default_factory=deque)

    @property
    def order(self) -> tuple[int, int]:
        return self.turn, self.arrival


def _taken_before(other: _Line[Item], line: _Line[Item]) -> int:
    """How many of `other`'s jobs are taken before `line`'s oldest: one a turn until `line`'s turn comes."""
    turns = line.turn - other.turn + (other.arrival < line.arrival)
    return max(0, min(len(other.items), turns))


class FairQueue(Generic[Item]):
    """Jobs by client, popped in turn (see the module's docstring)."""

    def __init__(self) -> None:
        self._lines: dict[str, _Line[Item]] = {}
        self._turn = 0  # the turn of the last job popped: where a client that arrives starts
        self._arrivals = itertools.count()
        self._next_turns: dict[str, int] = {}  # clients whose line emptied: the turn their next job takes

    def push(self, client: str, item: Item) -> None:
        """Queue `item` behind `client`'s other jobs."""
        line = self._lines.get(client)
        if line is None:
            turn = max(self._turn, self._next_turns.pop(client, 0))
            line = self._lines[client] = _Line(turn, next(self._arrivals))
        line.items.append(item)

    def pop(self) -> tuple[str, Item] | None:
        """The next job and its client, or None when nothing waits."""
        if not self._lines:
            return None
        client, line = min(self._lines.items(), key=lambda pair: pair[1].order)
        self._turn = line.turn
        item = line.items.popleft()
        line.turn += 1
        if not line.items:
            del self._lines[client]
            self._next_turns[client] = line.turn
            self._forget_past_turns()
        return client, item

    def _forget_past_turns(self) -> None:
        """Drop the next turns that the turn now served has caught up with: they decide nothing any more."""
        if len(self._next_turns) > 2 * len(self._lines) + 16:
            self._next_turns = {client: turn for client, turn in self._next_turns.items() if turn > self._turn}

    def queued_of(self, client: str) -> int:
        """How many of `client`'s jobs wait."""
        line = self._lines.get(client)
        return len(line.items) if line else 0

    def position(self, client: str) -> int:
        """The 1-based place of `client`'s oldest waiting job in the order jobs will be taken; 0 if none waits."""
        line = self._lines.get(client)
        if line is None:
            return 0
        return 1 + sum(_taken_before(other, line) for other in self._lines.values() if other is not line)

    def drain(self) -> list[Item]:
        """Take every waiting job out (at shutdown), in the order they would have run."""
        items = []
        while (popped := self.pop()) is not None:
            items.append(popped[1])
        return items

    def __len__(self) -> int:
        return sum(len(line.items) for line in self._lines.values())
