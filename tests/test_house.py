"""The layout the README's "Layout" table promises, kept true by CI.

The package's top level holds only the value modules every layer shares; `scripts/` holds
only the three commands a newcomer runs; nothing edits `sys.path` (tests import the helpers
at `tests/` itself and `devtools`, which pytest's `pythonpath` and rootdir already reach).
"""

from __future__ import annotations

import re

from redacto.host.resources import SOURCE_ROOT

SHARED_VALUE_MODULES = {"__init__.py", "document.py", "report.py"}
SCRIPTS = {"setup.sh", "test.sh", "quickstart.sh"}
PATH_EDIT = re.compile(r"\bsys\.path\.(insert|append|extend)\(|\bsys\.path\s*(\+=|=)")


def test_the_package_top_level_holds_only_the_shared_value_modules_and_packages():
    modules = {path.name for path in (SOURCE_ROOT / "tools" / "redacto").glob("*.py")}
    assert modules == SHARED_VALUE_MODULES


def test_scripts_holds_only_set_up_tests_and_the_quick_start():
    assert {path.name for path in (SOURCE_ROOT / "scripts").iterdir()} == SCRIPTS


def test_no_python_file_edits_sys_path():
    edits = [
        f"{path.relative_to(SOURCE_ROOT)}:{number}"
        for folder in ("tools", "tests", "devtools")
        for path in sorted((SOURCE_ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PATH_EDIT.search(line)
    ]
    assert edits == []
