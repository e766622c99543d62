"""Instruction budgets: the instrument gating itself.

Each built-in case that ``bench count`` counts has an instruction budget per operation, recorded once in
``budgets/instructions.csv`` (BUDGETS_FILE) with the count it was set from and the reason. A count is exact for a
binary (callgrind), so a case over its budget did more work per operation than was recorded: a call through a
witness table, a lost specialization, a lock taken twice. Two builds of the same code count the same, and a change
that leaves a case's machine code alone leaves its count alone, so a budget fails only on code that changed.

The budget sits BUDGET_HEADROOM_PERCENT above the recorded count: room for a toolchain's scheduling to move a case
by an instruction or two, none for a call more per operation in all but the costliest cases. A case whose count fell
as far below is not failed but named, so that its budget can come down with it (the rule's teeth are the headroom
above today's count, not above an old one).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from ..files.errors import AnalyzeError
from ..files.model import CaseKey, CountsFile, format_params, parse_params

BUDGETS_FILE = Path("budgets") / "instructions.csv"
BUDGET_COLUMNS = ("suite", "benchmark", "variant", "params", "iterations", "instructions_per_op", "reason")
# How far above the recorded count a case may go, in percent: five times the counts gate's tolerance for a
# toolchain's scheduling (judge/counts_compare.DEFAULT_INSTRUCTIONS_TOLERANCE_PERCENT).
BUDGET_HEADROOM_PERCENT = 5.0


@dataclass(frozen=True)
class Budget:
    """One case's recorded instructions per operation (counted with ``iterations`` iterations, as bench count's
    --iterations or --quick) and why it is what it is."""

    key: CaseKey
    iterations: int
    instructions_per_op: float
    reason: str

    @property
    def limit(self) -> float:
        """The most instructions per operation the case may count."""
        return self.instructions_per_op * (1 + BUDGET_HEADROOM_PERCENT / 100)

    @property
    def floor(self) -> float:
        """Below this the budget has come loose: the case now counts far less than was recorded."""
        return self.instructions_per_op * (1 - BUDGET_HEADROOM_PERCENT / 100)


@dataclass(frozen=True)
class BudgetCheck:
    """What a counts file says of the budgets: cases over theirs, built-in cases counted without one, cases far
    under theirs, and budgets whose case the file did not count (a filtered count, or a case gone)."""

    over: tuple[tuple[Budget, float], ...]
    unbudgeted: tuple[tuple[CaseKey, float], ...]
    under: tuple[tuple[Budget, float], ...]
    not_counted: tuple[Budget, ...]
    checked: int

    @property
    def passed(self) -> bool:
        """No case over its budget and none counted without one."""
        return not self.over and not self.unbudgeted


def read_budgets(text: str, source: str = str(BUDGETS_FILE)) -> dict[CaseKey, Budget]:
    """The budgets in ``text`` (BUDGET_COLUMNS), by case; AnalyzeError naming ``source`` and the line otherwise."""
    rows = csv.DictReader(io.StringIO(text))
    if tuple(rows.fieldnames or ()) != BUDGET_COLUMNS:
        raise AnalyzeError(f"{source}: the header must be {','.join(BUDGET_COLUMNS)}")
    budgets: dict[CaseKey, Budget] = {}
    for line, row in enumerate(rows, start=2):
        try:
            key = CaseKey(row["suite"], row["benchmark"], row["variant"], 1, parse_params(row["params"]))
            budget = Budget(key, int(row["iterations"]), float(row["instructions_per_op"]), row["reason"].strip())
        except (ValueError, TypeError, AttributeError) as error:
            raise AnalyzeError(f"{source}:{line}: not a budget ({error})") from None
        if not budget.reason:
            raise AnalyzeError(f"{source}:{line}: {key.label} has no reason: say why its count is what it is")
        if key in budgets:
            raise AnalyzeError(f"{source}:{line}: {key.label} has a budget already")
        budgets[key] = budget
    return budgets


def check_budgets(counts: CountsFile, budgets: dict[CaseKey, Budget]) -> BudgetCheck:
    """Hold each built-in case of ``counts`` against its budget (a package's own variants have none). A budget
    counted with other iterations than the file's is refused: per-op counts include the loop's start."""
    over, under, unbudgeted = [], [], []
    checked = 0
    for key, case in sorted(counts.cases.items(), key=lambda item: item[0].sort_key()):
        if (key.suite, key.variant) in counts.origins:
            continue
        budget = budgets.get(key)
        if budget is None:
            unbudgeted.append((key, case.instructions_per_op))
            continue
        checked += 1
        if budget.iterations != case.iterations:
            raise AnalyzeError(f"{counts.path}: {key.label} was counted with {case.iterations} iterations, its "
                               f"budget with {budget.iterations}: count as the budgets were (bench count "
                               f"{'--quick' if budget.iterations == 100 else f'--iterations {budget.iterations}'})")
        if case.instructions_per_op > budget.limit:
            over.append((budget, case.instructions_per_op))
        elif case.instructions_per_op < budget.floor:
            under.append((budget, case.instructions_per_op))
    counted = set(counts.cases)
    missing = tuple(budget for key, budget in budgets.items() if key not in counted)
    return BudgetCheck(tuple(over), tuple(unbudgeted), tuple(under), missing, checked)


def budget_rows(counts: CountsFile, keys: list[CaseKey], reason: str,
                budgets: dict[CaseKey, Budget]) -> str:
    """The budgets file with the cases ``keys`` of ``counts`` recorded at their counts with ``reason``, every other
    budget as it was; in case order."""
    updated = dict(budgets)
    for key in keys:
        case = counts.cases[key]
        updated[key] = Budget(key, case.iterations, case.instructions_per_op, reason)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(BUDGET_COLUMNS)
    for key in sorted(updated, key=CaseKey.sort_key):
        budget = updated[key]
        writer.writerow([key.suite, key.benchmark, key.variant, format_params(key.params), budget.iterations,
                         f"{budget.instructions_per_op:.2f}", budget.reason])
    return out.getvalue()
