#!/usr/bin/env bash
# Makes the series of docs/findings/2026-11-29-which-commit-over-a-series.md: which_commit_series.sh REPO DIR clones
# REPO's HEAD into DIR and commits on it GOOD (MutexStore.write takes its lock 3 extra times), then 12 commits:
# docs-only ones, spin-lock changes, a slowdown (PthreadMutexStore.read takes its mutex 3 extra times) and a speedup
# (MutexStore.write takes its lock once).
set -euo pipefail
src=${1:?main repo}; dir=${2:?series dir}
rm -rf "$dir"; git clone -q "$src" "$dir"; cd "$dir"
git config user.email series@example.com; git config user.name series
c() { git add -A; git commit -qm "$1"; }
# swap FILE OLD NEW: OLD, which FILE holds exactly once, becomes NEW.
swap() {
    python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
assert text.count(old) == 1, f"{path}: {old!r} is not there exactly once"
open(path, "w").write(text.replace(old, new))
PY
}
M=Sources/SyncVariants/Isolation/MutexStore.swift
P=Sources/SyncVariants/Isolation/PthreadMutexStore.swift
S=Sources/SyncVariants/Isolation/SpinLockStore.swift
write='        entries.withLock { $0[model.id] = model }
'
extra_locks='        for _ in 0..<3 { entries.withLock { _ in } }
'
one_pause='repeat { sync_spin_pause() } while'
two_pauses='repeat { sync_spin_pause(); sync_spin_pause() } while'
note() { echo "Series note $1: docs only." >> "docs/$2"; }
swap "$M" "$write" "$extra_locks$write"; c "plant (GOOD): MutexStore.write takes its lock 3 extra times"
echo "" >> docs/running.md; note 1 running.md; c "docs: a note in running.md"
swap "$S" "$one_pause" "$two_pauses"; c "spin-lock: two pause hints per look at the flag"
note 2 running.md; c "docs: another note in running.md"
swap "$P" '        withLock { entries[id] }
' '        for _ in 0..<3 { withLock {} }
        return withLock { entries[id] }
'
c "plant (slowdown): PthreadMutexStore.read takes its mutex 3 extra times"
note 3 measuring.md; c "docs: a note in measuring.md"
swap "$S" "$two_pauses" "$one_pause"; c "spin-lock: one pause hint again"
note 4 measuring.md; c "docs: another note in measuring.md"
swap "$M" "$extra_locks" ""; c "plant (speedup): MutexStore.write takes its lock once"
note 5 stress.md; c "docs: a note in stress.md"
swap "$S" "$one_pause" "$two_pauses"; c "spin-lock: two pause hints again"
note 6 stress.md; c "docs: another note in stress.md"
note 7 analyze.md; c "docs: a note in analyze.md"
git log --oneline | head -14
