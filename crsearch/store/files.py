"""Writing a file so that readers see the old one or the new one, never half.

Standard library only, and nothing imported at load time beyond ``os``.
"""

from __future__ import annotations

import os


def write_atomic(path: str | os.PathLike[str], data: bytes, *, mode: int = 0o644,
                 sync: bool = False) -> None:
    """Replace ``path`` with ``data`` in one step.

    The bytes go to a temporary file in the same folder, which then replaces
    ``path`` with ``os.replace``: an interruption leaves the old file whole
    and no temporary file behind.  ``mode`` sets the new file's permissions
    (``mkstemp`` would leave 0600); ``sync`` flushes it to disk first.
    """
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


__all__ = ["write_atomic"]
