"""The fair queue takes clients in turn: a client with many jobs gets one per round."""

from overlapviz.lab.fair_queue import FairQueue


def _order(queue):
    return [client for client, _ in iter(queue.pop, None)]


def test_a_client_that_queued_many_jobs_gets_one_per_round():
    queue = FairQueue()
    for n in range(4):
        queue.push("hog", f"hog-{n}")
    queue.push("a", "a-0")
    queue.push("b", "b-0")
    queue.push("a", "a-1")
    assert _order(queue) == ["hog", "a", "b", "hog", "a", "hog", "hog"]


def test_a_client_that_arrives_goes_before_those_served_this_round():
    queue = FairQueue()
    for n in range(3):
        queue.push("hog", n)
    assert queue.pop() == ("hog", 0)
    queue.push("late", "x")
    assert queue.position("late") == 1
    assert queue.position("hog") == 2
    assert _order(queue) == ["late", "hog", "hog"]


def test_a_client_back_after_its_line_emptied_does_not_jump_the_round():
    queue = FairQueue()
    queue.push("a", 1)
    queue.push("b", 1)
    queue.push("b", 2)
    assert queue.pop() == ("a", 1)  # a's line is empty now
    assert queue.pop() == ("b", 1)
    queue.push("a", 2)  # a comes back at the turn now served: b's second job was there first
    assert _order(queue) == ["b", "a"]


def test_positions_counts_and_drain_agree_with_the_order_of_pops():
    queue = FairQueue()
    for client, count in (("x", 3), ("y", 1), ("z", 2)):
        for n in range(count):
            queue.push(client, (client, n))
    assert len(queue) == 6
    assert (queue.queued_of("x"), queue.queued_of("nobody")) == (3, 0)
    assert [queue.position(c) for c in ("x", "y", "z", "nobody")] == [1, 2, 3, 0]
    assert [item[0] for item in queue.drain()] == ["x", "y", "z", "x", "z", "x"]
    assert len(queue) == 0
    assert queue.pop() is None


def test_position_is_the_place_in_the_order_jobs_are_taken():
    queue = FairQueue()
    for n in range(3):
        queue.push("early", n)
    queue.pop()
    queue.pop()  # early is two turns ahead of anyone who arrives now
    queue.push("new", 0)
    queue.push("other", 0)
    places = {client: queue.position(client) for client in ("early", "new", "other")}
    popped = _order(queue)
    assert places == {"early": 3, "new": 1, "other": 2}
    assert {client: popped.index(client) + 1 for client in places} == places
