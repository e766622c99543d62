"""``analyze budget``'s words: the verdict first, then each case over its budget, counted without one, far under
one, and the budgets the file did not count."""

from __future__ import annotations

from ..fmt import fmt_count
from ..judge.budgets import BUDGET_HEADROOM_PERCENT, BudgetCheck

RECORD_HINT = "scripts/analyze budget COUNTS.csv --record \"why\""


def budget_text(check: BudgetCheck, source: str) -> str:
    """The check as text, its verdict on the first line."""
    problems = [f"{fmt_count(len(check.over), 'case')} over budget"] if check.over else []
    if check.unbudgeted:
        problems.append(f"{fmt_count(len(check.unbudgeted), 'built-in case')} counted without a budget")
    verdict = (f"Instruction budgets: FAILED, {', '.join(problems)}" if problems else
               f"Instruction budgets: passed, {fmt_count(check.checked, 'case')} within "
               f"{BUDGET_HEADROOM_PERCENT:g}% of the count recorded")
    lines = [f"{verdict} ({source}; {check.checked} checked).", ""]
    if check.over:
        lines.append(f"Over budget (recorded count + {BUDGET_HEADROOM_PERCENT:g}%): more work per operation than "
                     "was recorded. Find the change; if it is meant, record it with its reason "
                     f"({RECORD_HINT}).")
        lines += [f"  {budget.key.label}: {counted:.2f} instructions/op, {counted / budget.instructions_per_op:.2f}× "
                  f"the {budget.instructions_per_op:.2f} recorded (budget {budget.limit:.2f}; {budget.reason})"
                  for budget, counted in check.over] + [""]
    if check.unbudgeted:
        lines.append(f"Built-in cases counted without a budget: record one with its reason ({RECORD_HINT}).")
        lines += [f"  {key.label}: {counted:.2f} instructions/op" for key, counted in check.unbudgeted] + [""]
    if check.under:
        lines.append(f"Far under budget (more than {BUDGET_HEADROOM_PERCENT:g}% below the recorded count; not "
                     f"failed): lower the budget so that it keeps its teeth ({RECORD_HINT}).")
        lines += [f"  {budget.key.label}: {counted:.2f} instructions/op, {budget.instructions_per_op:.2f} recorded "
                  f"({budget.reason})" for budget, counted in check.under] + [""]
    if check.not_counted:
        lines.append(f"Not counted in this file: {fmt_count(len(check.not_counted), 'budget')} (a filtered count, "
                     "or cases that are gone).")
    return "\n".join(lines).rstrip() + "\n"
