"""bench-commits: measure two commits of DispatchBench on one machine, interleaved, and gate the difference.

The outside of the project, beside analyze_lib: git (resolve revisions, temporary worktrees), building
``bench`` in each, running fresh-process rounds in ABBA order, then analyze_lib's comparison and gate.
``plan`` is pure (the order of invocations, their arguments, the file names, the verdicts); ``git`` and
``run`` do the side effects; ``cli`` is the argparse front (``scripts/bench-commits``).
"""
