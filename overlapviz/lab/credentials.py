"""The lab server's credentials: the class token with its short join code, and the instructor token.

The class token is long, for scripts and the command line; its join code is short for people
to type (``K7QF-2M9D``, case and dashes ignored) and derived from the token, so a class token
kept in a file gives the same join code every term. The instructor token is new at every
start and only ever printed on the server's console.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from overlapviz.core.i18n import _

# Letters and digits that read the same in any font: no 0/O, 1/I/L, 2/Z, 5/S, 8/B
CODE_ALPHABET = "34679ACDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 8  # about 37 bits: out of reach at the server's limit on failed attempts
TOKEN_BYTES = 32


class Role(Enum):
    """Who a credential makes the caller."""

    CLASS = "class"
    INSTRUCTOR = "instructor"


class CredentialsError(ValueError):
    """The token file cannot be read or written, or holds no usable token; the message says which."""


@dataclass(frozen=True, slots=True)
class Credentials:
    """The class token, its join code, and the instructor token."""

    class_token: str
    instructor_token: str

    @property
    def join_code(self) -> str:
        """The class token's short code, ``XXXX-XXXX``."""
        return join_code_of(self.class_token)

    def role_of(self, credential: str) -> Role | None:
        """The role `credential` (a token or the join code, any case, dashes optional) gives; None for none."""
        if hmac.compare_digest(credential.encode(), self.instructor_token.encode()):
            return Role.INSTRUCTOR
        if hmac.compare_digest(credential.encode(), self.class_token.encode()):
            return Role.CLASS
        code = _plain_code(self.join_code)
        if hmac.compare_digest(_plain_code(credential).encode(), code.encode()):
            return Role.CLASS
        return None


def join_code_of(token: str) -> str:
    """The join code derived from `token`: `CODE_LENGTH` letters of `CODE_ALPHABET`, a dash in the middle."""
    number = int.from_bytes(hashlib.sha256(f"overlapviz join code\n{token}".encode()).digest(), "big")
    letters = []
    for _place in range(CODE_LENGTH):
        number, digit = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[digit])
    half = CODE_LENGTH // 2
    return "".join(letters[:half]) + "-" + "".join(letters[half:])


def _plain_code(text: str) -> str:
    return text.replace("-", "").replace(" ", "").upper()


def new_token() -> str:
    """A fresh random token (URL-safe text)."""
    while True:  # one that begins with "-" would read as an option after --token on the command line
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not token.startswith("-"):
            return token


def load_credentials(token_file: Path | None) -> Credentials:
    """The class token from `token_file` (written there, fresh, when it does not exist), a fresh instructor token.

    Without a file the class token is fresh too.

    Raises
    ------
    CredentialsError
        The file cannot be read or written, or holds no token.
    """
    class_token = new_token() if token_file is None else _class_token_in(token_file)
    return Credentials(class_token, new_token())


def _class_token_in(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        token = new_token()
        write_private(path, token + "\n")
        return token
    except (OSError, UnicodeDecodeError) as error:
        message = _("--token-file {path}: cannot be read ({error})")
        raise CredentialsError(message.format(path=path, error=error)) from None
    token = text.strip()
    if len(token) < 16 or any(char.isspace() for char in token):
        message = _("--token-file {path}: holds no token (one line of at least 16 characters, no spaces)")
        raise CredentialsError(message.format(path=path))
    return token


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` readable by its owner only (mode 0600), atomically: whole or not at all.

    Raises
    ------
    CredentialsError
        The folder cannot be written.
    """
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise CredentialsError(_cannot_write(path, error)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:  # mkstemp made it 0600 already
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise CredentialsError(_cannot_write(path, error)) from None


def _cannot_write(path: Path, error: OSError) -> str:
    return _("--token-file {path}: cannot be written ({error})").format(path=path, error=error)
