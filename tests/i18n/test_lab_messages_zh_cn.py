"""The lab's words in Simplified Chinese: the client's status and refusals, the server's answers, its device workers.

The server answers in its own language (``overlapviz --lang zh_CN serve``): a request does not
say its client's. A device's worker is a spawned process, handed the server's language.
"""

import pytest

from overlapviz.core.i18n import set_language
from overlapviz.lab.client import LabError
from overlapviz.lab.client_result import lab_run
from overlapviz.lab.client_status import followers_text, waiting_text
from overlapviz.lab.job import JobFailed
from overlapviz.lab.limits import FailedLogins, OverShare
from overlapviz.lab.request import BadRequest, client_name, parse_run_request
from overlapviz.lab.worker_process import DeviceWorker


@pytest.fixture
def chinese():
    set_language("zh_CN")  # tests/i18n/conftest.py speaks English again after each test


def test_the_place_in_the_queue_reads_as_english_ordinals():
    places = {position: waiting_text(position) for position in (0, 1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)}
    assert places[0] == ""
    assert places[1] == "Waiting for the lab GPU: next in the queue"
    endings = {position: text.removeprefix("Waiting for the lab GPU: ").removesuffix(" in the queue")
               for position, text in places.items() if position > 1}  # fmt: skip
    assert endings == {2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd",
                       23: "23rd", 101: "101st", 111: "111th"}  # fmt: skip


def test_the_place_in_the_queue_reads_in_chinese(chinese):
    assert waiting_text(1) == "正在等待实验室 GPU：队列中的下一个"
    assert [waiting_text(place) for place in (2, 3, 11, 21)] == [
        f"正在等待实验室 GPU：队列中第 {place} 位" for place in (2, 3, 11, 21)
    ]


def test_who_follows_reads_in_either_language():
    assert (followers_text(3, True), followers_text(1, False)) == ("3 following you", "1 following the instructor")
    set_language("zh_CN")
    assert (followers_text(3, True), followers_text(1, False)) == ("3 人正在跟随你", "1 人正在跟随讲师")


def test_a_run_without_its_trace_is_refused_in_chinese(chinese):
    with pytest.raises(LabError) as caught:
        lab_run({"report": {}}, "http://lab:8765")
    assert str(caught.value) == "位于 http://lab:8765 的实验室服务器没有随运行发来追踪"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[1, 2]", "请求体必须是 JSON 对象"),
        (b'{"config": {}, "script": "x.py"}', "未知的键 'script'"),
        (b'{"device": "h200"}', '缺少 "config"'),
        (b'{"config": {}, "trace": "yes"}', '"trace" 必须是 true 或 false'),
    ],
)
def test_the_server_refuses_a_request_in_its_language(body, words, chinese):
    with pytest.raises(BadRequest) as caught:
        parse_run_request(body)
    assert words in str(caught.value)


def test_the_server_refuses_a_client_name_and_wrong_credentials_in_its_language(chinese):
    with pytest.raises(BadRequest) as name:
        client_name("two words", "10.0.0.7")
    logins = FailedLogins(1)
    logins.failed("10.0.0.7")
    with pytest.raises(OverShare) as over:
        logins.check("10.0.0.7")
    assert "X-Overlapviz-Client 必须是" in str(name.value)
    assert str(over.value) == "来自你的地址的错误凭据太多；请等一分钟"


def test_a_device_worker_says_why_it_cannot_start_in_the_servers_language(chinese):
    worker = DeviceWorker("no-such-backend", "gpu0")  # its process is spawned: it starts in English
    with pytest.raises(JobFailed) as caught:
        worker.start()
    said = str(caught.value)
    assert said.startswith("设备 gpu0：") and "no-such-backend 后端无法启动" in said
