# Sourced by scripts/run and scripts/test: make .venv (Python >= 3.11) and install the
# project with its test extras, again only when pyproject.toml changed.
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
stamp=".venv/.armybuilder-installed"
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
# The engines' compiled modules (setup.py) are built from these sources: when one changes they
# are compiled again here; until then armybuilder._native runs that engine from its .py files.
native_stamp=".venv/.armybuilder-native"
native="$(cat setup.py armybuilder/systems/*/engine/*.py | sha256sum | cut -d' ' -f1)"
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "setting up .venv (first run or changed dependencies; compiling the battle engines" \
         "with mypyc takes a few minutes of it)..." >&2
    "$PYTHON" -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    PYTHONWARNINGS="ignore:Editable installation" \
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]' >&2
    echo "$wanted" > "$stamp"
    echo "$native" > "$native_stamp"
    report_builds=1
elif [ "$(cat "$native_stamp" 2>/dev/null)" != "$native" ]; then
    echo "compiling the battle engines again (their sources changed)..." >&2
    # (setuptools warns about every editable install of a package with compiled modules)
    PYTHONWARNINGS="ignore:Editable installation" \
        .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e . >&2
    echo "$native" > "$native_stamp"
    report_builds=1
fi
if [ -n "${report_builds:-}" ]; then  # (pip --quiet hides the build's own warnings)
    .venv/bin/python -c 'import sys; from armybuilder import _native
for system in ("ragnarok2", "rattle-and-rend", "morpheus-ragnarok"):
    print(f"  {system} engine: {_native.build_of(system)}", file=sys.stderr)' || true
fi
