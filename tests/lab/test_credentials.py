"""The class token, its join code and the instructor token; the token file."""

import os
import stat

import pytest

from overlapviz.lab.credentials import (
    CODE_ALPHABET,
    Credentials,
    CredentialsError,
    Role,
    join_code_of,
    load_credentials,
    new_token,
)


def test_the_join_code_is_short_readable_and_follows_from_the_token():
    code = join_code_of("a-class-token-of-some-length")
    assert len(code) == 9 and code[4] == "-"
    assert set(code.replace("-", "")) <= set(CODE_ALPHABET)
    assert join_code_of("a-class-token-of-some-length") == code
    assert join_code_of("another-class-token-of-some-length") != code


def test_each_credential_gives_its_role_and_nothing_else_gives_one():
    credentials = Credentials("class-token-0123456789", "instructor-token-0123456789")
    code = credentials.join_code
    assert credentials.role_of("class-token-0123456789") is Role.CLASS
    assert credentials.role_of(code.lower().replace("-", " ")) is Role.CLASS
    assert credentials.role_of("instructor-token-0123456789") is Role.INSTRUCTOR
    for wrong in ("", "-", "class-token", code[:-1], "instructor-token-012345678", "ÿ"):
        assert credentials.role_of(wrong) is None


def test_a_missing_token_file_is_made_for_its_owner_and_read_back_next_time(tmp_path):
    path = tmp_path / "token"
    first = load_credentials(path)
    assert path.read_text() == first.class_token + "\n"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    second = load_credentials(path)
    assert (second.class_token, second.join_code) == (first.class_token, first.join_code)
    assert second.instructor_token != first.instructor_token  # new at every start
    assert [p.name for p in tmp_path.iterdir()] == ["token"]  # no temporary file left


def test_without_a_file_every_start_has_fresh_tokens():
    assert load_credentials(None).class_token != load_credentials(None).class_token


@pytest.mark.parametrize("content", [b"", b"short\n", b"two words in a line here\n", b"\xff\xfe" * 20])
def test_a_token_file_without_a_usable_token_is_refused(tmp_path, content):
    path = tmp_path / "token"
    path.write_bytes(content)
    with pytest.raises(CredentialsError, match="--token-file"):
        load_credentials(path)


def test_a_token_file_in_a_folder_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(CredentialsError, match="cannot be written"):
        load_credentials(tmp_path / "missing" / "token")


def test_no_token_begins_with_a_dash_which_the_command_line_would_read_as_an_option():
    tokens = [new_token() for _ in range(2000)]  # about 31 of 2000 would begin with "-" by chance alone
    assert not [token for token in tokens if token.startswith("-")]
    assert len(set(tokens)) == len(tokens)
