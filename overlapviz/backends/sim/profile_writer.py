"""A device profile written as TOML, in the shipped profiles' layout (pure: text in, text out).

Every line carries its source in a comment, as in the shipped files: a measured value says
how it was measured; every other value is the base profile's, and says so with the base's
own source. Only fields the model knows are written, so the file loads like any other; an
optional table of the base's (what its own machine measured) is left out unless measured.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any

from overlapviz.backends.calibration import Sourced, Value
from overlapviz.backends.sim.profile import PROFILE_DIR, DeviceProfile, available_profiles, load_profile

DEFAULT_BASE = "h200"  # the one current GPU among the shipped profiles
COMMENT_COLUMN = 30
_KEY_LINE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(.*)$")

def what_ifs() -> set[str]:
    """Shipped profiles that change another one (``based_on``): models, not GPUs."""
    found = set()
    for key in available_profiles():
        with (PROFILE_DIR / f"{key}.toml").open("rb") as stream:
            if "based_on" in tomllib.load(stream):
                found.add(key)
    return found


def nearest_profile(gpu_name: str) -> str:
    """The shipped profile of the GPU nearest to the one called `gpu_name`.

    One whose key's words all appear in the name (``tesla-k20c`` for "Tesla K20c"), else
    the h200 profile, the one current GPU shipped; never a what-if.
    """
    words = set(re.split(r"[^a-z0-9]+", gpu_name.lower()))
    real = [key for key in available_profiles() if key not in what_ifs()]
    matches = [key for key in real if set(key.split("-")) <= words]
    return max(matches, key=len) if matches else DEFAULT_BASE


def format_value(value: Value) -> str:
    """`value` in TOML: text quoted (JSON's escapes are TOML's), floats with their point."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def base_layout(base_key: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The base file's sections (each with its keys, in order) and each key's source comment."""
    text = (PROFILE_DIR / f"{base_key}.toml").read_text()
    data = tomllib.loads(text)
    sections = {name: list(table) for name, table in data.items() if isinstance(table, dict)}
    comments = {}
    nested = False  # inside a table of a section ([pageable.something]): its keys are not fields
    for line in text.splitlines():
        if line.startswith("["):
            nested = "." in line.split("]", 1)[0]
            continue
        match = _KEY_LINE.match(line)
        if match and not nested and "#" in match.group(2):
            comments[match.group(1)] = match.group(2).split("#", 1)[1].strip()
    return sections, comments


def _line(key: str, value: Value, comment: str) -> str:
    assignment = f"{key} = {format_value(value)}"
    return f"{assignment:<{COMMENT_COLUMN - 1}} # {' '.join(comment.split())}"


def profile_toml(values: Mapping[str, Sourced], base_key: str, measured_by: str, header: Sequence[str] = ()) -> str:
    """The TOML of a profile: `values` where given, every other field the base profile's.

    `measured_by` starts each measured value's comment (who measured what, when); `header`
    lines open the file as comments.
    """
    base = load_profile(base_key)
    sections, comments = base_layout(base_key)
    required = {f.name for f in fields(DeviceProfile) if f.default is MISSING and f.default_factory is MISSING}
    optional = {f.name for f in fields(DeviceProfile)} - required
    required.discard("key")
    unplaced = required - {key for keys in sections.values() for key in keys}
    if unplaced:
        raise ValueError(f"the {base_key} profile does not hold {sorted(unplaced)} itself: it is no real GPU's")
    lines = [f"# {' '.join(text.split())}" for text in header]
    for section, keys in sections.items():
        lines += ["", f"[{section}]"]
        for key in keys:
            if key in values and (key in required or key in optional):
                lines.append(_line(key, values[key].value, f"{measured_by}: {values[key].source}"))
            elif key in optional:  # what the base measured of its own machine, not of this one
                lines.append(f"# {key}: the {base_key} profile's is left out (optional, and not measured here)")
            elif key in required:
                base_value: Any = getattr(base, key)
                source = comments.get(key, "")
                note = f"not measured: the {base_key} profile's value" + (f" ({source})" if source else "")
                lines.append(_line(key, base_value, note))
    return "\n".join(lines).lstrip("\n") + "\n"
