"""The committed Gradle wrapper is the official one, and it checks what it downloads.

A `gradle wrapper` run with another Gradle (Debian's 4.4.1 is the only offline one) would
replace these files silently; these pins make that a test failure (docs/android.md).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ANDROID = Path(__file__).resolve().parents[2] / "android"
WRAPPER_JAR_SHA256 = "7d3a4ac4de1c32b59bc6a4eb8ecb8e612ccd0cf1ae1e99f66902da64df296172"
"""Gradle's published checksum of the 8.14.x wrapper jar."""
DISTRIBUTION_SHA256 = "bd71102213493060956ec229d946beee57158dbd89d0e62b91bca0fa2c5f3531"


def test_the_wrapper_jar_is_gradles_own() -> None:
    jar = ANDROID / "gradle" / "wrapper" / "gradle-wrapper.jar"
    assert hashlib.sha256(jar.read_bytes()).hexdigest() == WRAPPER_JAR_SHA256


def test_the_wrapper_downloads_gradle_8_14_3_and_verifies_it() -> None:
    properties = dict(
        line.split("=", 1)
        for line in (ANDROID / "gradle" / "wrapper" / "gradle-wrapper.properties")
        .read_text()
        .splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert properties["distributionUrl"].endswith("/gradle-8.14.3-bin.zip")
    assert properties["distributionSha256Sum"] == DISTRIBUTION_SHA256


def test_gradlew_is_executable() -> None:
    assert (ANDROID / "gradlew").stat().st_mode & 0o111
