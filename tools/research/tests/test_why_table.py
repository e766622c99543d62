"""why_table.py: the labels counted as the report gives them, an unclear case listed with its reason, and the known
mechanisms' table from the exact split (its negative control: a case of another variant is not in it)."""

from __future__ import annotations

from analyze_lib.files.loader import load_results
from csvgen import case, write_results
from why_table import diagnoses, report

RUN = {"logical_cpus": "2"}
MUTEX = case("isolation", "mixed", "mutex", 8, "read_pct=0")
OTHER = case("isolation", "mixed", "nslock", 2, "read_pct=0")
# One switch in per op and 78% of each thread's time blocked: a convoy; 30 µs running per op before each sleep. The
# process ran about what its 8 threads did (0.96 of its 2 CPUs): nothing elsewhere.
CONVOY = {"schedule": {"running": 0.12, "runqueue": 0.10, "switches_in": 1.0}, "voluntary": 1.0, "utilisation": 0.5}
# Two threads on two CPUs, half their time blocked with hardly a switch, 1.6 CPUs busy: none of the rules holds.
NOTHING = {"schedule": {"running": 0.5, "runqueue": 0.0, "switches_in": 0.0}, "utilisation": 0.8}


def test_labels_unclear_cases_and_the_known_table(tmp_path):
    path = write_results(tmp_path / "r.csv", {MUTEX: 250_000.0, OTHER: 300.0}, version=8, run=RUN,
                         signals={MUTEX: CONVOY, OTHER: NOTHING})
    found = diagnoses(load_results(path))
    lines = report(found)
    labels = {key.variant: d.label for key, d in found.items()}
    assert labels == {"mutex": "convoy-after-spinning", "nslock": "unclear"}
    assert lines[0].startswith("2 cases: ")
    assert set(lines[0][len("2 cases: "):].split(", ")) == {"1 convoy-after-spinning", "1 unclear"}
    assert "Unclear: 1 of 2 (50.0%)." in lines
    assert any(line.startswith("- `isolation/mixed/nslock threads:2 read_pct=0`: unclear: ") for line in lines)
    rows = [line for line in lines if line.startswith("| `")]
    assert len(rows) == 1 and rows[0].startswith("| `mutex` | 8 | read_pct=0 | convoy-after-spinning | ")
    assert rows[0].endswith("| 1 |"), "one switch in per op"
