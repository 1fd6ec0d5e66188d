"""cite-check --fix rewrites the file the user meant, and only the file as it was read.

Symlinks are followed (the link stays a link), hard links stay linked, the
owner, group and mode are kept, a read-only file is refused, and an edit
made while the check ran is never overwritten.
"""

from __future__ import annotations

import errno
import os
import stat

import pytest
from conftest import run

from crsearch.desk import citecheck

OLD = "Trample was rule 502.9b; first strike was 502.2 (section 5).\n"
NEW = "Trample was rule 702.19b; first strike was 702.7 (section 5).\n"



def fix(data_dir, path):
    return run(data_dir, "cite-check", str(path), "--as-of", "2003-06-01", "--fix")


def one_error_line(r) -> str:
    assert "Traceback" not in r.output, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("Error:")]
    assert len(lines) == 1, r.output
    return lines[0]


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture
def article(tmp_path):
    f = tmp_path / "article.md"
    f.write_text(OLD, encoding="utf-8")
    return f


# -- the file the user meant -------------------------------------------------------------

def test_a_symlink_is_followed_and_stays_a_link(cite_data_dir, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "article.md"
    target.write_text(OLD, encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(os.path.relpath(target, tmp_path))
    r = fix(cite_data_dir, link)
    assert r.exit_code == 1 and "Renumbered 2" in r.output, r.output
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "article.md")
    assert target.read_text(encoding="utf-8") == NEW
    assert leftovers(tmp_path) == [] and leftovers(real) == []


def test_a_hard_linked_file_is_fixed_under_every_name(cite_data_dir, article, tmp_path):
    other = tmp_path / "copy.md"
    os.link(article, other)
    inode = os.stat(article).st_ino
    r = fix(cite_data_dir, article)
    assert r.exit_code == 1 and "Renumbered 2" in r.output, r.output
    assert other.read_text(encoding="utf-8") == NEW == article.read_text(encoding="utf-8")
    st = os.stat(article)
    assert (st.st_ino, st.st_nlink) == (inode, 2)
    assert leftovers(tmp_path) == []


def test_owner_group_and_mode_are_kept(cite_data_dir, article):
    uid, gid = (1234, 5678) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(article, uid, gid)
    os.chmod(article, 0o664)
    r = fix(cite_data_dir, article)
    assert r.exit_code == 1, r.output
    st = os.stat(article)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (uid, gid, 0o664)
    assert article.read_text(encoding="utf-8") == NEW


def test_a_file_whose_owner_cannot_be_kept_is_rewritten_in_place(cite_data_dir, article,
                                                                 monkeypatch):
    # A shared file of someone else's that the caller may write: a new file would
    # be the caller's, so the file itself is rewritten.
    def refuse(*args):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    if os.geteuid() != 0:
        pytest.skip("giving the file another owner needs root (as CI runs)")
    os.chown(article, 1234, 5678)
    monkeypatch.setattr(os, "fchown", refuse)
    inode = os.stat(article).st_ino
    r = fix(cite_data_dir, article)
    assert r.exit_code == 1 and "Renumbered 2" in r.output, r.output
    assert os.stat(article).st_ino == inode and article.read_text(encoding="utf-8") == NEW


def test_a_read_only_file_is_refused_and_left_alone(cite_data_dir, article):
    os.chmod(article, 0o444)
    r = fix(cite_data_dir, article)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert "read-only" in line and "article.md" in line, line
    assert article.read_text(encoding="utf-8") == OLD
    assert stat.S_IMODE(os.stat(article).st_mode) == 0o444


def test_a_read_only_folder_names_no_temporary_file(cite_data_dir, article, monkeypatch):
    import tempfile

    def refuse(*args, dir=None, prefix="", suffix="", **kwargs):
        path = os.path.join(dir or "", f"{prefix}abc123{suffix}")
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    # The folder refuses a new file, the file itself may be written: fixed in place.
    r = fix(cite_data_dir, article)
    assert r.exit_code == 1 and "Renumbered 2" in r.output, r.output
    assert article.read_text(encoding="utf-8") == NEW and ".tmp" not in r.output

    # A read-only file system refuses both: one line naming the file, never a temp file.
    article.write_text(OLD, encoding="utf-8")
    real_open = os.open

    def read_only_fs(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, "Read-only file system", path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only_fs)
    r = fix(cite_data_dir, article)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert "Read-only file system" in line and str(article.parent) in line, line
    assert "abc123" not in line and ".tmp" not in line, line
    assert article.read_text(encoding="utf-8") == OLD


# -- edits made while it runs ------------------------------------------------------------

def editing(monkeypatch, edit):
    """Make ``edit`` happen while cite-check checks the citations."""
    real = citecheck.checked

    def checked(*args, **kwargs):
        result = real(*args, **kwargs)
        edit()
        return result

    monkeypatch.setattr(citecheck, "checked", checked)


@pytest.mark.parametrize("how", ["append", "same-size-same-mtime", "replaced"])
def test_an_edit_made_while_it_runs_is_kept(cite_data_dir, article, monkeypatch, how):
    mine = OLD.replace("first strike", "FIRST STRIKE")
    assert len(mine) == len(OLD)

    def edit():
        if how == "append":
            with open(article, "a", encoding="utf-8") as f:
                f.write("A line written meanwhile.\n")
        elif how == "same-size-same-mtime":
            st = os.stat(article)
            article.write_text(mine, encoding="utf-8")
            os.utime(article, ns=(st.st_atime_ns, st.st_mtime_ns))
        else:  # an editor that saves by renaming a new file over the old one
            new = article.with_name("new.md")
            new.write_text(OLD, encoding="utf-8")
            os.replace(new, article)

    before = {"append": OLD + "A line written meanwhile.\n", "same-size-same-mtime": mine,
              "replaced": OLD}[how]
    editing(monkeypatch, edit)
    r = fix(cite_data_dir, article)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert "changed" in line and "nothing was written" in line, line
    assert article.read_text(encoding="utf-8") == before
    assert leftovers(article.parent) == []


def test_a_symlink_pointed_elsewhere_meanwhile_is_not_written(cite_data_dir, tmp_path,
                                                              monkeypatch):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text(OLD, encoding="utf-8")
    b.write_text(OLD, encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(a)

    def edit():
        link.unlink()
        link.symlink_to(b)

    editing(monkeypatch, edit)
    r = fix(cite_data_dir, link)
    assert r.exit_code == 2 and "changed" in one_error_line(r), r.output
    assert a.read_text(encoding="utf-8") == OLD and b.read_text(encoding="utf-8") == OLD
