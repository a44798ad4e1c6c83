"""Trace files: overlapviz's own format, Chrome trace JSON (export and exact import), and CSV (export).

The format, its version and its words are `core.files.trace_format`'s; writing is
`core.files.trace_export`'s, reading `core.files.trace_import`'s. Here are their public names, in one
place for their callers. Which format a file is, overlapviz's or another tool's, is
`overlapviz.importers.read`'s to decide.
"""

from __future__ import annotations

from overlapviz.core.files.trace_export import (
    CSV_HEADER,
    UNPLACED_LANE_TITLE,
    chrome_dict,
    csv_text,
    export_chrome,
    export_csv,
)
from overlapviz.core.files.trace_format import FORMAT_VERSION, PROCESS_ID, TraceFormatError
from overlapviz.core.files.trace_import import (
    PYTHON_JSON_BYTES,
    import_chrome,
    parse_json,
    trace_at_once,
    trace_from_chrome,
)

__all__ = [
    "CSV_HEADER",
    "FORMAT_VERSION",
    "PROCESS_ID",
    "PYTHON_JSON_BYTES",
    "UNPLACED_LANE_TITLE",
    "TraceFormatError",
    "chrome_dict",
    "csv_text",
    "export_chrome",
    "export_csv",
    "import_chrome",
    "parse_json",
    "trace_at_once",
    "trace_from_chrome",
]
