"""One shape for every input: read it, redact it in memory, write it.

    source = read_input(path, ReadOptions(ocr="ppocr"))   # ImageInput | PdfInput | TextInput
    redaction = redact(source, engine, prompts)             # pure: the file system is not touched
    outcome = write(redaction, out_dir)                     # atomic; exit code, files written

Each kind of input is a small class (`redacto.inputs.image`, `.pdf`, `.text`) that knows
its suffixes, how to read itself and how its run becomes files, so no caller asks what
kind an input is. `redact_path` is the same three steps for one path, with the checks and
ERROR reports a command needs (`redacto redact` runs it). docs/inputs.md draws the path.
"""

from redacto.inputs.base import (
    OUTPUTS,
    REDACTED_FILES,
    REDACTED_IMAGE,
    REDACTED_PDF,
    REDACTED_TEXT,
    REPORT,
    BadInputError,
    InputFile,
    OutputFile,
    ReadOptions,
    input_info,
)
from redacto.inputs.image import ImageInput, read_elements_file
from redacto.inputs.pdf import PdfInput
from redacto.inputs.read import (
    INPUT_KINDS,
    check_input,
    input_kind,
    input_mode,
    read_input,
    read_input_bytes,
)
from redacto.inputs.redaction import (
    EXIT_BAD_INPUT,
    EXIT_CODES,
    Redaction,
    RedactOutcome,
    atomic_write,
    finish,
    redact,
    write,
    write_files,
)
from redacto.inputs.run import FileRun, failed_run, redact_path, run_input
from redacto.inputs.text import TextInput

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_CODES",
    "INPUT_KINDS",
    "OUTPUTS",
    "REDACTED_FILES",
    "REDACTED_IMAGE",
    "REDACTED_PDF",
    "REDACTED_TEXT",
    "REPORT",
    "BadInputError",
    "FileRun",
    "ImageInput",
    "InputFile",
    "OutputFile",
    "PdfInput",
    "ReadOptions",
    "RedactOutcome",
    "Redaction",
    "TextInput",
    "atomic_write",
    "check_input",
    "failed_run",
    "finish",
    "input_info",
    "input_kind",
    "input_mode",
    "read_elements_file",
    "read_input",
    "read_input_bytes",
    "redact",
    "redact_path",
    "run_input",
    "write",
    "write_files",
]
