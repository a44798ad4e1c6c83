"""One device's waiting jobs, taken round-robin by client.

Each client has its own line; `pop` takes the oldest job of the client whose turn it is and
sends that client to the back. So a client that queued many jobs gets one run per round, like
everyone else: thirty learners each with one job wait no longer for one learner with ten.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Generic, TypeVar

Item = TypeVar("Item")


class FairQueue(Generic[Item]):
    """Jobs by client, popped in turn: the first waiting client's oldest job, then that client to the back."""

    def __init__(self) -> None:
        self._lines: OrderedDict[str, deque[Item]] = OrderedDict()

    def push(self, client: str, item: Item) -> None:
        """Queue `item` behind `client`'s other jobs; a new client joins at the back of the round."""
        self._lines.setdefault(client, deque()).append(item)

    def pop(self) -> tuple[str, Item] | None:
        """The next job and its client, or None when nothing waits."""
        if not self._lines:
            return None
        client, line = next(iter(self._lines.items()))
        item = line.popleft()
        if line:
            self._lines.move_to_end(client)
        else:
            del self._lines[client]
        return client, item

    def queued_of(self, client: str) -> int:
        """How many of `client`'s jobs wait."""
        line = self._lines.get(client)
        return len(line) if line else 0

    def position(self, client: str) -> int:
        """The 1-based turn of `client`'s oldest waiting job; 0 if none waits."""
        for place, name in enumerate(self._lines, start=1):
            if name == client:
                return place
        return 0

    def drain(self) -> list[Item]:
        """Take every waiting job out (at shutdown), oldest round first."""
        items = []
        while (popped := self.pop()) is not None:
            items.append(popped[1])
        return items

    def __len__(self) -> int:
        return sum(len(line) for line in self._lines.values())
