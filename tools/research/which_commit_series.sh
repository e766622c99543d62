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
M=Sources/SyncVariants/Isolation/MutexStore.swift
P=Sources/SyncVariants/Isolation/PthreadMutexStore.swift
S=Sources/SyncVariants/Isolation/SpinLockStore.swift
python3 - "$M" <<'PY'
import sys; p=sys.argv[1]; s=open(p).read()
old="        entries.withLock { $0[model.id] = model }\n"
assert old in s; open(p,"w").write(s.replace(old, "        for _ in 0..<3 { entries.withLock { _ in } }\n"+old))
PY
c "plant (GOOD): MutexStore.write takes its lock 3 extra times"
echo "" >> docs/running.md; echo "Series note 1: docs only." >> docs/running.md; c "docs: a note in running.md"
sed -i 's/repeat { sync_spin_pause() } while held.load(ordering: .relaxed)/repeat { sync_spin_pause(); sync_spin_pause() } while held.load(ordering: .relaxed)/' "$S"
grep -q "sync_spin_pause(); sync_spin_pause()" "$S"; c "spin-lock: two pause hints per look at the flag"
echo "Series note 2: docs only." >> docs/running.md; c "docs: another note in running.md"
python3 - "$P" <<'PY'
import sys; p=sys.argv[1]; s=open(p).read()
old="        withLock { entries[id] }\n"
assert s.count(old)==1; open(p,"w").write(s.replace(old, "        for _ in 0..<3 { withLock {} }\n        return withLock { entries[id] }\n"))
PY
c "plant (slowdown): PthreadMutexStore.read takes its mutex 3 extra times"
echo "Series note 3: docs only." >> docs/measuring.md; c "docs: a note in measuring.md"
sed -i 's/repeat { sync_spin_pause(); sync_spin_pause() } while/repeat { sync_spin_pause() } while/' "$S"
c "spin-lock: one pause hint again"
echo "Series note 4: docs only." >> docs/measuring.md; c "docs: another note in measuring.md"
python3 - "$M" <<'PY'
import sys; p=sys.argv[1]; s=open(p).read()
old="        for _ in 0..<3 { entries.withLock { _ in } }\n"
assert s.count(old)==1; open(p,"w").write(s.replace(old, ""))
PY
c "plant (speedup): MutexStore.write takes its lock once"
echo "Series note 5: docs only." >> docs/stress.md; c "docs: a note in stress.md"
sed -i 's/repeat { sync_spin_pause() } while held.load(ordering: .relaxed)/repeat { sync_spin_pause(); sync_spin_pause() } while held.load(ordering: .relaxed)/' "$S"
grep -q "sync_spin_pause(); sync_spin_pause()" "$S"; c "spin-lock: two pause hints again"
echo "Series note 6: docs only." >> docs/stress.md; c "docs: another note in stress.md"
echo "Series note 7: docs only." >> docs/analyze.md; c "docs: a note in analyze.md"
git log --oneline | head -14
