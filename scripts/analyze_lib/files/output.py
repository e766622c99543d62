"""Atomic output directories: a run either replaces the earlier output whole or leaves it alone."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import AnalyzeError

OUTPUT_DIR_MODE = 0o755


@contextmanager
def atomic_directory(target: Path) -> Iterator[Path]:
    """Yield an empty temp directory beside ``target``; publish it as ``target`` on success.

    Files are written into the temp directory; only when the block finishes without an
    exception is an earlier ``target`` moved aside and the new one renamed into place
    (both renames on one filesystem). On failure the temp directory is removed and the
    earlier output is untouched.
    """
    target = Path(target)
    parent = target.parent
    if target.exists() and not target.is_dir():
        raise AnalyzeError("output path exists and is not a directory", target)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=parent))
    except OSError as error:
        raise AnalyzeError(f"cannot create output directory: {error.strerror or error}", target) from None
    try:
        yield staging
        os.chmod(staging, OUTPUT_DIR_MODE)
        _publish(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _publish(staging: Path, target: Path) -> None:
    if not target.exists():
        os.rename(staging, target)
        return
    retired = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
    os.rename(target, retired)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(retired, target)
        raise
    shutil.rmtree(retired, ignore_errors=True)
