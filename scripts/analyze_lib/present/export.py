"""Export one results file for outside dashboards: github-action-benchmark and Bencher.

``export_document()`` is pure (a loaded file in, a JSON-ready document and warnings
out); the CLI writes it. The mapping, per case (named by its label,
``suite/benchmark/variant threads:N params``):

- timing file: the median ns/op (the median of round medians when the case has
  rounds) with the interquartile range of its samples;
- counts file: instructions/op and allocations/op (exact, so no range).

github (``customSmallerIsBetter``): a list of ``{name, unit, value, range?, extra?}``;
``range`` is the IQR's half-width as ``± x`` (a string, as the action shows it) and
``extra`` says the quartiles and how many samples and rounds; counts give two entries a
case, ``<label> instructions/op`` and ``<label> allocations/op``.

bencher (Bencher Metric Format): ``{name: {measure: {value, lower_value?, upper_value?}}}``;
timing uses the built-in ``latency`` measure (ns) with the quartiles as bounds; counts use
the measures ``instructions`` and ``allocations`` (per op; Bencher creates a measure it
does not know yet).

A case whose median is starved (``inf``: no operation completed) has no number either
format can hold: it is left out and named in a warning, never silently.
"""

from __future__ import annotations

import math

from ..files.model import CountsFile, ResultsFile
from ..judge.stats import quartiles
from ..judge.summary import case_median

GITHUB = "github"
BENCHER = "bencher"
EXPORT_FORMATS = (GITHUB, BENCHER)
NS_UNIT = "ns/op"
BENCHER_LATENCY = "latency"
COUNT_MEASURES = (("instructions", "instructions/op", "instructions_per_op"),
                  ("allocations", "allocations/op", "allocations_per_op"))


def _number(value: float) -> str:
    return f"{value:.4g}"


def _timing_entries(results: ResultsFile):
    """(label, value, q1, q3, samples, rounds) per case in case order, and warnings."""
    entries, warnings = [], []
    for key in sorted(results.cases, key=lambda k: k.sort_key()):
        case = results.cases[key]
        value = case_median(case)
        low, high = quartiles(case.ns_per_op)
        if not math.isfinite(value):
            warnings.append(f"{results.path}: {key.label}: starved median (no operation completed), "
                            "left out of the export")
            continue
        entries.append((key.label, value, low, high, case.n, case.round_count))
    return entries, warnings


def export_document(loaded: ResultsFile | CountsFile, fmt: str) -> tuple[object, list[str]]:
    """The ``fmt`` (GITHUB or BENCHER) document of a loaded timing or counts file, and the
    warnings (cases left out)."""
    if isinstance(loaded, CountsFile):
        cases = [loaded.cases[k] for k in sorted(loaded.cases, key=lambda k: k.sort_key())]
        if fmt == GITHUB:
            return [{"name": f"{c.key.label} {unit}", "unit": unit, "value": getattr(c, attribute)}
                    for c in cases for _, unit, attribute in COUNT_MEASURES], []
        return {c.key.label: {measure: {"value": getattr(c, attribute)}
                              for measure, _, attribute in COUNT_MEASURES} for c in cases}, []
    entries, warnings = _timing_entries(loaded)
    if fmt == GITHUB:
        document = []
        for label, value, low, high, samples, rounds in entries:
            entry = {"name": label, "unit": NS_UNIT, "value": value}
            if math.isfinite(high):
                entry["range"] = f"± {_number((high - low) / 2)}"
            entry["extra"] = (f"IQR {_number(low)}-{_number(high)} ns/op; {samples} samples in "
                              f"{rounds} round{'s' if rounds != 1 else ''}")
            document.append(entry)
        return document, warnings
    document = {}
    for label, value, low, high, _, _ in entries:
        metric = {"value": value, "lower_value": low}
        if math.isfinite(high):
            metric["upper_value"] = high
        document[label] = {BENCHER_LATENCY: metric}
    return document, warnings
