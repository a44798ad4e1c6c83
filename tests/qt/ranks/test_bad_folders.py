"""Folders that make no job: the window says why, in words, and keeps what was on show."""

from rank_folders import open_folder_and_wait


def test_an_empty_folder_is_explained_in_the_window(qtbot, window, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert not open_folder_and_wait(qtbot, window, empty)
    message = window.banner.message()
    assert message.startswith("Could not open the folder empty as a job")
    assert "the folder is empty" in message
    assert not window.ranks.showing_ranks()


def test_a_folder_without_traces_is_explained(qtbot, window, tmp_path):
    (tmp_path / "notes.txt").write_text("no trace here")
    assert not open_folder_and_wait(qtbot, window, tmp_path)
    assert "holds no trace" in window.banner.message()


def test_a_file_that_is_no_trace_is_named(qtbot, window, job_folder):
    (job_folder / "rank-7.json").write_text("{not json")
    assert not open_folder_and_wait(qtbot, window, job_folder)
    assert "as a job: rank-7.json: not a JSON file" in window.banner.message()  # the file by its name
    assert window.ranks.opened is None
