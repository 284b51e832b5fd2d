# Sourced by scripts/run, scripts/test and scripts/compile: make .venv (Python >= 3.11) and
# install the project with its test extras, again only when pyproject.toml changed.
#
# The install is pure Python, so a first start costs only the download: the battle engines'
# compiled build (mypyc, minutes of CPU) is made by ./scripts/compile, and by this script when
# ARMYBUILDER_COMPILE=1 or ARMYBUILDER_EXPECT_COMPILED=1 (CI) is set. armybuilder._native runs
# an engine's compiled modules only while they match its sources, so an engine edit never
# waits for a compile and is never hidden by an old binary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    for candidate in python3.13 python3.12 python3.11; do
        if command -v "$candidate" >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
    done
fi
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "armybuilder needs Python 3.11 or newer" >&2; exit 2; }
if [ -n "${ARMYBUILDER_COMPILE:-}${ARMYBUILDER_EXPECT_COMPILED:-}" ] && [ -z "${ARMYBUILDER_NO_COMPILE:-}" ]; then
    compile_engines=1
else
    compile_engines=""
fi
pip_install() {  # (setuptools warns about every editable install of a package with compiled modules)
    PYTHONWARNINGS="ignore:Editable installation" \
        .venv/bin/python -m pip install --quiet --disable-pip-version-check "$@" >&2
}
# The compiled modules are built from the sources the systems name (compiled_engine_modules,
# listed by setup.py --print-native-sources): when one changes, a
# compiling setup builds them again (a pure one leaves it to armybuilder._native).
native_sources() { cat setup.py $(.venv/bin/python setup.py --print-native-sources 2>/dev/null) | sha256sum | cut -d' ' -f1; }
# The build's own requirements in the venv, then no isolated build environment: a pure
# install needs setuptools and wheel alone, a compiling one finds mypy and the rest here.
install_build_requires() {
    local build_requires
    build_requires="$(.venv/bin/python -c 'import sys, tomllib
wanted = tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]
print("\n".join(r for r in wanted if sys.argv[1] or r.split("==")[0] in ("setuptools", "wheel")))' "$compile_engines")"
    # shellcheck disable=SC2086
    pip_install $build_requires
}
stamp=".venv/.armybuilder-installed"
native_stamp=".venv/.armybuilder-native"
# scripts/run needs the project alone, scripts/serve its serve extra, scripts/test and
# scripts/compile the test extra (pytest, mypy, dask, the serve extra's packages...): a
# player's first start does not wait for the test tools.
extras="${ARMYBUILDER_EXTRAS-test}"
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
installed="$(cat "$stamp" 2>/dev/null || true)"
case "$installed" in
    "$wanted test") up_to_date=1 ;;  # the test extra serves every script
    "$wanted serve") up_to_date="$([ -z "$extras" ] || [ "$extras" = serve ] && echo 1 || true)" ;;
    "$wanted ") up_to_date="$([ -z "$extras" ] && echo 1 || true)" ;;
    *) up_to_date="" ;;
esac
if [ ! -x .venv/bin/python ] || [ -z "$up_to_date" ]; then
    if [ -n "$compile_engines" ]; then
        echo "setting up .venv and compiling the battle engines with mypyc (a few minutes)..." >&2
    else
        echo "setting up .venv (first run or changed dependencies; pure-Python engines," \
             "./scripts/compile makes them about twice as fast)..." >&2
    fi
    [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
    pip_install --upgrade pip
    install_build_requires
    target="."
    [ -z "$extras" ] || target=".[$extras]"
    if [ -n "$compile_engines" ]; then
        pip_install --no-build-isolation -e "$target"
        native_sources > "$native_stamp"
    else
        ARMYBUILDER_NO_COMPILE=1 pip_install --no-build-isolation -e "$target"
        rm -f "$native_stamp"
    fi
    echo "$wanted $extras" > "$stamp"
    report_builds=1
elif [ -n "$compile_engines" ] && [ "$(cat "$native_stamp" 2>/dev/null)" != "$(native_sources)" ]; then
    echo "compiling the battle engines (not compiled yet, or their sources changed)..." >&2
    install_build_requires
    pip_install --no-deps --no-build-isolation -e .
    native_sources > "$native_stamp"
    report_builds=1
fi
if [ -n "${report_builds:-}" ]; then  # (pip --quiet hides the build's own warnings)
    .venv/bin/python -m armybuilder._native >&2 || true
    # The bundled catalogues into the install's prepared cache (.venv/share/armybuilder/prepared):
    # the editor's first start, whatever the user's cache holds, reads them there instead of
    # parsing their YAML (a cache turned off makes this a no-op).
    .venv/bin/python -m armybuilder.core.prepare || true
fi
