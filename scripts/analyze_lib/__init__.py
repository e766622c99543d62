"""Analysis of DispatchBench results CSVs: report, compare, gate and history.

The layers, one module each: ``schema`` (the CSV columns per version), ``loader``
(CSV -> cases), ``stats`` (medians, bootstrap, Mann-Whitney U), ``compare`` (the pure
comparison), ``render`` (Markdown/text/JSON), ``doc`` and ``charts`` (report building
blocks), ``report``, ``history``, ``output`` (atomic directory writes) and ``cli``.
"""
