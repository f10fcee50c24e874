"""Every command and sub-command carries help text, `--help` works for each, and the README's
table of parts names every one."""

import re

import pytest
from typer.main import get_command

from redacto.cli import app
from redacto.host.resources import SOURCE_ROOT

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


def leaf_commands() -> list[str]:
    """Every command a user can run, as typed after `redacto` (`model build`, `redact`)."""
    return [
        " ".join(path) for path, command in COMMANDS if path and not hasattr(command, "commands")
    ]


def readme_commands() -> set[str]:
    """The commands the README's table of parts names, in its command column.

    A cell holds code spans such as `redacto model list \\| build NAME \\| verify NAME`:
    the first alternative names the group, the ones after `\\|` are more of its commands.
    """
    readme = (SOURCE_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The parts", 1)[1].split("\n## ", 1)[0]
    groups = {" ".join(path) for path, command in COMMANDS if hasattr(command, "commands")}
    named: set[str] = set()
    for line in section.splitlines():
        cells = re.split(r"(?<!\\)\|", line)
        if len(cells) < 4:
            continue
        for span in re.findall(r"`([^`]+)`", cells[2]):
            alternatives = re.split(r"\s*\\\|\s*", span.removeprefix("redacto ").strip())
            first = alternatives[0].split()
            if not first:
                continue
            if first[0] not in groups:
                named.add(first[0])
                continue
            group = first[0]
            named.update(
                f"{group} {words[0]}"
                for words in (
                    [first[1]] if len(first) > 1 else [],
                    *(a.split() for a in alternatives[1:]),
                )
                if words
            )
    return named


def test_every_command_appears_in_the_readme_table():
    named = readme_commands()
    missing = [command for command in leaf_commands() if command not in named]
    assert not missing, f"README.md's table of parts does not name: {', '.join(missing)}"
