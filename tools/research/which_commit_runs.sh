#!/usr/bin/env bash
# The runs of docs/findings/2026-11-29-which-commit-over-a-series.md: which_commit_runs.sh GOOD BAD OUT, with the
# series in /tmp/series (which_commit_series.sh). For each commit of GOOD^..BAD: build, one timing run and one count
# run into OUT/runs; then 12 timing runs of BAD into OUT/aa (the A/A series). For `scripts/analyze history`.
set -euo pipefail
good=${1:?GOOD}; bad=${2:?BAD}; out=${3:?out dir}
filter='^isolation/mixed/(pthread-mutex|mutex)$'
clone=/tmp/series-run
rm -rf "$clone" "$out/runs" "$out/aa"; mkdir -p "$out/runs" "$out/aa"
git clone -q /tmp/series "$clone"; cd "$clone"
i=0
for c in $(git rev-list --reverse "$good^..$bad"); do
    git checkout -q "$c"
    s=$SECONDS; swift build -c release --product bench >/dev/null 2>&1; b=$((SECONDS - s))
    s=$SECONDS
    .build/release/bench --filter "$filter" --threads 1 --output "$out/runs/$(printf %02d $i)-${c:0:7}.csv" >/dev/null 2>&1
    .build/release/bench count --filter "$filter" --quick --output "$out/runs/counts-$(printf %02d $i)-${c:0:7}.csv" >/dev/null 2>&1
    echo "$i ${c:0:7} build ${b}s runs $((SECONDS - s))s"
    i=$((i + 1))
done
for k in $(seq -w 1 12); do
    s=$SECONDS
    .build/release/bench --filter "$filter" --threads 1 --output "$out/aa/aa-$k.csv" >/dev/null 2>&1
    echo "aa $k $((SECONDS - s))s"
done
