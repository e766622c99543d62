"""Analysis of DispatchBench results CSVs: report, compare, gate and history.

The layers, one module each: ``schema`` (the CSV columns per version), ``model`` (case
keys, cases and loaded files: the data every other module shares), ``loader`` (CSV ->
model, the only module that reads results files), ``stats`` (medians, bootstrap,
Mann-Whitney U), ``compare`` (the pure comparison), ``render`` (Markdown/text/JSON),
``doc`` and ``charts`` (report building blocks), ``report``, ``history``, ``output``
(atomic directory writes) and ``cli``.
"""
