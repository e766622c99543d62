"""Starvation across roles compares each role's share of time, not raw operation counts (issue 62). A store whose
writes cost 100× its reads (a `LockIsolated` that copies its dictionary on every write) completes 100× fewer writes
in a fair share of the time: not starved. A writer whose threads hardly ran while the readers ran is. Synthetic
isolation/roles rows at schema 8 (the sched_ columns give each role's running share); a file without the split
still compares operations, as before."""

from __future__ import annotations

from analyze_lib.files.loader import load_results
from analyze_lib.judge.conditions import run_conditions
from analyze_lib.judge.decisions import ROLE_STARVATION_FACTOR, role_rows, role_starvation
from csvgen import case, write_results

READERS = (100000, 100000)   # (thread_ops_min, thread_ops_max) of the readers
WRITER = (1000, 1000)        # 100× fewer per thread


def _roles(role: str, variant: str = "lock-isolated"):
    return case("isolation", "roles", variant, 2, f"keys=1000;role={role};writers=1")


def _schedule(running: float) -> dict:
    # The rest of each thread's time blocked; two CPUs for two threads, so no wait for a CPU.
    return {"schedule": {"running": running, "runqueue": 0.0, "switches_in": 0.001}}


def _verdict(tmp_path, read_running: float | None, write_running: float | None, version: int = 8,
             writer=WRITER) -> str | None:
    cases = {_roles("read"): 100.0, _roles("write"): 10000.0}
    signals = {}
    if read_running is not None and write_running is not None:
        signals = {_roles("read"): _schedule(read_running), _roles("write"): _schedule(write_running)}
    path = write_results(tmp_path / f"roles-{version}.csv", cases, version=version, run={"logical_cpus": "2"},
                         thread_ops={_roles("read"): READERS, _roles("write"): writer}, signals=signals)
    rows = list(role_rows(load_results(path).cases.values()).values())
    assert len(rows) == 1 and len(rows[0]) == 2
    return role_starvation(rows[0])


def test_costly_writes_in_a_fair_share_of_the_time_are_not_starved(tmp_path):
    # Negative control: 100× fewer writes than reads per thread, but the writer ran 95% of its time, as the reader.
    assert _verdict(tmp_path, 0.95, 0.95) is None
    # Still not starved when its share is a little smaller, short of the factor (the reader ran 9.5× as long).
    assert _verdict(tmp_path, 0.95, 0.95 / (ROLE_STARVATION_FACTOR - 0.5)) is None


def test_a_writer_that_hardly_ran_is_starved(tmp_path):
    found = _verdict(tmp_path, 0.95, 0.005)
    assert found == ("prefers readers: starves role=write (its threads ran 0.5% of their time, role=read's 95%; "
                     "100× fewer ops per thread than role=read)")


def test_a_role_that_ran_less_but_did_as_many_ops_is_not_starved(tmp_path):
    # Less time on a CPU alone is no starvation either: the role's operations were cheap and it did as many.
    assert _verdict(tmp_path, 0.95, 0.005, writer=READERS) is None


def test_a_role_that_completed_nothing_is_starved_whatever_its_time(tmp_path):
    # Its writer ran 95% of its time (spun, never slept): no preference is claimed, only the starvation.
    assert _verdict(tmp_path, 0.95, 0.95, writer=(0, 0)) == "starves role=write (its threads completed no operation)"


def test_without_the_split_operations_per_thread_decide_as_before(tmp_path):
    # Schema 7 has no sched_ columns: nothing measures each role's time, so the operations stand in for it.
    # Nothing says the writer slept: no preference is claimed.
    assert _verdict(tmp_path, None, None, version=7) == "starves role=write (100× fewer ops per thread than role=read)"
    # A schema 8 file whose platform wrote the columns empty: the same.
    assert _verdict(tmp_path, None, None, version=8) == "starves role=write (100× fewer ops per thread than role=read)"


def _labels(tmp_path, read_running: float, write_running: float, writer=WRITER, switches: float = 0.001):
    from analyze_lib.judge.diagnosis import diagnose

    cases = {_roles("read", "rwlock"): 100.0, _roles("write", "rwlock"): 10000.0}
    # The process's CPU time is the two rows' running time: nothing ran elsewhere.
    signals = {key: {"schedule": {"running": running, "runqueue": 0.0, "switches_in": switches},
                     "utilisation": (read_running + write_running) / 2}
               for key, running in ((_roles("read", "rwlock"), read_running),
                                    (_roles("write", "rwlock"), write_running))}
    path = write_results(tmp_path / "labels.csv", cases, version=8, run={"logical_cpus": "2"},
                         thread_ops={_roles("read", "rwlock"): READERS, _roles("write", "rwlock"): writer},
                         signals=signals)
    loaded = load_results(path)
    found = diagnose(loaded.cases, loaded.logical_cpus, 1.0, floor=run_conditions(loaded).floor)
    return {dict(k.params)["role"]: d.label for k, d in found.items()}


def test_a_starved_writer_gives_every_row_of_its_measurement_the_one_cause(tmp_path):
    # Issue 73: the rwlock's write row was "convoy after spinning" in the headline and "starves role=write" in the
    # table. The writer that completed nothing and the readers beside it are both the measurement that starves it.
    assert _labels(tmp_path, 0.95, 0.005, writer=(0, 0)) == {"read": "starves-a-role", "write": "starves-a-role"}
    # Negative control: a fair share each: neither row is.
    assert "starves-a-role" not in _labels(tmp_path, 0.95, 0.95).values()


def test_a_role_row_of_one_thread_beside_another_role_is_no_hand_off(tmp_path):
    # One writer and one reader that each block and switch every op queue on each other: a convoy, though each row
    # counts one thread (the hand-off is one caller alone).
    labels = _labels(tmp_path, 0.3, 0.3, writer=READERS, switches=1.0)
    assert labels == {"read": "convoy", "write": "convoy"}


def test_a_role_lost_to_preempted_waiters_beyond_the_cpus_is_advice_and_a_sleeping_writer_is_starved(tmp_path):
    # Issue 73: a FIFO ticket lock's writer at 8 threads on 2 CPUs completed nothing while its threads ran or waited
    # for a CPU (never asleep): lock-waiter preemption, no disqualification. The rwlock's writer slept (96-100% of
    # its time in the quiet full run): starved by the readers.
    def verdict(writer_running: float, writer_runqueue: float) -> str | None:
        key = {role: case("isolation", "roles", "ticket-lock", 8, f"keys=1000;role={role};writers=1")
               for role in ("read", "write")}
        signals = {key["read"]: {"schedule": {"running": 0.25, "runqueue": 0.75, "switches_in": 0.9}},
                   key["write"]: {"schedule": {"running": writer_running, "runqueue": writer_runqueue,
                                               "switches_in": 0.9}}}
        path = write_results(tmp_path / "ticket.csv", {key["read"]: 1e6, key["write"]: 1e6}, version=8,
                             run={"logical_cpus": "2"}, thread_ops={key["read"]: READERS, key["write"]: (0, 0)},
                             signals=signals)
        [rows] = role_rows(load_results(path).cases.values()).values()
        return role_starvation(rows, 2)

    assert verdict(0.2, 0.8) is None
    # Negative control: the same writer asleep 96% of its time.
    assert verdict(0.02, 0.02) == "prefers readers: starves role=write (its threads completed no operation)"
