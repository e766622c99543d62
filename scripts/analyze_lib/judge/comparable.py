"""Whether two runs can be compared, and which of their cases: the run metadata and run
settings that must match (each difference is a warning, never a refusal), what the loader
worked around in either file, and the cases both files hold.
"""

from __future__ import annotations

import re
from typing import Any

from ..files.errors import AnalyzeError
from ..files.model import CaseKey, CountsFile, ResultsFile, filter_cases
from ..files.schema import RUN_SETTING_COLUMNS, RUN_SETTING_FROM, RUN_SETTINGS_SINCE_VERSION

# Run metadata that must match for timings to be comparable, with a reader's name.
COMPARABLE_RUN_FIELDS = (
    ("host", "host"),
    ("cpu_model", "CPU model"),
    ("logical_cpus", "logical CPU count"),
    ("swift_version", "Swift version"),
    ("build", "build"),
    ("allocator", "allocator"),
    ("schema_version", "schema version"),
)

# How a warning names each run setting (schema.RUN_SETTING_COLUMNS): bench's option or
# what it sets.
RUN_SETTING_LABELS = {
    "run_samples": "samples per case",
    "run_warmup": "warm-up samples",
    "run_sample_ns": "least sample duration in ns",
    "run_quick": "--quick",
    "run_filter": "--filter",
    "run_threads": "--threads",
    "run_rounds": "rounds",
    "run_spin_scale": "--spin-scale",
    "run_min_rounds": "fewest rounds a case (less than rounds when adaptive)",
}


def _setting_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


def _records_settings(results: ResultsFile) -> bool:
    return all(column in results.run for column in RUN_SETTING_COLUMNS)


def run_warnings(base: ResultsFile, head: ResultsFile, names: tuple[str, str] = ("base", "head")) -> list[str]:
    """Warnings about runs whose timings are not comparable (machine, build, run
    settings, ...); ``names`` are what the messages call the two runs."""
    warnings = []
    for name, label in COMPARABLE_RUN_FIELDS:
        if base.run[name] != head.run[name]:
            warnings.append(
                f"different {label}: {names[0]} {base.run[name]!r}, {names[1]} {head.run[name]!r}; "
                "timings may not be comparable")
    if _records_settings(base) and _records_settings(head):
        for column in RUN_SETTING_COLUMNS:
            before, after = base.run[column], head.run[column]
            # A setting that follows another (run_min_rounds is run_rounds unless rounds were adaptive) is
            # named only where that other agrees: else its warning says the same again.
            source = RUN_SETTING_FROM.get(column)
            if source is not None and base.run[source] != head.run[source]:
                continue
            if before != after:
                warnings.append(
                    f"different run setting {RUN_SETTING_LABELS[column]} ({column}): "
                    f"{names[0]} {_setting_text(before)}, {names[1]} {_setting_text(after)}; "
                    "timings may not be comparable")
    for side, results in zip(names, (base, head)):
        if results.run["build"] != "release":
            warnings.append(
                f"{side} is a {results.run['build']!r} build: timings are not representative")
    return warnings


def unknown_settings_warnings(base: ResultsFile, head: ResultsFile,
                              names: tuple[str, str] = ("base", "head")) -> list[str]:
    """A warning when either file predates recorded run settings (schema < 3), so that
    a comparison never implies it checked them."""
    known = (_records_settings(base), _records_settings(head))
    if all(known):
        return []
    if not any(known):
        versions = sorted({base.schema_version, head.schema_version})
        return [f"run settings unknown: neither file records them (schema version "
                f"{' and '.join(map(str, versions))}; version {RUN_SETTINGS_SINCE_VERSION} does), "
                "so they cannot be checked to match"]
    unknown, other = (0, 1) if not known[0] else (1, 0)
    version = (base, head)[unknown].schema_version
    return [f"run settings of {names[unknown]} unknown: schema version {version} does not record "
            f"them (version {RUN_SETTINGS_SINCE_VERSION} does), so they cannot be checked against "
            f"{names[other]}'s"]


def file_warnings(base: ResultsFile, head: ResultsFile) -> list[str]:
    """What the loader worked around in either file (each names its file), once each."""
    return list(dict.fromkeys(base.warnings + head.warnings))


def matched_cases(base: ResultsFile | CountsFile, head: ResultsFile | CountsFile, pattern: re.Pattern[str] | None,
                  ) -> tuple[dict[CaseKey, Any], dict[CaseKey, Any], list[CaseKey], list[CaseKey]]:
    """Both files' cases whose name matches ``pattern`` (timing or counts files alike), then the keys only base
    has and the keys only head has, sorted.

    Raises AnalyzeError (naming both files) when no case is on both sides.
    """
    base_cases = filter_cases(base.cases, pattern)
    head_cases = filter_cases(head.cases, pattern)
    if not set(base_cases) & set(head_cases):
        what = "no case matching --filter" if pattern is not None else "no case"
        raise AnalyzeError(f"{base.path}, {head.path}: {what} in common")
    return (base_cases, head_cases,
            sorted(set(base_cases) - set(head_cases), key=CaseKey.sort_key),
            sorted(set(head_cases) - set(base_cases), key=CaseKey.sort_key))
