"""Where the files that ship beside the code (data/, templates/) are found.

In a source checkout they sit next to the package; in an installed wheel they
are the packages ``crsearch._data`` and ``crsearch._templates``.
"""

from __future__ import annotations

from pathlib import Path


def _find(checkout_name: str, package: str) -> Path:
    here = Path(__file__).resolve().parent
    candidate = here.parent / checkout_name
    if candidate.is_dir():
        return candidate
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return candidate


def data_dir() -> Path:
    """The shipped ``data/`` folder (known releases and other facts)."""
    return _find("data", "crsearch._data")


def templates_dir() -> Path:
    """The shipped ``templates/`` folder (jinja2 site templates)."""
    return _find("templates", "crsearch._templates")


#: The most bytes read from a shipped data file (the largest, data/cards.txt,
#: is about 200 KB).
DATA_LIMIT = 16 << 20


def read_data(name: str) -> str:
    """The text of the shipped data file ``name``; BrokenInstall, naming the
    file and the fix, when it is missing, not a regular file, too large or
    not UTF-8."""
    from crsearch.files import read_regular

    path = data_dir() / name
    try:
        return read_regular(path, DATA_LIMIT).decode("utf-8")
    except FileNotFoundError:
        problem = "missing"
    except UnicodeDecodeError:
        problem = "not UTF-8 text"
    except OSError as e:
        problem = e.strerror or type(e).__name__
    from crsearch.errors import BrokenInstall

    raise BrokenInstall(f"the crsearch installation is damaged: {path} is {problem}; "
                        "reinstall crsearch (pip install --force-reinstall crsearch)")


def data_digest(*names: str) -> str:
    """A checksum of shipped data files (what a copy made from them was made
    of); a missing file counts as empty.  CRC-32, not a secure hash: it tells
    a stale copy from a current one, and hashlib costs 4 ms to import."""
    import zlib

    from crsearch.files import read_regular

    crc = 0
    for name in names:
        try:
            data = read_regular(data_dir() / name, DATA_LIMIT)
        except OSError:
            data = b""
        crc = zlib.crc32(data + b"\0", crc)
    return f"{crc:08x}"
