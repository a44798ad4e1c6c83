"""A POST /v1/runs body read into a job's parts: settings, never code.

The body is ``{"config": {...}, "device": "KEY"?, "trace": bool?}``; the config goes through
`presets.config_from_table`, the validator of a preset's ``[config]`` table, so the server
accepts exactly the settings a preset file may hold and refuses the rest with the same words.
No key names a path, a file or a script, so none is ever read or run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from overlapviz.core.config import ConfigError, PipelineConfig
from overlapviz.core.i18n import _
from overlapviz.lab.job_run import one_line
from overlapviz.presets import PresetError, config_from_table

REQUEST_KEYS = ("config", "device", "trace")
CLIENT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
MAX_DEVICE_KEY = 64


class BadRequest(ValueError):
    """The request is not a job the server runs; the one-line message says why."""


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What a POST /v1/runs asks for; `device` None: the server chooses (`device_choice`)."""

    config: PipelineConfig
    device: str | None
    trace: bool


def parse_run_request(body: bytes) -> RunRequest:
    """Read and check a POST /v1/runs body.

    Raises
    ------
    BadRequest
        Not UTF-8 JSON, not an object, an unknown key, a value of the wrong type, or
        settings the presets' validator refuses.
    """
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadRequest(one_line(_("the body is not JSON: {error}").format(error=error))) from None
    if not isinstance(data, dict):
        raise BadRequest(_("the body must be a JSON object: {example}").format(example='{"config": {...}}'))
    unknown = sorted(set(data) - set(REQUEST_KEYS))
    if unknown:
        message = _("unknown key {key}; a request may hold: {keys}")
        raise BadRequest(one_line(message.format(key=repr(unknown[0]), keys=", ".join(REQUEST_KEYS))))
    return RunRequest(_config(data.get("config")), _device(data.get("device")), _flag(data.get("trace", False)))


def _no_constant(name: str) -> Any:
    raise ValueError(_("{name} is not a number JSON allows").format(name=name))


def _config(table: Any) -> PipelineConfig:
    if table is None:
        raise BadRequest(_('"config" is missing: give the pipeline\'s settings as a preset\'s [config] keys'))
    if not isinstance(table, dict):
        raise BadRequest(_('"config" must be an object of a preset\'s [config] keys'))
    if "device" in table:
        raise BadRequest(_('config: give the device beside the config ("device": KEY), not inside it'))
    try:
        return config_from_table(table)
    except (PresetError, ConfigError, TypeError, ValueError, OverflowError) as error:
        raise BadRequest(one_line(str(error))) from None


def _device(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_DEVICE_KEY:  # checked against the devices later
        raise BadRequest(_('"device" must be a device key (see GET /v1/status)'))
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadRequest(_('"trace" must be true or false'))
    return value


def client_name(header: str | None, peer: str) -> str:
    """The client's identity: the X-Overlapviz-Client header, else the peer's address.

    Raises
    ------
    BadRequest
        The header is not 1-64 characters of letters, digits, ``_``, ``.`` and ``-``.
    """
    if header is None:
        return peer
    if not CLIENT_NAME.fullmatch(header):
        raise BadRequest(_("X-Overlapviz-Client must be 1-64 characters of letters, digits, _ . -"))
    return header
