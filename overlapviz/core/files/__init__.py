"""Files read and written safely (whole, bounded, never half-written), and the trace and session formats.

Each name lives in one module of the package; import it from there inside overlapviz.
"""

from overlapviz.core.files.atomic_write import atomic_write_bytes, atomic_write_text, written_together
from overlapviz.core.files.file_system import name_limit
from overlapviz.core.files.partial_files import writer_of
from overlapviz.core.files.safe_read import (
    DEFAULT_MAX_INPUT_BYTES,
    GZIP_MAGIC,
    MAX_INPUT_ENV,
    InputFileError,
    max_input_bytes,
    read_flags,
    read_input_bytes,
)
from overlapviz.core.files.session_document import SessionData, config_of, is_session, session_dict, session_of
from overlapviz.core.files.toml_text import TomlError, parse_toml
from overlapviz.core.files.trace_export import (
    CSV_HEADER,
    UNPLACED_LANE_TITLE,
    chrome_dict,
    csv_text,
    export_chrome,
    export_csv,
)
from overlapviz.core.files.trace_format import FORMAT_VERSION, TraceFormatError
from overlapviz.core.files.trace_import import import_chrome, parse_json, trace_at_once, trace_from_chrome
from overlapviz.core.files.write_destination import DestinationError, check_destination, resolve_destination

__all__ = [
    "CSV_HEADER",
    "DEFAULT_MAX_INPUT_BYTES",
    "FORMAT_VERSION",
    "GZIP_MAGIC",
    "MAX_INPUT_ENV",
    "UNPLACED_LANE_TITLE",
    "DestinationError",
    "InputFileError",
    "SessionData",
    "TomlError",
    "TraceFormatError",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_destination",
    "chrome_dict",
    "config_of",
    "csv_text",
    "export_chrome",
    "export_csv",
    "import_chrome",
    "is_session",
    "max_input_bytes",
    "name_limit",
    "parse_json",
    "parse_toml",
    "read_flags",
    "read_input_bytes",
    "resolve_destination",
    "session_dict",
    "session_of",
    "trace_at_once",
    "trace_from_chrome",
    "writer_of",
    "written_together",
]
