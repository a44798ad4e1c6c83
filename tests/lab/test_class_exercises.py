"""The class's exercises against the real lab server: send, predict, and the histogram without names."""

from __future__ import annotations

import threading

import pytest

from overlapviz.exercises import get_exercise
from overlapviz.lab.class_predictions import MAX_NUMBER, number_bins
from overlapviz.lab.client import LabError, LabForbidden
from overlapviz.lab.follow_client import ExerciseSent, FollowStream
from tests.lab.lab_client_server import LabAccess, access
from tests.lab.lab_server import LabServer, shared_lab_server  # noqa: F401 (the server fixture)

CHOICE, NUMBER = "overlap-which-first", "pinned-bandwidth"


@pytest.fixture
def server(lab_server: LabServer) -> LabAccess:
    return access(lab_server)


def instructor(server: LabAccess):
    return server.client(server.instructor_token, "instructor")


def test_learners_predictions_come_back_as_counts_per_choice_without_ids(server: LabAccess) -> None:
    sent = instructor(server).send_exercise(CHOICE)
    keys = [choice.key for choice in get_exercise(CHOICE).choices]
    picks = [keys[0], keys[0], keys[1]]
    for index, pick in enumerate(picks):
        server.client(client_id=f"learner-{index}").predict(CHOICE, sent["round"], pick)
    seen = instructor(server).class_predictions(CHOICE)
    assert seen["round"] == sent["round"] and seen["count"] == len(picks)
    assert seen["histogram"] == [{"answer": key, "count": picks.count(key)} for key in keys]
    assert "learner-" not in str(seen)


def test_a_second_prediction_replaces_the_first(server: LabAccess) -> None:
    sent = instructor(server).send_exercise(CHOICE)
    keys = [choice.key for choice in get_exercise(CHOICE).choices]
    learner = server.client(client_id="changes-mind")
    learner.predict(CHOICE, sent["round"], keys[0])
    learner.predict(CHOICE, sent["round"], keys[1])
    seen = instructor(server).class_predictions(CHOICE)
    assert seen["count"] == 1
    assert {bar["answer"]: bar["count"] for bar in seen["histogram"]} == {key: int(key == keys[1]) for key in keys}


def test_a_new_send_starts_a_new_round_with_no_predictions(server: LabAccess) -> None:
    first = instructor(server).send_exercise(CHOICE)
    server.client(client_id="early").predict(CHOICE, first["round"], get_exercise(CHOICE).choices[0].key)
    second = instructor(server).send_exercise(CHOICE)
    assert second["round"] > first["round"]
    assert instructor(server).class_predictions(CHOICE)["count"] == 0
    with pytest.raises(LabError, match=f"round {first['round']} .* is over"):
        server.client(client_id="late").predict(CHOICE, first["round"], get_exercise(CHOICE).choices[0].key)


def test_numbers_are_binned_and_the_bins_hold_every_prediction(server: LabAccess) -> None:
    sent = instructor(server).send_exercise(NUMBER)
    numbers = [12.0, 30.5, 55.0, 56.0, 58.5, 90.0]
    for index, number in enumerate(numbers):
        server.client(client_id=f"guess-{index}").predict(NUMBER, sent["round"], number)
    seen = instructor(server).class_predictions(NUMBER)
    bins = seen["histogram"]
    assert seen["count"] == len(numbers) and sum(bar["count"] for bar in bins) == len(numbers)
    assert bins[0]["bin"][0] <= min(numbers) and bins[-1]["bin"][1] > max(numbers)
    for bar in bins:
        low, high = bar["bin"]
        assert bar["count"] == sum(low <= n < high for n in numbers)
    assert seen["measured"] == get_exercise(NUMBER).prediction.answer


def test_bins_are_at_least_the_tolerance_wide_and_cover_equal_answers() -> None:
    assert number_bins([5.0, 5.0]) == [(5.0, 6.0, 2)]  # one bin, a unit wide, where every answer agrees
    wide = number_bins([50.0, 52.0, 60.0], tolerance=10.0)
    assert all(high - low == 10.0 for low, high, _ in wide) and sum(n for *_, n in wide) == 3
    assert len(number_bins([float(n) for n in range(1000)])) <= 9
    assert number_bins([]) == []


def test_the_exercise_goes_to_every_follower_as_an_event(server: LabAccess) -> None:
    stream = FollowStream(server.client(client_id="follower-ex"))
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.extend(_first_exercise(stream)), daemon=True)
    reader.start()
    for _ in range(200):  # until the server counts the follower
        if instructor(server).status()["followers"] >= 1:
            break
        threading.Event().wait(0.05)
    sent = instructor(server).send_exercise(CHOICE)
    reader.join(20)
    stream.close()
    assert got == [ExerciseSent(CHOICE, sent["round"])]


def _first_exercise(stream: FollowStream) -> list[ExerciseSent]:
    for event in stream.events():
        if isinstance(event, ExerciseSent):
            return [event]
    return []


@pytest.mark.parametrize(
    ("path", "body", "who", "status", "words"),
    [
        ("/v1/exercise", {"exercise": CHOICE}, "class", 403, "only the instructor"),
        ("/v1/exercise", {"exercise": "no-such"}, "instructor", 400, "unknown exercise 'no-such'"),
        ("/v1/exercise", {"exercise": CHOICE, "x": 1}, "instructor", 400, "unknown key 'x'"),
        ("/v1/exercise", [1], "instructor", 400, "JSON object"),
        ("/v1/predictions?exercise=" + CHOICE, None, "class", 403, "only the instructor"),
        ("/v1/predictions", None, "instructor", 400, "give the exercise"),
        ("/v1/predictions?exercise=no-such", None, "instructor", 400, "unknown exercise"),
        ("/v1/predictions", {"exercise": CHOICE, "round": 1, "answer": "x"}, "instructor", 403, "as a learner"),
        ("/v1/predictions", {"exercise": "enough-chunks", "round": 1, "answer": 1}, "class", 400, "challenge"),
        ("/v1/predictions", {"exercise": CHOICE, "round": 1, "answer": "nope"}, "class", 400, "one of the choices"),
        ("/v1/predictions", {"exercise": NUMBER, "round": 1, "answer": "many"}, "class", 400, "asks for a number"),
        ("/v1/predictions", {"exercise": NUMBER, "round": 1, "answer": MAX_NUMBER * 10}, "class", 400, "out of range"),
        ("/v1/predictions", {"exercise": NUMBER, "round": 1, "answer": True}, "class", 400, "asks for a number"),
    ],
)
def test_refusals_are_one_json_line(lab_server: LabServer, path, body, who, status, words) -> None:
    token = lab_server.printed["instructor token"] if who == "instructor" else None
    answer = lab_server.call(path, body, token=token, client="refused")
    assert answer.status == status and words in answer.body["error"]


def test_a_prediction_before_any_send_or_too_large_is_refused(server: LabAccess, lab_server: LabServer) -> None:
    with pytest.raises(LabError, match="has not sent 'pinned-reuse'"):
        server.client().predict("pinned-reuse", 1, "once")
    answer = lab_server.call("/v1/predictions", raw=b'{"answer": "' + b"x" * 10_000 + b'"}')
    assert answer.status == 413
    assert lab_server.call("/v1/predictions", raw=b'{"answer": NaN}').status == 400
    assert lab_server.call("/v1/exercise", {"exercise": CHOICE}, token="wrong").status == 401


def test_the_client_says_forbidden_for_the_wrong_role(server: LabAccess) -> None:
    with pytest.raises(LabForbidden, match="only the instructor"):
        server.client().class_predictions(CHOICE)
