# scripts/venv.sh: sourced by scripts/analyze and scripts/bench-commits. Defines ensure_venv, which creates a
# virtual environment and installs scripts/requirements.txt into it, re-installing whenever requirements.txt
# changes (a copy of the installed file is kept in the venv as the stamp); exit 3 when it cannot.
#
# Where: DISPATCHBENCH_VENV when set; else, in a checkout that SwiftPM manages (a package that depends on
# DispatchBench has it in .build/checkouts/, which a resolve may replace),
# ${XDG_CACHE_HOME:-~/.cache}/dispatchbench/venv; else <repo>/.venv. Nothing is written into .build/.
#
# Needs: scripts_dir (this directory) and venv_prog (the name in messages). ANALYZE_PYTHON picks the
# interpreter used to create the venv (default: python3).

repo_dir="$(dirname "$scripts_dir")"
if [[ -n "${DISPATCHBENCH_VENV:-}" ]]; then
    venv="$DISPATCHBENCH_VENV"
elif [[ "$repo_dir/" == */.build/* ]]; then
    venv="${XDG_CACHE_HOME:-$HOME/.cache}/dispatchbench/venv"
else
    venv="$repo_dir/.venv"
fi
requirements="$scripts_dir/requirements.txt"
stamp="$venv/.requirements.installed"
# What the scripts and their tests import of requirements.txt's packages (ruptures only where it has a build).
imported='import numpy, scipy.stats, matplotlib.pyplot, matplotlib.backends.backend_agg, elftools.elf.elffile, pytest, xdist
import importlib.util
if importlib.util.find_spec("ruptures"): import ruptures'

setup_failed() {
    echo "$venv_prog: could not set up the Python environment in $venv: $1" >&2
    exit 3
}

ensure_venv() {
    if [[ -x "$venv/bin/python" ]] && cmp -s "$requirements" "$stamp"; then
        return
    fi
    mkdir -p "$venv" || setup_failed "cannot create the directory"
    # Two first runs at once (e.g. parallel CI steps) must not install over each other.
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$venv/.lock"
        flock 9
        if [[ -x "$venv/bin/python" ]] && cmp -s "$requirements" "$stamp"; then
            return
        fi
    fi
    local python="${ANALYZE_PYTHON:-python3}"
    command -v "$python" >/dev/null 2>&1 || setup_failed "'$python' not found (set ANALYZE_PYTHON)"
    local log
    log="$(mktemp "${TMPDIR:-/tmp}/$venv_prog-setup.XXXXXX")"
    local packages
    # The direct dependencies by name (the file lists them before the pinned transitive ones).
    packages="$(awk '/^# Transitive/ { exit } /^[A-Za-z]/ { split($0, name, "=="); printf "%s%s", sep, name[1]; sep=", " }' \
        "$requirements") and what they need"
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "$venv_prog: first run: installing $packages (scripts/requirements.txt) into $venv" \
            "(DISPATCHBENCH_VENV chooses where)" >&2
        "$python" -m venv "$venv" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; setup_failed "venv creation failed"; }
    else
        echo "$venv_prog: requirements.txt changed: installing $packages into $venv" >&2
    fi
    rm -f "$stamp"
    # --no-compile: pip would compile every module it installs, most of which nothing here imports (half of pip's
    # time). Python compiles a module when it is first imported and keeps it, except where PYTHONDONTWRITEBYTECODE
    # is set; so what the scripts and their tests import is imported once here with it unset.
    "$venv/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check -r "$requirements" \
        >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; setup_failed "pip install -r $requirements failed"; }
    env -u PYTHONDONTWRITEBYTECODE "$venv/bin/python" -c "$imported" >"$log" 2>&1 \
        || { cat "$log" >&2; rm -f "$log"; setup_failed "the installed packages cannot be imported"; }
    rm -f "$log"
    cp "$requirements" "$stamp"
}

