"""Every command and sub-command carries help text, and `--help` works for each."""

import pytest
from typer.main import get_command

from redacto.cli import app

ROOT = get_command(app)


def walk(command, path: tuple[str, ...] = ()):
    yield path, command
    # typer vendors its own click, so look for sub-commands rather than a class
    subcommands = getattr(command, "commands", None) or {}
    for name, sub in sorted(subcommands.items()):
        yield from walk(sub, (*path, name))


COMMANDS = list(walk(ROOT))


def test_the_expected_commands_exist():
    names = {" ".join(path) for path, _ in COMMANDS}
    for expected in [
        "redact",
        "model build",
        "model verify",
        "prompts kotlin",
        "model kotlin",
        "eval run",
        "serve",
    ]:
        assert expected in names


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(path) or "redacto" for path, _ in COMMANDS]
)
def test_every_command_has_help_text(path, command):
    assert (command.help or "").strip(), f"`redacto {' '.join(path)}` has no help text"
    with pytest.raises(SystemExit) as exit_info:
        ROOT.main([*path, "--help"], prog_name="redacto", standalone_mode=True)
    assert exit_info.value.code == 0
