"""compare and gate warn when the two runs were measured with different settings."""

from __future__ import annotations

import json

from analyze_lib.cli import main
from csvgen import case, write_results

QUICK = {"run_samples": "5", "run_warmup": "1", "run_sample_ns": "2000000", "run_quick": "true",
         "run_filter": "^once/", "run_threads": "1,2", "run_rounds": "2", "run_seed": "42"}
UNCOMPARABLE = "timings may not be comparable"


def _warnings(tmp_path, capsys, base_run=None, head_run=None, base_version=3, head_version=3,
              command="compare"):
    base = write_results(tmp_path / "b.csv", {case(): 100.0}, version=base_version, run=base_run, seed=1)
    head = write_results(tmp_path / "h.csv", {case(): 100.0}, version=head_version, run=head_run, seed=2)
    code = main([command, str(base), str(head), "--format", "json"])
    return code, json.loads(capsys.readouterr().out)["warnings"]


def test_each_differing_setting_is_named_with_both_values(tmp_path, capsys):
    code, warnings = _warnings(tmp_path, capsys, head_run=QUICK)
    assert code == 0
    assert warnings == [
        f"different run setting samples per case (run_samples): base 15, head 5; {UNCOMPARABLE}",
        f"different run setting warm-up samples (run_warmup): base 2, head 1; {UNCOMPARABLE}",
        f"different run setting least sample duration in ns (run_sample_ns): base 20000000, "
        f"head 2000000; {UNCOMPARABLE}",
        f"different run setting --quick (run_quick): base false, head true; {UNCOMPARABLE}",
        f"different run setting --filter (run_filter): base '', head '^once/'; {UNCOMPARABLE}",
        f"different run setting --threads (run_threads): base '1,2,4,8', head '1,2'; {UNCOMPARABLE}",
        f"different run setting rounds (run_rounds): base 1, head 2; {UNCOMPARABLE}",
    ]  # not run_seed: a shuffle seed differs by design


def test_the_gate_warns_but_does_not_fail_on_different_settings(tmp_path, capsys):
    base = write_results(tmp_path / "b.csv", {case(): 100.0}, version=3, seed=1)
    head = write_results(tmp_path / "h.csv", {case(): 100.0}, version=3, run={"run_samples": "20"}, seed=2)
    assert main(["gate", str(base), str(head), "--format", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (f"warning: different run setting samples per case (run_samples): base 15, head 20; "
            f"{UNCOMPARABLE}") in lines
    assert lines[-1] == "Gate: passed, no case slower"


def test_same_settings_give_no_settings_warning(tmp_path, capsys):
    code, warnings = _warnings(tmp_path, capsys, head_run={"run_seed": "7", "load_avg_1m": "3.5",
                                                           "bench_version": "0.4.0"})
    assert warnings == []


def test_allocator_and_build_are_compared_too(tmp_path, capsys):
    code, warnings = _warnings(tmp_path, capsys, head_run={"allocator": "jemalloc", "build": "debug"})
    assert f"different allocator: base 'system', head 'jemalloc'; {UNCOMPARABLE}" in warnings
    assert f"different build: base 'release', head 'debug'; {UNCOMPARABLE}" in warnings


def test_settings_of_older_files_are_unknown(tmp_path, capsys):
    _, warnings = _warnings(tmp_path, capsys, base_version=2, head_version=2)
    assert warnings == ["run settings unknown: neither file records them (schema version 2; "
                        "version 3 does), so they cannot be checked to match"]
    _, warnings = _warnings(tmp_path, capsys, base_version=1, head_version=3, command="gate")
    assert ("run settings of base unknown: schema version 1 does not record them (version 3 "
            "does), so they cannot be checked against head's") in warnings
