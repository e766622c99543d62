"""bench-commits: measure two commits of DispatchBench on one machine, interleaved, and gate the difference.

The outside of the project, beside analyze_lib: git (resolve revisions, temporary worktrees), building
``bench`` in each, running the rounds (paired, or in ABBA order), then analyze_lib's comparison and gate.

Pure, decided without side effects: ``paired_plan`` and ``abba_plan`` (what a run of each mode will do),
``bench_options`` (bench's options as passed on), ``sides`` (the two sides and their file names),
``verdict`` (a run's one exit code and word) and ``gate_check`` (``--check-gate``'s comparisons and their
judgement). Side effects: ``git``, ``build_cache``, ``link_kit`` and ``round_binaries`` (the builds and their
links), ``worker``, ``paired`` and ``run`` (the runs), ``workspace`` (the worktrees and logs of one run) and
``comparison`` (the comparison of two commits, from their builds to its Markdown and exit code). ``bisect`` is
the search of ``bench-commits bisect``, pure over a probe of each commit; ``bisect_run`` its probe on real
commits and ``bisect_report`` its report. ``cli`` is the argparse front (``scripts/bench-commits``).
"""
