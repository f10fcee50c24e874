"""Compile Kotlin with the project's kotlinc and run a `main`: for tests that check a
generated Kotlin file answers exactly as the Python it was generated from."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
KOTLINC = REPO / ".cache/kotlin/node_modules/kotlin-compiler/bin/kotlinc-jvm"


def run_kotlin_main(sources: list[Path], main: str, args: list[str], work: Path) -> None:
    """Compile `sources` plus `main` (a file defining `fun main`) in `work`, run it with
    `args`. A compile error fails with kotlinc's message."""
    dump = work / "Dump.kt"
    dump.write_text(main, encoding="utf-8")
    jar = work / "dump.jar"
    env = {**os.environ, "JAVA_OPTS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
    compile_run = subprocess.run(
        [str(KOTLINC), "-jvm-target", "17", "-d", str(jar), *map(str, [*sources, dump])],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert compile_run.returncode == 0, compile_run.stderr[-3000:]
    stdlib = KOTLINC.parent.parent / "lib" / "kotlin-stdlib.jar"
    subprocess.run(["java", "-cp", f"{jar}:{stdlib}", "DumpKt", *args], check=True, timeout=120)
