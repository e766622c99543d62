# scripts/venv.sh: sourced by scripts/analyze and scripts/bench-commits. Defines ensure_venv, which creates a
# virtual environment at <repo>/.venv and installs scripts/requirements.txt into it, re-installing whenever
# requirements.txt changes (a copy of the installed file is kept in .venv as the stamp); exit 3 when it cannot.
#
# Needs: scripts_dir (this directory) and venv_prog (the name in messages). ANALYZE_PYTHON picks the
# interpreter used to create the venv (default: python3).

repo_dir="$(dirname "$scripts_dir")"
venv="$repo_dir/.venv"
requirements="$scripts_dir/requirements.txt"
stamp="$venv/.requirements.installed"

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
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "$venv_prog: creating $venv (first run)..." >&2
        "$python" -m venv "$venv" >"$log" 2>&1 || { cat "$log" >&2; rm -f "$log"; setup_failed "venv creation failed"; }
    else
        echo "$venv_prog: requirements.txt changed, updating $venv..." >&2
    fi
    rm -f "$stamp"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >"$log" 2>&1 \
        || { cat "$log" >&2; rm -f "$log"; setup_failed "pip install -r $requirements failed"; }
    rm -f "$log"
    cp "$requirements" "$stamp"
}

