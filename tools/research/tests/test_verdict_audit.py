"""verdict_audit.py: the labels and unclear cases as the report gives them, the disqualified variants with their
reasons, and the lock-free table that counts a sample with a thread at zero (its negative control: a fair one)."""

from __future__ import annotations

from analyze_lib.files.loader import load_results
from csvgen import case, write_results
from verdict_audit import audit

RUN = {"logical_cpus": "2"}
INLINE = case("once", "hit", "dispatch-once-inline", 2, "tokens=1")
FLAG = case("once", "hit", "atomic-flag", 2, "tokens=1")


def test_a_lock_free_sample_with_a_thread_at_zero_is_counted_and_a_fair_one_is_not(tmp_path):
    path = write_results(tmp_path / "r.csv", {INLINE: [1.0] * 5, FLAG: [1.0] * 5}, version=10, run=RUN,
                         thread_ops={INLINE: (0, 100000)})
    lines = audit(load_results(path))
    assert lines[0] == "## Labels (2 cases)"
    rows = {line.split(" | ")[0]: line for line in lines if line.startswith("| `once/hit/")}
    assert rows["| `once/hit/dispatch-once-inline` tokens=1"].endswith("| 2 | 5 | 5 | 5 | 5 | 0 |")
    assert rows["| `once/hit/atomic-flag` tokens=1"].endswith("| 2 | 5 | 0 | 0 | 0 | 0 |")
    assert "- `once/dispatch-once-inline`: starved in 5 of 5 samples" in "\n".join(lines)
