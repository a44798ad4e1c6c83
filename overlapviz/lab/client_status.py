"""What a user reads from the lab server's ``GET /v1/status``: their place in the queue, and who follows."""

from __future__ import annotations

from typing import Any

from overlapviz.core.i18n import _
from overlapviz.lab.client import LabClient, LabError
from overlapviz.lab.credentials import Role


def queue_position(client: LabClient) -> int:
    """The user's place in the queue (1: next), 0 when nothing of theirs waits or the server cannot say."""
    try:
        you = client.status().get("you")
    except LabError:
        return 0
    position = you.get("position") if isinstance(you, dict) else None
    return position if isinstance(position, int) and position > 0 else 0


def is_instructor(status: dict[str, Any]) -> bool:
    """Whether the credential that asked is the instructor's, as the server says of the caller."""
    you = status.get("you")
    return isinstance(you, dict) and you.get("role") == Role.INSTRUCTOR.value


def followers(status: dict[str, Any]) -> int:
    """How many follow the instructor now (0 when the server does not say)."""
    count = status.get("followers")
    return count if isinstance(count, int) and count >= 0 else 0


def waiting_text(position: int) -> str:
    """``Waiting for the lab GPU: 2nd in the queue`` in the active language; '' when not waiting.

    Each English ordinal ending is a sentence of its own, so that a language puts the place
    its own way (``第 2 位``).
    """
    if position <= 0:
        return ""
    if position == 1:
        return _("Waiting for the lab GPU: next in the queue")
    ending = "th" if 10 <= position % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(position % 10, "th")
    if ending == "st":
        message = _("Waiting for the lab GPU: {position}st in the queue")
    elif ending == "nd":
        message = _("Waiting for the lab GPU: {position}nd in the queue")
    elif ending == "rd":
        message = _("Waiting for the lab GPU: {position}rd in the queue")
    else:
        message = _("Waiting for the lab GPU: {position}th in the queue")
    return message.format(position=position)


def followers_text(count: int, instructor: bool) -> str:
    """``3 following you`` on the instructor's status bar, ``3 following the instructor`` on a learner's."""
    message = _("{count} following you") if instructor else _("{count} following the instructor")
    return message.format(count=count)
