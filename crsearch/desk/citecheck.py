"""Check the rule citations in any text: an article, notes, code comments.

Citations rot as the rules are renumbered: "502.9b" (trample, 2003) is
702.19b today.  ``find`` locates citations in every form ``crsearch rule``
accepts (``CR 702.19c``, ``rule 702.19c``, ``§702.19c``, ``702.19 c``,
ranges such as ``601.2f-h`` and lists) using ``numbers.find_references``,
with extra care against numbers that only look like rules (prices, versions,
measures): a bare number without a subrule letter counts only when its
paragraph also speaks of rules.  ``check`` compares each cited id with the release in
effect when the text was written and follows it to today's number through
``history.trace_forward``; ``renumbered`` renumbers the moved ones and
changes nothing else.

``read_file`` and ``replace_file`` are how ``--fix`` touches the user's file:
only a regular file is opened (never blocking on a FIFO), and the fixed text
goes to the file that was read, as that same file: through a symlink to its
target, under every hard link, with its owner, group and mode, and only if
nobody changed it meanwhile.
"""

from __future__ import annotations

import errno
import os
import re
from typing import Any

from crsearch.errors import BadInput, reason
from crsearch.rules import numbers

MAX_BYTES = 5_000_000

# Words that say a paragraph is about the rules, so a bare "601.2" there is a rule.
_CONTEXT = re.compile(r"\b(?:rules?|CR|comprehensive|subrules?|section)\b|§", re.IGNORECASE)
# "702.19 c": a subrule letter after a space, as judges sometimes write it.
_SPACED_LETTER = re.compile(r" ([b-km-np-z])(?=$|[\s.,;:)\]])")


class Citation:
    """One cited id, where it is written, and what became of it.

    ``status`` is "ok", "moved" (``now`` is today's number), "mismatch"
    (the words next to it, ``words``, name another rule: ``now`` is that
    rule's number today), "missing" (``nearest`` are ids that exist) or
    "skipped": written inside a URL, an HTML tag or code (``inside`` says
    which), where it is left as written.  ``read_in`` names the release the
    number was read in when it is not the check's release.
    """

    __slots__ = ("column", "end", "id", "inside", "line", "nearest", "now", "read_in", "start",
                 "status", "text", "words")

    def __init__(self, text: str, start: int, end: int, line: int, column: int, id: str):
        self.text, self.start, self.end = text, start, end
        self.line, self.column, self.id = line, column, id
        self.status = "ok"
        self.now: str | None = None
        self.nearest: list[str] = []
        self.inside: str | None = None
        self.words: str | None = None
        self.read_in: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "line": self.line, "column": self.column,
                             "id": self.id, "status": self.status}
        if self.now is not None:
            d["now"] = self.now
        if self.nearest:
            d["nearest"] = self.nearest
        if self.inside is not None:
            d["inside"] = self.inside
        if self.words is not None:
            d["words"] = self.words
        if self.read_in is not None:
            d["read_in"] = self.read_in
        return d


# Byte order marks of the encodings read besides UTF-8 (UTF-32 first: its
# little-endian mark starts with UTF-16's).
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
         (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def read_text(data: bytes, name: str) -> tuple[str, str]:
    """Decode a file to check: (text, encoding), or BadInput for binary or huge input.

    The encoding is one that gives back the same bytes through ``encode``,
    so ``--fix`` changes nothing but the citations (a UTF-8 BOM is kept).
    UTF-8, cp1252 and Latin-1 are read as they come; UTF-16 and UTF-32 with
    a byte order mark, which is kept too.
    """
    shown = shown_path(name)
    if len(data) > MAX_BYTES:
        raise BadInput(f"{shown} is too large ({len(data):,} bytes; at most {MAX_BYTES:,})")
    for bom, codec in _BOMS:
        if data.startswith(bom):
            kind = codec[:6].upper()
            try:
                text = data[len(bom):].decode(codec)
            except UnicodeDecodeError as e:
                raise BadInput(f"{shown} starts with a {kind} byte order mark but is not "
                               f"{kind} (at byte {e.start + len(bom):,}): save it as UTF-8"
                               ) from None
            if "\x00" in text:
                raise BadInput(f"{shown} holds NUL characters: it is {kind} but not text")
            return text, codec
    if b"\x00" in data[:65536]:
        if _utf16_without_bom(data[:65536]):
            raise BadInput(f"{shown} looks like UTF-16 without a byte order mark: save it as "
                           "UTF-8 (or UTF-16 with a byte order mark)")
        raise BadInput(f"{shown} is binary, not text")
    for encoding in ("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8", "cp1252",
                     "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise BadInput(f"{shown} is not text")  # unreachable: latin-1 decodes anything


def encode(text: str, encoding: str) -> bytes:
    """``text`` as the bytes of a file ``read_text`` read with ``encoding``."""
    for bom, codec in _BOMS:
        if codec == encoding:
            return bom + text.encode(codec)
    return text.encode(encoding)


def _utf16_without_bom(sample: bytes) -> bool:
    """Whether ``sample`` reads as UTF-16 text: NULs in every other byte, and
    what decodes has no NUL of its own."""
    sample = sample[:len(sample) // 2 * 2]
    even, odd = sample[0::2], sample[1::2]
    for codec, zeros, text in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) >= len(zeros) // 2 and text.count(0) == 0:
            try:
                return "\x00" not in sample.decode(codec)
            except UnicodeDecodeError:
                return False
    return False


def shown_path(path: str, limit: int = 80) -> str:
    """A path as a message shows it: whole up to ``limit`` characters, else
    its end (which names the file) after an ellipsis."""
    return path if len(path) <= limit else "…" + path[-(limit - 1):]


# -- the file itself -------------------------------------------------------------

class Snapshot:
    """A file as it was read: its bytes, and what tells it is still that file.

    ``name`` is the path as given, ``real`` the file it leads to (symlinks
    resolved); ``identity`` is (device, inode, size, mtime in ns) and
    ``digest`` the SHA-256 of the bytes.
    """

    __slots__ = ("data", "digest", "identity", "name", "real")

    def __init__(self, name: str, real: str, data: bytes, identity: tuple[int, ...], digest: str):
        self.name, self.real, self.data = name, real, data
        self.identity, self.digest = identity, digest


_KINDS = (("S_ISDIR", "folder"), ("S_ISFIFO", "FIFO (named pipe)"),
          ("S_ISCHR", "character device"), ("S_ISBLK", "block device"), ("S_ISSOCK", "socket"))


def _regular(st: os.stat_result, name: str) -> None:
    import stat

    if stat.S_ISREG(st.st_mode):
        return
    kind = next((k for test, k in _KINDS if getattr(stat, test)(st.st_mode)), "special file")
    raise BadInput(f"{shown_path(name)} is a {kind}, not a regular file: cite-check reads "
                   "text files")


def _identity(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


# Opening never blocks (a FIFO swapped in after the check) nor follows a
# symlink swapped in for the resolved path.
_OPEN_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
    | getattr(os, "O_NOFOLLOW", 0)


def _read_fd(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(1 << 20, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def read_file(path: str, limit: int = MAX_BYTES) -> Snapshot:
    """Read at most ``limit`` + 1 bytes of the regular file ``path``.

    Anything else (a folder, a FIFO, a device, a socket) is ``BadInput``
    before it is opened, so nothing blocks; the caller sees one byte too
    many in a file that is too large.
    """
    import hashlib

    def cannot(e: OSError) -> BadInput:
        return BadInput(f"cannot read {shown_path(path)}: {reason(e)}")

    try:
        _regular(os.stat(path), path)
        real = os.path.realpath(path)
        fd = os.open(real, _OPEN_READ)
    except OSError as e:
        raise cannot(e) from None
    try:
        st = os.fstat(fd)
        _regular(st, path)
        data = _read_fd(fd, limit + 1)
    except OSError as e:
        raise cannot(e) from None
    finally:
        os.close(fd)
    return Snapshot(path, real, data, _identity(st), hashlib.sha256(data).hexdigest())


def check_writable(snap: Snapshot) -> os.stat_result:
    """The file's status now, or BadInput if it may not be written (its mode
    grants no write, even to root, or the caller may not write it)."""
    try:
        st = os.stat(snap.real)
    except OSError as e:
        raise _changed(snap) if e.errno == errno.ENOENT else BadInput(
            f"cannot write {shown_path(snap.name)}: {reason(e)}; nothing was written") from None
    if not st.st_mode & 0o222 or not os.access(snap.real, os.W_OK):
        raise BadInput(f"{shown_path(snap.name)} is read-only; nothing was written (--fix "
                       "needs write permission)")
    return st


def _changed(snap: Snapshot) -> BadInput:
    return BadInput(f"{shown_path(snap.name)} changed while cite-check ran; nothing was "
                    "written: check it again")


def _same_file(snap: Snapshot, fd: int | None = None) -> os.stat_result:
    """The file's status, or BadInput if it is no longer the file that was read:
    another target, inode, size, time or content."""
    import hashlib

    try:
        if os.path.realpath(snap.name) != snap.real:
            raise _changed(snap)
        own = fd is None
        if own:
            fd = os.open(snap.real, _OPEN_READ)
        assert fd is not None
        try:
            st = os.fstat(fd)
            if _identity(st) != snap.identity:
                raise _changed(snap)
            os.lseek(fd, 0, os.SEEK_SET)
            if hashlib.sha256(_read_fd(fd, st.st_size + 1)).hexdigest() != snap.digest:
                raise _changed(snap)
        finally:
            if own:
                os.close(fd)
    except OSError:
        raise _changed(snap) from None
    return st


def replace_file(snap: Snapshot, data: bytes) -> str:
    """Write ``data`` to the file ``snap`` was read from, if it is still that file.

    The file keeps its place and its self: a symlink's target is written
    (the link stays), and the owner, group, mode and extended attributes are
    kept.  A new file replaces it in one step when it can be that file (one
    link; its owner and group can be set; the folder takes a new file), so an
    interruption leaves the old one whole; otherwise (hard links, someone
    else's shared file, a folder that takes no new file) the file itself is
    rewritten, after making room for the new size.  Raises BadInput, having
    changed nothing, when the file changed since it was read or may not be
    written.  Returns "replaced" or "in place".
    """
    st = check_writable(snap)
    _same_file(snap)
    if st.st_nlink == 1 and _replace(snap, st, data):
        return "replaced"
    _rewrite(snap, data)
    return "in place"


class _CannotKeep(Exception):
    """A new file could not be given the old one's owner, group or attributes."""


def _replace(snap: Snapshot, st: os.stat_result, data: bytes) -> bool:
    """Replace the file by a new one with its owner, group, mode and attributes;
    False (nothing changed) when the new file cannot be made so."""
    import stat
    import tempfile

    folder, base = os.path.split(snap.real)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}-", suffix=".tmp", dir=folder)
    except OSError:
        return False  # the folder takes no new file
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            new = os.fstat(fd)
            try:
                if (new.st_uid, new.st_gid) != (st.st_uid, st.st_gid):
                    os.fchown(fd, st.st_uid, st.st_gid)
                _copy_xattrs(snap.real, fd)
            except OSError:
                raise _CannotKeep from None
            os.fchmod(fd, stat.S_IMODE(st.st_mode))  # after chown, which drops set-id bits
            os.fsync(fd)
        _same_file(snap)
        os.replace(tmp, snap.real)
    except _CannotKeep:
        os.unlink(tmp)
        return False
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise BadInput(f"cannot write {shown_path(snap.name)}: {reason(e)}; nothing was "
                           "written") from None
        raise
    _sync_folder(folder)
    return True


def _copy_xattrs(src: str, fd: int) -> None:
    """Give the file open as ``fd`` the extended attributes (ACLs among them) of ``src``."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(src)
    except OSError:
        return  # the file system has none
    for name in names:
        os.setxattr(fd, name, os.getxattr(src, name))


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _rewrite(snap: Snapshot, data: bytes) -> None:
    """Write ``data`` into the file itself (same inode), checked to be the file read."""
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(snap.real, flags)
    except OSError as e:
        raise BadInput(f"cannot write {shown_path(snap.name)}: {reason(e)}; nothing was "
                       "written") from None
    written = False
    try:
        st = _same_file(snap, fd)
        if len(data) > st.st_size and hasattr(os, "posix_fallocate"):
            try:
                os.posix_fallocate(fd, 0, len(data))  # a full disk fails here, not halfway
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.EOPNOTSUPP):  # not on this file system
                    raise
        written = True
        view = memoryview(data)
        done = 0
        while done < len(data):
            done += os.pwrite(fd, view[done:], done)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    except OSError as e:
        what = "it may be partly rewritten" if written else "nothing was written"
        raise BadInput(f"cannot write {shown_path(snap.name)}: {reason(e)}; {what}") from None
    finally:
        os.close(fd)


def find(text: str) -> list[Citation]:
    """Every citation in ``text``, one per id (a range gives both its ends).

    ``text`` of a citation is the id as written; line and column are 1-based.
    A citation inside a URL, an HTML tag or code has ``inside`` set ("url",
    "html" or "code"): it is reported, never checked nor renumbered.  One
    pass over the text: the time grows with its length, never faster.
    """
    import bisect

    out: list[Citation] = []
    # Citations come in the order of the text, so the line and the stretch
    # of links or code each one is in are found by moving forward, not by
    # searching.
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)] + [len(text) + 1]
    line = 0
    bounds = _paragraphs(text)
    speaks: dict[int, bool] = {}

    def speaks_of_rules(pos: int) -> bool:
        # Whether the paragraph around ``pos`` speaks of rules, asked once per paragraph.
        k = max(0, bisect.bisect_right(bounds[0], pos) - 1)
        if k not in speaks:
            speaks[k] = _CONTEXT.search(text, bounds[0][k], bounds[1][k]) is not None
        return speaks[k]

    skips = not_prose(text, bounds)
    skips.append((len(text) + 1, len(text) + 1, ""))
    skip = 0
    # Inside links and code, the punctuation of URLs and markup reads as spaces,
    # so "?rule=310.8a#310.8a" and "/rules/310.8a/" show their numbers (to be
    # reported as skipped) at the same positions.
    scan = _masked(text, skips)
    kinds: dict[str, str] = {}

    for start, _end, printed, spans in numbers.iter_references(scan):
        # A reference printed from its word ("CR 702.19c", "rule 702.19c",
        # "§702.19c"), not from its number (a bare or "see" number).
        keyword = not printed[:1].isdigit()
        ids: list[tuple[str, int, int]] = []
        first = spans[0]
        if len(spans) == 1 and first.start == first.end and printed.endswith(first.start):
            # One id, printed as it is (most citations): no need to find it.
            b = start + len(printed)
            ids.append((first.start, b - len(first.start), b))
            spans = []
        # The positions of the printed numbers, in order.
        marks = list(_MARK.finditer(printed)) if spans else []
        k = 0
        for span in spans:
            for id in ([span.start] if span.start == span.end else [span.start, span.end]):
                # Find the printed token for this id.
                while k < len(marks):
                    m = marks[k]
                    k += 1
                    tok = m.group()
                    if tok == id or id.endswith(tok) or (tok[0] in "0123456789R" and _same(tok, id)):
                        ids.append((id, start + m.start(), start + m.end()))
                        break
        for id, a, b in ids:
            kind = kinds.get(id)
            if kind is None:
                kind = kinds[id] = numbers.kind(id)
            if not keyword:
                # A bare number: only a subrule, or a rule on a line that speaks
                # of rules, in its paragraph ("$120.50" and "100.5 km" are not).
                if kind in ("section", "chapter"):
                    continue
                if (kind == "rule" and not speaks_of_rules(a)
                        and not _parenthesised(scan, a, b)):
                    continue
            # "702.19 c": a spaced subrule letter.
            if kind == "rule":
                spaced = _SPACED_LETTER.match(scan, b)
                if spaced and not re.match(r" [a-z]\w", scan[b:b + 3]):
                    try:
                        id = numbers.normalize(id + spaced.group(1))
                        b = spaced.end()
                    except BadInput:
                        pass
            while line_starts[line + 1] <= a:
                line += 1
            while skips[skip][1] <= a:
                skip += 1
            c = Citation(text[a:b], a, b, line + 1, a - line_starts[line] + 1, id)
            if skips[skip][0] <= a:
                c.inside = skips[skip][2]
            out.append(c)
    return out


# A printed number, in the forms ``numbers.find_references`` reads: "702.19c",
# "702.19.c", "702,19c" and Yawgatog's "R70219c"; or a lone letter ("601.2f-h").
_MARK = re.compile(r"R[1-9][0-9]{3,6}[a-z]{0,2}|[0-9]+(?:\.[0-9]+(?:\.(?=[a-z]))?|,[1-9][0-9]?(?=[a-z]))?[a-z]*"
                   r"|(?<![\w.])[a-z](?![\w])")


def _same(tok: str, id: str) -> bool:
    try:
        return numbers.normalize(tok) == id
    except BadInput:
        return False


_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")


def _paragraphs(text: str) -> tuple[list[int], list[int]]:
    """Where paragraphs start and end (between blank lines)."""
    starts, ends = [0], []
    for m in _BLANK_LINE.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    return starts, ends


def _parenthesised(text: str, a: int, b: int) -> bool:
    return text[max(0, a - 1):a] == "(" and text[b:b + 1] == ")"


# -- links and code: not prose ------------------------------------------------------

# A URL is found by what marks one, then read to its ends: one with a
# scheme ("https://", the scheme read back from "://") or "www." runs up to a
# space, a quote or an angle bracket; a word that is a relative URL, with a
# page ("702.html"), a query ("?rule=") or a fragment glued to what comes
# before ("page#702.19c"), stops at brackets too, so "[rule 702.19c](702.html)"
# keeps its link text.  Searching for the marks, not trying a pattern at
# every position, keeps this fast on long texts.
_URL_MARKS = (re.compile(r"://"), re.compile(r"www\."))
_URL_END = re.compile(r"[^\s<>\"'`]*")
_SCHEME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+.-")
_RELATIVE_MARKS = (re.compile(r"\.html?\b"), re.compile(r"\?[\w.-]+="), re.compile(r"#[^\s#]"))
_WORD_END = re.compile(r"[^\s<>\"'`()\[\]]*")
_WORD_STOP = frozenset(" \t\r\n\f\v<>\"'`()[]")
# Markdown: the destination of a link or image, "](...)", and a link
# reference definition, "[x]: url".
_MD_DESTINATION = re.compile(r"\]\([ \t]*(?:<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_MD_REFERENCE = re.compile(r"^[ ]{0,3}\[[^\]\n]{1,999}\]:[ \t]*\S+", re.MULTILINE)
# An HTML tag with its attributes (a comment or doctype too); bounded, so a
# stray "<" costs no more than the text up to the next "<" or ">".
_TAG = re.compile(r"<[A-Za-z/!][^<>]{0,4096}>")
# Elements whose content is code.
_CODE_TAG = re.compile(r"<(/?)(code|pre|kbd|samp|tt)\b[^<>]{0,4096}>", re.IGNORECASE)
# A Markdown code fence: three or more backticks or tildes.
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
_TICKS = re.compile(r"`+")
# What URLs and markup are written with; inside them it reads as a space.
_MASK = str.maketrans({c: " " for c in "/?#=&:;[](){}<>\"'`|\\"})


def not_prose(text: str, bounds: tuple[list[int], list[int]] | None = None
              ) -> list[tuple[int, int, str]]:
    """The stretches of ``text`` that are links or code, sorted and apart:
    ``(start, end, kind)`` with kind "url", "html" or "code".

    Code: Markdown fenced blocks (``` or ~~~) and code spans (`...`, within a
    paragraph), HTML code, pre, kbd, samp and tt elements.  URLs: those with
    a scheme or "www.", Markdown link destinations and reference definitions,
    and relative ones ("702.html#702.19c", "?rule=310.8a").  HTML: a tag
    with its attributes.  Indented lines are prose (plain-text notes indent
    freely).
    """
    import bisect

    if bounds is None:
        bounds = _paragraphs(text)
    spans: list[tuple[int, int, str]] = []
    # Fenced blocks first: nothing inside one is anything else.
    fences: list[tuple[int, int, str]] = []
    pos = 0
    while (m := _FENCE.search(text, pos)) is not None:
        mark = m[1]
        if mark[0] == "`" and "`" in m[2]:  # not a fence: "```a` b```" is code inline
            pos = m.end()
            continue
        close = re.compile(rf"^[ \t]{{0,3}}{re.escape(mark[0])}{{{len(mark)},}}[ \t\r]*$",
                           re.MULTILINE).search(text, m.end())
        end = close.end() if close else len(text)
        fences.append((m.start(), end, "code"))
        pos = max(end, m.end())
    spans += fences
    fence_starts = [f[0] for f in fences]

    def in_fence(p: int) -> bool:
        k = bisect.bisect_right(fence_starts, p) - 1
        return k >= 0 and p < fences[k][1]

    # Code spans: a run of backticks up to the next run of the same length in
    # the same paragraph (an unmatched run is a literal backtick).
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text) if not in_fence(m.start())]
    by_length: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(k)
    k = 0
    while k < len(runs):
        a, b = runs[k]
        same = by_length[b - a]
        j = bisect.bisect_right(same, k)
        para = bisect.bisect_right(bounds[0], a) - 1
        if j < len(same) and runs[same[j]][0] < bounds[1][max(0, para)]:
            spans.append((a, runs[same[j]][1], "code"))
            k = same[j] + 1
        else:
            k += 1
    # HTML code elements, the first open tag to its closing tag.
    open_at, name = -1, ""
    for m in _CODE_TAG.finditer(text):
        if not m[1] and open_at < 0:
            open_at, name = m.start(), m[2].lower()
        elif m[1] and open_at >= 0 and m[2].lower() == name:
            spans.append((open_at, m.end(), "code"))
            open_at = -1
    for m in _TAG.finditer(text):
        spans.append((m.start(), m.end(), "url" if "://" in m[0][:40] else "html"))
    spans += _urls(text)
    for pattern in (_MD_DESTINATION, _MD_REFERENCE):
        spans += [(m.start(), m.end(), "url") for m in pattern.finditer(text)]
    spans.sort(key=lambda s: (s[0], -s[1]))
    merged: list[tuple[int, int, str]] = []
    for a, b, kind in spans:
        if merged and a < merged[-1][1]:  # within (or across the end of) the one before
            if b > merged[-1][1]:
                merged[-1] = (merged[-1][0], b, merged[-1][2])
            continue
        merged.append((a, b, kind))
    return merged


def _urls(text: str) -> list[tuple[int, int, str]]:
    """The URLs of ``text`` (see ``_URL_MARK``) as ``(start, end, "url")``."""
    out = []
    marks = [m for pattern in _URL_MARKS for m in pattern.finditer(text)]
    marks.sort(key=lambda m: m.start())
    last = 0
    for m in marks:
        a = m.start()
        if a < last:
            continue  # inside the URL before
        if m[0] == "www." and a > 0 and (text[a - 1].isalnum() or text[a - 1] == "_"):
            continue  # not at the start of a word
        if m[0] == "://":
            while a > 0 and text[a - 1] in _SCHEME and m.start() - a < 32:
                a -= 1
            if a == m.start() or not text[a].isalpha():
                continue
        end = _URL_END.match(text, m.end()).end()  # type: ignore[union-attr]  # * always matches
        if end > m.end():
            out.append((a, end, "url"))
            last = end
    for pattern in _RELATIVE_MARKS:
        last = 0  # each word is read once: a mark inside the last one found is skipped
        for m in pattern.finditer(text):
            a = m.start()
            if a < last:
                continue
            if m[0][0] == "#" and (a == 0 or text[a - 1] in _WORD_STOP or text[a - 1] == "#"):
                continue  # "#702.19c" alone is a heading or a number, not a fragment
            while a > last and text[a - 1] not in _WORD_STOP:
                a -= 1
            last = _WORD_END.match(text, m.start()).end()  # type: ignore[union-attr]
            out.append((a, last, "url"))
    return out


def _masked(text: str, skips: list[tuple[int, int, str]]) -> str:
    """``text`` with the punctuation of links and code turned into spaces."""
    if not skips:
        return text
    out, last = [], 0
    for a, b, _kind in skips:
        if a >= len(text):
            break
        out.append(text[last:a])
        out.append(text[a:b].translate(_MASK))
        last = b
    out.append(text[last:])
    return "".join(out)


class Checked:
    """What ``checked`` found: the citations (``Citation`` objects, in the
    text's order), the release they were read in, the removal dates, the
    date the numbers were read as of and where it came from (``as_of``),
    the era of an undated text (``era``) and how many citations the words
    around them checked (``words_checked``)."""

    def __init__(self, release: str, latest: str, citations: list[Citation],
                 removed: dict[str, str], as_of: dict[str, Any] | None = None,
                 era: dict[str, Any] | None = None, words_checked: int = 0):
        self.release, self.latest = release, latest
        self.citations, self.removed = citations, removed
        self.as_of, self.era, self.words_checked = as_of, era, words_checked

    def count(self, status: str) -> int:
        return sum(1 for c in self.citations if c.status == status)

    @property
    def problems(self) -> int:
        """Citations that are moved, mismatched or missing."""
        return sum(1 for c in self.citations if c.status not in ("ok", "skipped"))

    def to_dict(self) -> dict[str, Any]:
        """The ``cite-check --json`` contract (plus ``latest``, ``problems``, ``removed``)."""
        return {"release": self.release, "latest": self.latest, "as_of": self.as_of,
                "era": self.era, "words_checked": self.words_checked,
                "citations": [c.to_dict() for c in self.citations],
                "problems": self.problems, "removed": self.removed}


def check(store: Any, text: str, as_of: str | None = None, *, own_date: bool = True,
          words: bool = True) -> dict[str, Any]:
    """Find and check every citation: ``checked(...).to_dict()``."""
    return checked(store, text, as_of, own_date=own_date, words=words).to_dict()


def checked(store: Any, text: str, as_of: str | None = None, *, own_date: bool = True,
            words: bool = True) -> Checked:
    """Find and check every citation of ``text``.

    The numbers are read as numbered on ``as_of``; without it, on the date
    the text gives for itself (``textdate.written_on``, unless ``own_date``
    is false), else in today's release.  An id that release lacks is
    ``missing`` (with the nearest ids); one renumbered since is ``moved``
    (``now`` is today's number); one removed since is ``missing``
    (``removed`` gives the date).  Without a date, an id that today's rules
    lack but an older release has is followed from the newest release that
    has it, and the text is taken to be of that era (``_era``).  Then,
    unless ``words`` is false, the words next to each citation are read
    (``citewords``): a rule they name clearly, other than the cited one as
    numbered when it was written, makes the citation a ``mismatch`` with
    ``now`` that rule's number today (a ``missing`` one gets that ``now``).
    One written inside a URL, an HTML tag or code is ``skipped`` and read
    no further.
    """
    from crsearch.store.lookup import Library

    latest = store.pick(None)
    dated: dict[str, Any] | None = None
    if as_of:
        dated = {"date": as_of, "from": "option"}
    elif own_date:
        from crsearch.desk.textdate import written_on

        found = written_on(text)
        if found is not None:
            as_of = found.date
            dated = {"date": found.date, "from": "text", "line": found.line,
                     "words": found.words, "kind": found.kind}
    if as_of:
        first = store.releases()[0]
        # A text older than every release is read in the first one: the
        # numbering nearest to the one its writer saw.
        base = store.pick(as_of) if as_of >= first.effective_date else first
    else:
        base = latest
    cites = find(text)
    lib_base = Library(base)
    lib_now = Library(latest) if base is not latest else lib_base
    near_base, near_now = _Nearest(lib_base), _Nearest(lib_now)
    follow: dict[str, list[Citation]] = {}
    orphans: list[Citation] = []
    read_in: dict[int, str] = {}  # citation's index -> the release its number is read in
    every = cites
    for c in every:
        if c.inside is not None:
            c.status = "skipped"
    cites = [c for c in every if c.inside is None]
    for n, c in enumerate(cites):
        if not lib_base.exists(c.id):
            if as_of:
                c.status, c.nearest = "missing", near_base(c.id)
                read_in[n] = base.effective_date
            else:
                orphans.append(c)
        else:
            read_in[n] = base.effective_date
            if base is not latest:
                follow.setdefault(c.id, []).append(c)
    removed: dict[str, str] = {}
    cache = _TraceCache(store, latest)
    if follow:
        traced = _trace(cache, sorted(follow), lib_base, lib_now)
        for id, group in follow.items():
            now, date = traced.get(id, (id, latest.effective_date))
            for c in group:
                _settle(c, now, date, lib_now, near_now, removed)
    homes: dict[str, str] = {}
    if orphans:
        homes = _homes(store, cache, sorted({c.id for c in orphans}))
        by_home: dict[str, list[str]] = {}
        for id, date in homes.items():
            by_home.setdefault(date, []).append(id)
        traced_old: dict[str, tuple[str | None, str]] = {}
        for date, group_ids in by_home.items():
            traced_old.update(cache.trace(group_ids, date))
        position = {c: n for n, c in enumerate(cites)}
        for c in orphans:
            if c.id not in traced_old:
                c.status, c.nearest = "missing", near_now(c.id)
                read_in[position[c]] = latest.effective_date
            else:
                _settle(c, *traced_old[c.id], lib_now, near_now, removed)
                read_in[position[c]] = homes[c.id]
    scorers = _Scorers(store)
    sides = _contexts(text, cites) if words and cites else None
    era = (_era(store, cites, read_in, homes, cache, lib_now, near_now, removed, sides, scorers)
           if homes else None)
    checked = (_check_words(store, cites, read_in, cache, latest, removed, sides, scorers)
               if sides is not None else 0)
    cache.save()
    for n, c in enumerate(cites):
        if read_in.get(n, base.effective_date) != base.effective_date:
            c.read_in = read_in[n]
    return Checked(base.effective_date, latest.effective_date, every, removed, dated, era,
                   checked)


def _contexts(text: str, cites: list[Citation]) -> list[tuple[str, str]]:
    """The words before and after each citation (``citewords.contexts``)."""
    from crsearch.desk import citewords

    return citewords.contexts(text, [(c.start, c.end) for c in cites])


class _Scorers:
    """What a check reads of each release, once: its ``citewords.RuleWords``
    (``scorers(date)``) and its rule ids (``ids``)."""

    def __init__(self, store: Any):
        self.store = store
        self.known: dict[str, Any] = {}
        self._stored: list[Any] | None = None
        self._ids: dict[str, set[str]] = {}

    def __call__(self, date: str) -> Any:
        if date not in self.known:
            from crsearch.desk.citewords import RuleWords

            self.known[date] = RuleWords.of_release(self.store.pick(date))
        return self.known[date]

    @property
    def stored(self) -> list[Any]:
        """The releases, oldest first."""
        if self._stored is None:
            self._stored = self.store.releases()
        return self._stored

    def ids(self, release: Any) -> set[str]:
        """The rule ids of ``release`` (one of ``stored``)."""
        got = self._ids.get(release.effective_date)
        if got is None:
            got = self._ids[release.effective_date] = set(release.meta()["rule_ids"])
        return got


def _trace(cache: _TraceCache, ids: list[str], lib_then: Any,
           lib_now: Any) -> dict[str, tuple[str | None, str]]:
    """Where ``ids``, numbered as in ``lib_then``'s release, are today.

    A chapter goes to today's chapter of its title, else where its first
    rules went ("310" of 2009, the combat damage step, is 510).
    """
    chapters = [ch for ch in ids if numbers.kind(ch) == "chapter"]
    stand_in = {ch: [r for r in (f"{ch}.1", f"{ch}.2", f"{ch}.3") if lib_then.exists(r)]
                for ch in chapters}
    traced = cache.trace(sorted({*ids, *(r for rs in stand_in.values() for r in rs)}),
                         lib_then.stored.effective_date)
    today = lib_now.stored.effective_date
    titled = {_fold_title(c.title): c.id for c in lib_now.chapters.values()}
    for ch in chapters:
        same = titled.get(_fold_title(lib_then.chapters[ch].title))
        went = [now for r in stand_in[ch] if r in traced for now in [traced[r][0]] if now]
        if same is not None:
            traced[ch] = (same, today)
        elif went:
            heads = [r.split(".", 1)[0] for r in went]
            traced[ch] = (max(heads, key=heads.count), today)
    return traced


def _homes(store: Any, cache: _TraceCache, ids: list[str]) -> dict[str, str]:
    """The newest release that has each of ``ids`` (ids no release has are
    left out).  Each release's id list is read once; answers are remembered."""
    homes: dict[str, str] = {}
    wanted = set()
    for id in ids:
        known = cache.data.get(f"home|{id}")
        if known is None:
            wanted.add(id)
        elif known[1]:
            homes[id] = known[1]
    asked = set(wanted)
    for s in reversed(store.releases()[:-1]):
        if not wanted:
            break
        have = wanted & set(s.meta()["rule_ids"])
        for id in have:
            homes[id] = s.effective_date
        wanted -= have
    for id in asked:  # remembered, found or not
        cache.data[f"home|{id}"] = [id, homes.get(id, "")]
        cache.dirty = True
    return homes


def _era(store: Any, cites: list[Citation], read_in: dict[int, str], homes: dict[str, str],
         cache: _TraceCache, lib_now: Any, near_now: _Nearest, removed: dict[str, str],
         sides: list[tuple[str, str]] | None, scorers: _Scorers) -> dict[str, Any] | None:
    """Read an undated text as of the era its old numbers show.

    A text that cites numbers only older releases have (``homes``: the
    newest release of each) was written when they all existed: up to the
    oldest of those releases, the era.  Its other numbers are read as of the
    era too when the words next to one fit its rule then better than the
    rule it names today (a text may quote an old number among current ones).  Returns ``{"date", "by"}`` (the old numbers), or None
    when the old numbers never existed together.
    """
    from crsearch.store.lookup import Library

    date = min(homes.values())
    lib_era = Library(store.pick(date))
    if not all(lib_era.exists(id) for id in homes):
        return None
    todo = [n for n, c in enumerate(cites)
            if c.status != "missing" and read_in.get(n) != date and lib_era.exists(c.id)]
    if not todo:
        return {"date": date, "by": sorted(homes, key=numbers.sort_key)}
    traced = _trace(cache, sorted({cites[n].id for n in todo}), lib_era, lib_now)
    for n in todo:
        c = cites[n]
        if c.id not in traced:
            continue
        now, gone = traced[c.id]
        if (now or None) == (c.now if c.status == "moved" else c.id if c.status == "ok" else None):
            read_in[n] = date  # the same answer either way
            continue
        if sides is None:
            continue
        from crsearch.desk.citewords import fit

        left, right = sides[n]
        if fit(scorers(date), c.id, left, right) <= fit(scorers(read_in[n]), c.id, left, right):
            continue  # only words that fit the rule of the era better move a number there
        c.status, c.now, c.nearest = "ok", None, []
        removed.pop(c.id, None)
        _settle(c, now, gone, lib_now, near_now, removed)
        read_in[n] = date
    return {"date": date, "by": sorted(homes, key=numbers.sort_key)}


def _check_words(store: Any, cites: list[Citation], read_in: dict[int, str],
                 cache: _TraceCache, latest: Any, removed: dict[str, str],
                 sides: list[tuple[str, str]], scorers: _Scorers) -> int:
    """Read the words next to each citation (see ``check``); how many named a rule."""
    from crsearch.desk import citewords
    from crsearch.desk.citewords import related

    named: dict[str, list[tuple[Citation, str, str]]] = {}  # release -> (citation, rule, words)
    checked = 0
    for n, c in enumerate(cites):
        date = read_in.get(n)
        left, right = sides[n]
        if date is None or not (left.strip() or right.strip()):
            continue
        rw = scorers(date)
        verdict = citewords.judge(rw, c.id, left, right, exists=rw.has(c.id))
        checked += verdict.fits is not None
        if not verdict.weighty or verdict.best or (c.status == "missing" and c.id in removed):
            continue
        # The words fit another rule better: maybe they fit what this number
        # meant in an older release (numbers reused after a renumbering).
        older = _older_reading(store, cache, scorers, c.id, date, left, right)
        if older is not None and older[1] != c.id:
            checked += verdict.fits is None  # the words placed it after all
            if c.status != "missing":
                c.status = "mismatch"
            read_in[n], c.now = older
            c.words = citewords.shown(verdict.words or " ".join((left + " … " + right).split()))
            continue
        if verdict.fits is False and verdict.better is not None:
            # Words that name a rule cited next to this one (or to its list)
            # are about that one: "205.3 and 205.4a, ability words from 207.2c".
            near = related(verdict.better)
            if any(near(cites[k].id) for k in range(max(0, n - 2), min(len(cites), n + 3))):
                continue
            named.setdefault(date, []).append((c, verdict.better, verdict.words))
    # A rule removed since, that the words did not place: the rule whose
    # words are most like its own text then, if one is clearly so.
    for n, c in enumerate(cites):
        date = read_in.get(n)
        if c.status != "missing" or c.id not in removed or c.now is not None or date is None:
            continue
        old = store.pick(date).rule_dicts(c.id.split(".", 1)[0], c.id, c.id.__eq__)
        if old:
            c.now = citewords.successor(scorers(latest.effective_date), c.id, old[0]["text"])
    for date, found in named.items():
        now_of: dict[str, str | None]
        if date == latest.effective_date:
            now_of = {better: better for _, better, _ in found}
        else:
            traced = cache.trace(sorted({b for _, b, _ in found}), date)
            now_of = {b: traced[b][0] for b in traced}
        for c, better, said in found:
            now = now_of.get(better)
            if now is None:
                continue  # the rule the words name is gone today: nothing better to say
            if now == c.id:
                # The number names that rule today: the citation reads right
                # now, whatever it named when written.
                if c.status == "moved":
                    c.status, c.now = "ok", None
                continue
            if c.status != "missing":
                c.status = "mismatch"
            c.now, c.words = now, citewords.shown(said)
    return checked


#: An older version of a rule must fit the words this much better than the
#: version the number was read in (shares of the words' weight).
VERSION_MARGIN = 0.2
VERSION_COVER = 0.5
#: How many releases apart a number's text is read (see ``_versions``).
VERSION_STEP = 3


def _older_reading(store: Any, cache: _TraceCache, scorers: _Scorers, id: str, date: str,
                   left: str, right: str) -> tuple[str, str] | None:
    """(release, today's number) when the words beside ``id`` fit what it
    numbered in a release before ``date`` clearly better than what it
    numbered on ``date``; else None."""
    from crsearch.desk.citewords import text_fit

    rw = scorers(date)
    runs = _versions(scorers, cache, id)
    current = next((t for first, last, t in runs if first <= date <= last), None)
    here = text_fit(rw, current, left, right) if current is not None else [0.0, 0.0]
    best: tuple[float, str, str] | None = None
    for _first, last, text in runs:
        if last >= date or text == current:
            continue
        fits = text_fit(rw, text, left, right)
        # Side by side: the old text must win on a side where it fits well.
        score = max((f for f, h in zip(fits, here)
                     if f >= VERSION_COVER and f >= h + VERSION_MARGIN), default=0.0)
        if score and (best is None or score >= best[0]):
            best = (score, last, text)
    if best is None:
        return None
    now, _ = cache.trace([id], best[1]).get(id, (None, ""))
    if now is None:
        # Removed since: where its words went, if that is clear.
        from crsearch.desk.citewords import successor

        now = successor(scorers(store.pick(None).effective_date), id, best[2])
    return (best[1], now) if now else None


def _versions(reader: _Scorers, cache: _TraceCache, id: str) -> list[list[str]]:
    """[first release, last release, text] of each run of the releases read
    in which number ``id`` has the same text, oldest first (remembered in
    the cache)."""
    key = f"versions|{id}"
    known = cache.data.get(key)
    if known is not None:
        return [list(run) for run in known]
    runs: list[list[str]] = []
    chapter = id.split(".", 1)[0]
    stored = reader.stored
    has = [id in reader.ids(s) for s in stored]
    # Every VERSION_STEP-th release that has the number, and the first and
    # last of each run of releases that have it: a rule's text lasts for
    # many releases, so its versions are all seen at a fraction of the reading.
    picked = [k for k in range(len(stored)) if has[k] and (
        (len(stored) - 1 - k) % VERSION_STEP == 0 or k == 0 or not has[k - 1]
        or k == len(stored) - 1 or not has[k + 1])]
    for k in picked:
        s = stored[k]
        got = s.rule_dicts(chapter, id, id.__eq__)
        if not got:
            continue
        # Versions that differ in quotes or spacing alone are one.
        text = " ".join(got[0]["text"].replace("\u2019", "'").replace("\u2018", "'").split())
        if runs and runs[-1][2] == text:
            runs[-1][1] = s.effective_date
        else:
            runs.append([s.effective_date, s.effective_date, text])
    cache.data[key] = runs
    cache.dirty = True
    return runs


class _TraceCache:
    """Where rules went, remembered next to the latest release.

    Following a rule through a hundred releases takes a while; a text checked
    again (in CI, say) asks the same questions.  The answers hold as long as
    the same releases are imported, so the cache keeps the catalog's folder
    names and is dropped when they change.  Written atomically; a read-only
    data folder just goes without.
    """

    NAME = "cite-check-cache.json"

    def __init__(self, store: Any, latest: Any):
        import json

        self.store, self.path = store, latest.path / self.NAME
        self.signature = [r["dir"] for r in store.catalog()]
        self.data: dict[str, list[Any]] = {}
        self.dirty = False
        try:
            with open(self.path, encoding="utf-8") as f:
                saved = json.load(f)
            if saved.get("releases") == self.signature:
                self.data = saved.get("traced", {})
        except (OSError, ValueError, AttributeError):
            pass

    def trace(self, ids: list[str], at: str) -> dict[str, tuple[str | None, str]]:
        from crsearch.changes.history import trace_forward

        out: dict[str, tuple[str | None, str]] = {}
        todo = []
        for id in ids:
            hit = self.data.get(f"{at}|{id}")
            if hit is None:
                todo.append(id)
            elif hit[1]:  # [now, date]; an empty date marks "not in that release"
                out[id] = (hit[0], hit[1])
        if todo:
            traced = trace_forward(self.store, todo, at)
            for id in todo:
                now, date = traced.get(id, (None, ""))
                self.data[f"{at}|{id}"] = [now, date]
                if date:
                    out[id] = (now, date)
            self.dirty = True
        return out

    def save(self) -> None:
        if not self.dirty:
            return
        import json
        import tempfile

        try:
            fd, tmp = tempfile.mkstemp(prefix=".cite-check-", dir=self.path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"releases": self.signature, "traced": self.data}, f, sort_keys=True)
            os.chmod(tmp, 0o644)
            os.replace(tmp, self.path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


class _Nearest:
    """A library's "did you mean" for missing ids, worked out once per id
    (a text may cite the same missing number thousands of times)."""

    def __init__(self, lib: Any):
        self.lib = lib
        self.known: dict[str, list[str]] = {}

    def __call__(self, id: str) -> list[str]:
        if id not in self.known:
            self.known[id] = self.lib.suggestions(id)
        return self.known[id]


def _fold_title(title: str) -> str:
    return " ".join(title.casefold().replace("-", " ").split())


def _settle(c: Citation, now: str | None, date: str, lib_now: Any, nearest: _Nearest,
            removed: dict[str, str]) -> None:
    if now is None:
        c.status, c.nearest = "missing", []
        removed[c.id] = date
    elif now != c.id:
        c.status, c.now = "moved", now
    elif not lib_now.exists(now):
        c.status, c.nearest = "missing", nearest(now)


def renumbered(text: str, citations: list[Citation]) -> str:
    """``text`` with each moved citation (as ``checked`` gives them)
    renumbered; nothing else changes.

    A short form stays short: the end of "601.2a-h" is written "i" when the
    range moves to 601.2b-i, and written out in full only when the numbers
    it leaves out change ("601.2a-h" with only 601.2a moved to 601.3a becomes
    "601.3a-601.2h").  Skipped citations (in links or code) are left alone.
    """
    out, last = [], 0
    prev: tuple[Citation, str] | None = None  # the citation before, and its number now
    for c in citations:
        if c.status == "skipped":
            prev = None
            continue
        new = c.now if c.status == "moved" and c.now is not None else c.id
        written = new
        short = _short_form(c)
        if short is not None and prev is not None and _joined(text, prev[0], c):
            written = _shortened(new, prev[1], short) or new
        elif c.status != "moved":
            written = c.text
        prev = (c, new)
        if written == c.text:
            continue
        out.append(text[last:c.start])
        out.append(written)
        last = c.end
    out.append(text[last:])
    return "".join(out)


def _short_form(c: Citation) -> str | None:
    """How a shortened citation is written: "letters" ("h" after 601.2f),
    "rule" ("8" or "8b" after 119.7), or None when written out."""
    if c.text == c.id or not c.id.endswith(c.text) or "." in c.text:
        return None
    return "letters" if c.text.isalpha() else "rule"


_JOIN = re.compile(r"\s*(?:[-\u2010-\u2015\u2212,/&]|and|or|to|through)\s*(?:and\s*)?", re.IGNORECASE)


def _joined(text: str, before: Citation, c: Citation) -> bool:
    """Is ``c`` written right after ``before``, in the same range or list?"""
    return before.end <= c.start and bool(_JOIN.fullmatch(text[before.end:c.start]))


def _shortened(new: str, base: str, form: str) -> str | None:
    """``new`` written short after ``base`` (what the short form leaves out
    must be the same), or None when it cannot be."""
    if form == "letters":
        head = new.rstrip(numbers.LETTERS)
        if head != new and head == base.rstrip(numbers.LETTERS):
            return new[len(head):]
        return None
    head = new.split(".", 1)[0] + "."
    if "." in new and base.startswith(head):
        return new[len(head):]
    return None


__all__ = ["Checked", "Citation", "Snapshot", "check", "check_writable", "checked", "encode",
           "find", "not_prose", "read_file", "read_text", "renumbered",
           "replace_file", "shown_path"]
