"""The instructor's runs, broadcast to every follower as Server-Sent Events.

Each follower has a small queue of its own; a follower too slow to keep up loses its oldest
runs rather than holding the others back or growing without bound. A keep-alive comment
every `KEEP_ALIVE_S` keeps proxies and idle connections open.
"""

from __future__ import annotations

import asyncio
import contextlib

from aiohttp import web

KEEP_ALIVE_S = 15.0
FOLLOWER_BACKLOG = 8  # runs kept for a follower that reads slowly


class Followers:
    """The followers' queues; `publish` puts a run on each."""

    def __init__(self, keep_alive_s: float = KEEP_ALIVE_S) -> None:
        self.keep_alive_s = keep_alive_s
        self._queues: set[asyncio.Queue[bytes | None]] = set()

    def __len__(self) -> int:
        return len(self._queues)

    def publish(self, answer: str, event: str = "run") -> None:
        """Send one `event` to every follower: a run (a POST /v1/runs answer) or an exercise, JSON text on one line."""
        if not self._queues:
            return
        message = f"event: {event}\ndata: ".encode() + answer.encode() + b"\n\n"
        for queue in self._queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    def close(self) -> None:
        """End every follower's stream (the server is stopping)."""
        for queue in self._queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(None)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """Answer GET /v1/follow: the runs as they come, until the follower or the server goes."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(FOLLOWER_BACKLOG)
        self._queues.add(queue)
        try:
            await response.write(b": following the instructor's runs\n\n")
            while (message := await self._next(queue)) is not None:
                await response.write(message)
        except ConnectionError:
            pass
        finally:
            self._queues.discard(queue)
        with contextlib.suppress(ConnectionError):
            await response.write_eof()
        return response

    async def _next(self, queue: asyncio.Queue[bytes | None]) -> bytes | None:
        try:
            return await asyncio.wait_for(queue.get(), self.keep_alive_s)
        except TimeoutError:
            return b": keep-alive\n\n"
