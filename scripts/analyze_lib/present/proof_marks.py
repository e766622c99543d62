"""How the report marks a variant the stress file does not prove (judge/stress.judge_proof): ``not proven`` beside
its time or factor wherever a decision names it (its Use, Runner-up and Avoid cells, the headlines' variant to use
instead), once per naming, in words rather than a sign, so that it reads without a legend."""

from __future__ import annotations

NOT_PROVEN = "not proven"


def proof_mark(proven: bool) -> str:
    """``, not proven`` to follow a variant's time or factor, or nothing for a proven variant."""
    return "" if proven else f", {NOT_PROVEN}"
