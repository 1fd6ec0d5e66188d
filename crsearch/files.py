"""Writing a file so that readers see the old one or the new one, never half;
reading one only when it is a regular file of a sane size.

Standard library only, and nothing imported at load time beyond ``os``.
"""

from __future__ import annotations

import errno
import os
import stat
from io import BufferedReader


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


class NotAFile(OSError):
    """What should be a regular file is something else (a FIFO, a folder, a device)."""


class TooLarge(OSError):
    """A file is larger than any its reader expects."""


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words ("a FIFO"; "a file" when regular)."""
    if stat.S_ISREG(mode):
        return "a file"
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def size_text(n: int) -> str:
    """A byte count for a message: "64 MB", "512 KB", "100 bytes"."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def _check(path: str | os.PathLike[str], st: os.stat_result, limit: int | None) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise NotAFile(errno.EINVAL, f"{kind_of(st.st_mode)}, not a regular file", os.fspath(path))
    if limit is not None and st.st_size > limit:
        raise TooLarge(errno.EFBIG, f"larger than {size_text(limit)}", os.fspath(path))


def open_regular(path: str | os.PathLike[str], limit: int | None = None) -> BufferedReader:
    """``open(path, "rb")`` of a regular file (of at most ``limit`` bytes, if given).

    Anything else is refused before it is opened, as :class:`NotAFile`: a
    FIFO blocks its reader forever, a device such as ``/dev/zero`` never
    ends.  The open is non-blocking and checked again, so a FIFO put in the
    file's place between the check and the open cannot block either.
    """
    _check(path, os.stat(path), limit)

    def opener(name: str, flags: int) -> int:
        fd = os.open(name, flags | getattr(os, "O_NONBLOCK", 0))
        try:
            _check(path, os.fstat(fd), limit)
        except BaseException:
            os.close(fd)
            raise
        return fd

    # open() with an opener, not os.read: readers that watch open() (the
    # lookup test counts the files a lookup opens) still see the path.
    return open(path, "rb", opener=opener)


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, which may hold at most ``limit``
    (:func:`open_regular`); never more than ``limit`` are read from a file that
    grows meanwhile: :class:`TooLarge`."""
    with open_regular(path, limit) as f:
        # Its size, not the limit: read(limit + 1) would allocate the limit.
        data = f.read(os.fstat(f.fileno()).st_size)
        while len(data) <= limit and f.peek(1):  # it grew meanwhile: on, never past the limit
            data += f.read(min(1 << 20, limit + 1 - len(data)))
    if len(data) > limit:
        raise TooLarge(errno.EFBIG, f"larger than {size_text(limit)}", os.fspath(path))
    return data


def deflate(data: bytes, level: int = 6) -> bytes:
    """``zlib.compress(data, level)``, its window and hash table sized to ``data``.

    ``zlib.compress`` sets up about 270 KB of state per call, which the
    allocator may map and unmap each time: over the thousands of small blocks
    an index writes that was ten times the compression itself (page faults).
    Any zlib inflates the result; a window as large as the data loses nothing.
    """
    import zlib

    bits = min(15, max(9, (len(data) - 1).bit_length()))
    packer = zlib.compressobj(level, zlib.DEFLATED, bits, max(1, min(8, bits - 7)))
    return packer.compress(data) + packer.flush()


def inflate(data: bytes, limit: int, path: str | os.PathLike[str], what: str = "the file", *,
            gzip: bool = False) -> bytes:
    """``data`` uncompressed, never past ``limit`` bytes of output (``TooLarge``).

    zlib data (what :func:`deflate` writes), or with ``gzip`` one gzip member
    after another, as ``gzip.decompress`` reads them.  ValueError when the
    data is damaged, cut short, or (zlib) followed by other bytes: the
    reader's size limit holds however small the compressed bytes are.
    """
    import zlib

    parts: list[bytes] = []
    size = 0
    while True:
        unzip = zlib.decompressobj(16 + zlib.MAX_WBITS if gzip else zlib.MAX_WBITS)
        try:
            part = unzip.decompress(data, limit + 1 - size)
        except zlib.error as e:
            raise ValueError(f"{what} is damaged ({e})") from None
        size += len(part)
        if size > limit:
            raise TooLarge(errno.EFBIG, f"{what} is larger than {size_text(limit)} uncompressed",
                           os.fspath(path))
        if not unzip.eof:
            raise ValueError(f"{what} is cut short")
        parts.append(part)
        data = unzip.unused_data
        if not data:
            return b"".join(parts)
        if not gzip:
            raise ValueError(f"{what} has bytes after its end")


__all__ = ["NotAFile", "TooLarge", "deflate", "inflate", "kind_of", "open_regular", "read_regular", "size_text",
           "write_atomic"]
