"""The class's exercises on the lab server: POST /v1/exercise, POST and GET /v1/predictions (docs/lab.md).

The instructor sends a shipped exercise to every follower (an ``exercise`` event on
``GET /v1/follow``), which starts a new round; learners post their predictions for it; the
instructor reads the class's answers back as a histogram, with no names (`class_predictions`).
The routes check the credential with the server's own `authorize`, handed in by `add_class_routes`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from overlapviz.core.i18n import _
from overlapviz.exercises import Exercise, ExerciseError, load_exercises
from overlapviz.lab.class_predictions import ClassRounds, PredictionError, RoundFull
from overlapviz.lab.credentials import Role
from overlapviz.lab.follow import Followers
from overlapviz.lab.http_errors import LabError, body_over_limit, body_too_slow
from overlapviz.lab.job_run import one_line

Authorize = Callable[[web.Request], tuple[Role, str]]
MAX_BODY_BYTES = 4096  # a name, a round and an answer
BODY_LIMIT_S = 30.0


@dataclass
class ClassExercises:
    """What the class's routes share: the server's credential check, its followers, the rounds."""

    authorize: Authorize
    followers: Followers
    rounds: ClassRounds = field(default_factory=ClassRounds)
    _exercises: dict[str, Exercise] | None = None

    async def exercise(self, name: Any) -> Exercise:
        """The shipped exercise called `name` (400 for none such)."""
        if self._exercises is None:
            try:  # read once, off the event loop: checking the files runs the model once
                self._exercises = await asyncio.to_thread(load_exercises)
            except ExerciseError as error:
                message = _("the server's exercises could not be read: {error}")
                raise LabError(400, message.format(error=error)) from None
        if not isinstance(name, str) or name not in self._exercises:
            known = ", ".join(self._exercises) or _("none")
            message = _("unknown exercise {name}; the exercises are: {known}")
            raise LabError(400, one_line(message.format(name=repr(name), known=known)))
        return self._exercises[name]


CLASS_KEY: web.AppKey[ClassExercises] = web.AppKey("class_exercises", ClassExercises)


def add_class_routes(app: web.Application, authorize: Authorize, followers: Followers) -> None:
    """Serve the class's exercise routes on `app`, checking credentials with `authorize`."""
    app[CLASS_KEY] = ClassExercises(authorize, followers)
    app.router.add_post("/v1/exercise", post_exercise)
    app.router.add_post("/v1/predictions", post_prediction)
    app.router.add_get("/v1/predictions", get_predictions)


def _caller(request: web.Request, instructor: bool, refusal: str) -> tuple[ClassExercises, str]:
    """The shared state and the caller's client id, once they showed the role the route needs (403 otherwise)."""
    room = request.app[CLASS_KEY]
    role, client = room.authorize(request)
    if (role is Role.INSTRUCTOR) != instructor:
        raise LabError(403, refusal)
    return room, client


async def post_exercise(request: web.Request) -> web.Response:
    """POST /v1/exercise ``{"exercise": NAME}``: send it to every follower as a new round."""
    room, _client = _caller(request, True, _("only the instructor sends exercises to the class"))
    body = await read_object(request, ("exercise",))
    exercise = await room.exercise(body.get("exercise"))
    number = room.rounds.send(exercise)
    sent = {"exercise": exercise.name, "round": number}
    room.followers.publish(json.dumps(sent), event="exercise")
    return web.json_response({**sent, "followers": len(room.followers)})


async def post_prediction(request: web.Request) -> web.Response:
    """POST /v1/predictions ``{"exercise", "round", "answer"}``: a learner's prediction, replacing their last."""
    room, client = _caller(
        request, False, _("the instructor's own prediction is not the class's: predict as a learner")
    )
    body = await read_object(request, ("exercise", "round", "answer"))
    exercise = await room.exercise(body.get("exercise"))
    try:
        room.rounds.predict(exercise, body.get("round"), client, body.get("answer"))
    except RoundFull as full:
        raise LabError(429, str(full), {"Retry-After": "60"}) from None
    except PredictionError as error:
        raise LabError(400, one_line(str(error))) from None
    return web.json_response({"exercise": exercise.name, "round": body["round"], "counted": True})


async def get_predictions(request: web.Request) -> web.Response:
    """GET /v1/predictions?exercise=NAME: the class's predictions of its latest round, as counts."""
    room, _client = _caller(request, True, _("only the instructor sees the class's predictions"))
    name = request.query.get("exercise")
    if not name:
        raise LabError(400, _("give the exercise: GET /v1/predictions?exercise=NAME"))
    return web.json_response(room.rounds.summary(await room.exercise(name)))


async def read_object(request: web.Request, keys: tuple[str, ...]) -> dict[str, Any]:
    """The body as a JSON object of `keys` at most (413 over `MAX_BODY_BYTES`, 408 too slow, 400 otherwise)."""
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise LabError(413, body_over_limit(MAX_BODY_BYTES))
    try:
        async with asyncio.timeout(BODY_LIMIT_S):
            raw = await request.content.read(MAX_BODY_BYTES + 1)
    except TimeoutError:
        raise LabError(408, body_too_slow(BODY_LIMIT_S)) from None
    if len(raw) > MAX_BODY_BYTES:
        raise LabError(413, body_over_limit(MAX_BODY_BYTES))
    not_object = _("the body must be a JSON object of: {keys}").format(keys=", ".join(keys))
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LabError(400, not_object) from None
    if not isinstance(body, dict):
        raise LabError(400, not_object)
    unknown = sorted(set(body) - set(keys))
    if unknown:
        message = _("unknown key {key}; the body may hold: {keys}")
        raise LabError(400, one_line(message.format(key=repr(unknown[0]), keys=", ".join(keys))))
    return body


def _no_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a number JSON allows").format(name=name))
