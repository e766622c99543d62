# scripts/steps.sh: sourced by scripts/test and .ci/run, so that each says where its time goes. `step NAME [HEADER]`
# starts a step: it prints "== HEADER" (NAME when there is none), and when the next step starts, or the script exits,
# "NAME: N s". At exit a summary follows: every step's time, the longest step and the total wall time (and, on
# failure, the step that failed).
#
# The steps' commands run at the top level of the script, not inside a function: a function called in a
# condition runs with `set -e` ignored, which would let a failed command go on unnoticed.
#
# Needs: steps_title (the script's name in the summary). Sets the EXIT trap: a script that has files to remove at
# exit adds them to steps_remove instead of setting a trap of its own.

steps_started=$SECONDS
step_names=()
step_seconds=()
step_current=""
step_started=0
steps_remove=()

_step_finish() {
    [[ -n "$step_current" ]] || return 0
    local took=$((SECONDS - step_started))
    echo "$step_current: $took s"
    step_names+=("$step_current")
    step_seconds+=("$took")
    step_current=""
}

step() {
    _step_finish
    step_current="$1"
    step_started=$SECONDS
    echo "== ${2:-$1}"
}

_steps_summary() {
    local status=$?
    local failed="$step_current"
    if ((${#steps_remove[@]} > 0)); then rm -rf -- "${steps_remove[@]}"; fi
    _step_finish
    local total=$((SECONDS - steps_started))
    local longest=0 i
    echo "== $steps_title: time of each step"
    for i in "${!step_names[@]}"; do
        printf '%6d s  %s\n' "${step_seconds[$i]}" "${step_names[$i]}"
        if ((step_seconds[i] > step_seconds[longest])); then longest=$i; fi
    done
    if ((${#step_names[@]} > 0)); then
        echo "$steps_title: longest step: ${step_names[$longest]} (${step_seconds[$longest]} s); total: $total s"
    fi
    if ((status != 0)); then
        echo "$steps_title: failed (exit $status)${failed:+ in step: $failed}" >&2
    fi
    return "$status"
}

trap _steps_summary EXIT
