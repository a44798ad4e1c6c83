"""How hard the property-based tests try: a quick profile for `make test`, a long one for `make fuzz`.

`make fuzz` sets OVERLAPVIZ_FUZZ=1 and runs only the tests marked `fuzz`, each with ten times
the examples. The quick profile still runs every example count an issue asks for (e.g. 1,000
argument vectors), so the suite keeps the bugs it found closed.
"""

import os

from hypothesis import HealthCheck, settings

LONG_RUN = os.environ.get("OVERLAPVIZ_FUZZ") == "1"


def fuzz_settings(examples: int) -> settings:
    """Settings for a fuzz test of `examples` cases (ten times more under `make fuzz`)."""
    return settings(
        max_examples=examples * (10 if LONG_RUN else 1),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
