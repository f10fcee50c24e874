"""The app works offline: its manifest requests no network permission, its build no network library.

Reads the source manifest `android/app/src/main/AndroidManifest.xml` with ElementTree (the
`android:` and `tools:` attributes are namespaced). A `<uses-permission>` for INTERNET or
ACCESS_NETWORK_STATE fails the test unless it is a manifest-merger removal
(`tools:node="remove"`), and those two removals must be present, so no library can bring the
permission back into the merged manifest. The app's Gradle dependencies, resolved through the
version catalog, must not include an HTTP, RPC or cloud client.
"""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ANDROID = Path(__file__).resolve().parents[2] / "android"
MANIFEST = ANDROID / "app/src/main/AndroidManifest.xml"
APP_GRADLE = ANDROID / "app/build.gradle.kts"
CATALOG = ANDROID / "gradle/libs.versions.toml"

ANDROID_NS = "{http://schemas.android.com/apk/res/android}"
TOOLS_NS = "{http://schemas.android.com/tools}"
NETWORK_PERMISSIONS = {"android.permission.INTERNET", "android.permission.ACCESS_NETWORK_STATE"}
PERMISSION_TAGS = {"uses-permission", "uses-permission-sdk-23", "permission"}
# Group ids (or group:artifact prefixes) of libraries whose job is talking to a network.
NETWORK_LIBRARIES = (
    "com.squareup.okhttp",
    "com.squareup.okhttp3",
    "com.squareup.retrofit",
    "com.squareup.retrofit2",
    "io.ktor",
    "com.android.volley",
    "org.chromium.net",
    "com.google.android.gms:play-services-cronet",
    "io.grpc",
    "com.google.firebase",
    "com.apollographql",
    "com.github.kittinunf.fuel",
    "org.apache.httpcomponents",
    "com.google.http-client",
    "com.google.cloud",
    "com.google.ai.client",
)


def requested_permissions(manifest: Path) -> set[str]:
    """Permissions the manifest asks for (merger removals are not requests)."""
    requested = set()
    for element in ET.parse(manifest).getroot().iter():
        if element.tag in PERMISSION_TAGS and element.get(f"{TOOLS_NS}node") != "remove":
            requested.add(element.get(f"{ANDROID_NS}name", ""))
    return requested


def removed_permissions(manifest: Path) -> set[str]:
    return {
        element.get(f"{ANDROID_NS}name", "")
        for element in ET.parse(manifest).getroot().iter("uses-permission")
        if element.get(f"{TOOLS_NS}node") == "remove"
    }


def gradle_dependencies(build_file: Path, catalog: Path) -> list[str]:
    """Every dependency coordinate of a module: catalog aliases resolved, literals as written."""
    text = re.sub(r"//[^\n]*", "", build_file.read_text())
    libraries = tomllib.loads(catalog.read_text()).get("libraries", {})
    by_accessor = {re.sub(r"[-_]", ".", alias): spec for alias, spec in libraries.items()}
    found = []
    for accessor in re.findall(r"\blibs\.((?:[A-Za-z0-9]+\.?)+)", text):
        spec = by_accessor.get(accessor.rstrip("."))
        if spec is None:
            continue  # plugins and versions, not libraries
        if isinstance(spec, str):
            found.append(spec)
        else:
            found.append(spec.get("module") or f"{spec.get('group')}:{spec.get('name')}")
    literal = r"""(?:implementation|api|runtimeOnly)\(\s*["']([^"':]+:[^"']+)["']"""
    return found + re.findall(literal, text)


def test_the_manifest_requests_no_network_permission() -> None:
    assert not requested_permissions(MANIFEST) & NETWORK_PERMISSIONS


def test_the_manifest_removes_network_permissions_libraries_might_add() -> None:
    assert removed_permissions(MANIFEST) >= NETWORK_PERMISSIONS


def test_the_app_depends_on_no_network_library() -> None:
    dependencies = gradle_dependencies(APP_GRADLE, CATALOG)
    assert "com.google.ai.edge.litertlm:litertlm-android" in dependencies
    assert "com.microsoft.onnxruntime:onnxruntime-android" in dependencies
    offending = [d for d in dependencies if d.startswith(NETWORK_LIBRARIES)]
    assert not offending, offending


@pytest.mark.parametrize("permission", sorted(NETWORK_PERMISSIONS))
def test_the_check_catches_a_requested_network_permission(tmp_path: Path, permission: str) -> None:
    manifest = tmp_path / "AndroidManifest.xml"
    manifest.write_text(
        '<manifest xmlns:android="http://schemas.android.com/apk/res/android">'
        f'<uses-permission android:name="{permission}"/></manifest>'
    )
    assert permission in requested_permissions(manifest)


def test_the_check_catches_a_network_library(tmp_path: Path) -> None:
    build = tmp_path / "build.gradle.kts"
    build.write_text(
        "dependencies {\n    implementation(libs.okhttp)\n"
        '    implementation("io.ktor:ktor-client-android:3.0.0")\n}\n'
    )
    catalog = tmp_path / "libs.versions.toml"
    catalog.write_text('[libraries]\nokhttp = { module = "com.squareup.okhttp3:okhttp" }\n')
    found = gradle_dependencies(build, catalog)
    assert found == ["com.squareup.okhttp3:okhttp", "io.ktor:ktor-client-android:3.0.0"]
    assert all(d.startswith(NETWORK_LIBRARIES) for d in found)
