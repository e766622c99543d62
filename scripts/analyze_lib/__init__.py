"""Analysis of DispatchBench results CSVs: report, compare, gate, export, budget and history.

Three stages, one folder each; a stage imports only from itself, the stages before it and
the two shared modules at the top (guarded by scripts/tests/test_layers.py):

``files/``: reading (and writing) files; knows nothing of verdicts.
    ``errors`` (the one error type, exit 2), ``schema`` (the CSV columns per version),
    ``model`` (case keys, cases and loaded files: the data every stage shares; no I/O),
    ``loader`` (CSV -> model, the only module that reads results files), ``output``
    (atomic output directories), ``commits`` (a run's commit's subject line, from git).
``judge/``: pure decisions, data in, outcomes out; imports ``files``.
    ``stats`` (medians, bootstrap, Mann-Whitney U, noise floor), ``lazy_scipy`` (scipy.stats, imported at its
    first use: a command's help need not wait for it), ``summary`` (the one
    per-case summary, the median of round medians, and the factor between two cases),
    ``compare`` (two timing runs per case: ratio, interval, p, outcome; ``classify`` is
    the one rule), ``paired`` (the rule for two builds alternated sample by sample: log
    ratios of pairs, each case's resolution), ``comparable`` (whether two runs can be compared, and their common
    cases), ``counts_compare`` (two counts files, exactly), ``budgets`` (a counts file's built-in cases held to
    the instruction budgets recorded for them), ``gate`` (a
    comparison's status and exit code, with the facts behind it), ``pass_evidence`` (what beyond its cases' outcomes
    stands against a pass: a suite that moved, cases not judged that moved, the machine's canary), ``stress`` (a stress
    file's verdict, and which variants it proves: the rule of what a report may recommend),
    ``situations`` (which thread counts and param values a benchmark's situations are, and
    the few facts a file does not carry), ``signals`` (a case's per-operation signals: switches,
    kernel and user time, utilisation, fairness, OS threads), ``conditions`` (how a run was made,
    whether the machine was busy as its samples measured it, and where fairness can be judged),
    ``evidence`` (which samples are evidence that a thread starved: not spoiled by the host,
    not a batch edge, its threads running; and the floor the run's controls set),
    ``decisions`` (the report's which one to use, runner-up, avoid and disqualified per situation),
    ``picks`` (what to use within the CPUs per benchmark, its cost with its interval, the seed patterns beside it),
    ``diagnosis`` (why a case costs what it does: one mechanism label per case, and the cliffs
    along threads), ``headlines`` (which findings a report opens with), ``moved`` (what moved
    with a slower case: switches and kernel time per op on both sides), ``control`` (the same-code control: whether
    a suite moved in every round although its code is identical), ``change_points`` (where a case's series of runs
    shifted and stayed: ruptures' candidates, each judged on the runs either side).
``present/``: formats what judging decided; imports ``files`` and ``judge``.
    ``render`` (a comparison as Markdown/text/JSON), ``counts_render`` (the same for
    counts), ``budget_text`` (the instruction budgets' verdict and the cases it names), ``gate_text`` (a gate
    decision's headline and notes), ``control_text`` (the same-code control's table
    and headline), ``outcome_text`` (a case's
    outcome in words, and what a paired comparison could see), ``limits_text`` (what limited a
    comparison's judging, in words), ``doc`` (a small document model to Markdown/HTML, and the one Markdown table
    writer), ``decision_table`` (the decisions as the report's table), ``origin_marks`` (a brought-in
    variant named with its module, and the list of them), ``proof_marks`` (a variant the stress file does not
    prove, marked so), ``conditions_text`` (a run's conditions in
    words), ``diagnosis_text`` (a diagnosis, a cliff and what moved in words), ``headlines_text`` (the report's
    headlines as a table, a short row each), ``picks_text`` (what to use within the CPUs as the first screen's
    table), ``tables`` (the
    report's reference tables), ``figures`` (figure layout and budget), ``charts`` (drawing,
    matplotlib), ``chart_plan`` (which charts a report draws), ``report`` (``analyze
    report``), ``history`` (``analyze history``), ``history_charts`` (its trend charts),
    ``change_points_text`` (its change points in words, on charts and as bisect commands), ``export`` (dashboards).

At the top: ``cli`` (the argparse front), ``argtypes`` (option values checked as argparse reads
them; bench_commits' options use it too) and ``__main__`` (``python -m analyze_lib``); and
two shared modules that import nothing from the package, so any stage may take them:
``exit_codes`` (every exit code, defined once; bench_commits imports it too) and ``fmt``
(numbers as words: durations, ratios, intervals, p-values, counts, JSON numbers).
"""
