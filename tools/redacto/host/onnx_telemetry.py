"""ONNX Runtime's telemetry, turned off before ONNX Runtime is first imported.

The onnxruntime 1.32 wheel carries Microsoft's 1DS telemetry client: on import it writes a
session file into the temporary folder and a device id and an event database (the OS, the
Python executable's path, the network type) under `~/.cache/Microsoft/DeveloperTools/
.onnxruntime/`, queued for `mobile.events.data.microsoft.com`. An offline redactor writes
none of that. `ORT_DISABLE_TELEMETRY=1`, set in the process before the import, turns it all
off (measured: no file at all, `tests/host/test_onnx_telemetry.py`). Both users of ONNX Runtime
call this first: PP-OCR (through RapidOCR) and the NER tier.
"""

from __future__ import annotations

import os

VARIABLE = "ORT_DISABLE_TELEMETRY"


def disable_onnxruntime_telemetry() -> None:
    """Turn ONNX Runtime's telemetry off for this process; call before importing it.

    Set, not defaulted: a value of 0 left in a shell would otherwise switch the collector
    on inside a tool whose promise is that nothing leaves the machine.
    """
    os.environ[VARIABLE] = "1"
