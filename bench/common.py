"""What the whole-process benchmarks share: where the archive is, the install
that is timed, one process's time and memory, round-robin runs and the table
of ratios to a baseline."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "cr" / "archive"
LATEST = ARCHIVE / "2026-08-07.txt"
CLICK = 'python -c "import click"'


def regular_install(tmp: Path, rev: str | None = None) -> tuple[str, str]:
    """A venv in ``tmp`` with this checkout (or git revision ``rev`` of it)
    installed from a wheel: (python, crsearch)."""
    import venv

    import click

    source = ROOT
    if rev is not None:
        source = tmp / "source"
        source.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    wheels = tmp / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels),
                    str(source)], check=True)
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    wheel = next(wheels.glob("crsearch-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # click (and nothing crsearch needs for a lookup besides) from this interpreter.
    Path(site, "_bench_deps.pth").write_text(str(Path(click.__file__).parent.parent) + "\n")
    return str(py), str(env_dir / "bin" / "crsearch")


def timed_install(tmp: Path, editable: bool) -> tuple[str, str, str]:
    """(python, crsearch, what it is): a regular install made in ``tmp``, or
    with ``editable`` this interpreter's own install.

    An editable install's finder adds about 10 ms to every start-up and hides
    crsearch's own cost, so a regular one is the default.  The console script
    itself is timed, not a shell shim (pyenv) in front of it.
    """
    if not editable:
        python, script = regular_install(tmp)
        return python, script, "a regular install from a wheel, in a throwaway venv"
    import compileall
    import sysconfig

    # An editable checkout would otherwise recompile every module on every
    # run and measure the compiler, not crsearch.
    compileall.compile_dir(str(ROOT / "crsearch"), quiet=1)
    return (sys.executable, str(Path(sysconfig.get_path("scripts")) / "crsearch"),
            "this interpreter's (editable?) install")


def interleaved(cmds: dict[str, list[str]], runs: int, env: dict) -> dict[str, tuple[float, float]]:
    """Run the commands round-robin so that machine noise hits all of them alike.

    Returns (wall, cpu) medians per command; CPU time (user + system of the
    child) is what a shared, busy machine distorts least.
    """
    samples = interleaved_samples(cmds, runs, env)
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
            for k, v in samples.items()}


def interleaved_samples(cmds: dict[str, list[str]], runs: int, env: dict
                        ) -> dict[str, list[tuple[float, float]]]:
    """``interleaved``'s (wall, cpu) of every run of each command, round by
    round (sample n of each command ran in round n)."""
    import resource

    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           check=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            samples[name].append((wall, cpu))
    return samples


def round_ratios(samples: dict[str, list[tuple[float, float]]], name: str, base: str = CLICK
                 ) -> tuple[float, float, float]:
    """Quartiles (25%, median, 75%) of ``name``'s wall time over ``base``'s in
    the same round: how far one run's ratio strays on a shared machine."""
    ratios = [w / b for (w, _), (b, _) in zip(samples[name], samples[base])]
    if len(ratios) < 2:
        return ratios[0], ratios[0], ratios[0]
    q1, med, q3 = statistics.quantiles(ratios, n=4)
    return q1, med, q3


def measure(cmd: list[str], env: dict[str, str] | None = None,
            ok: tuple[int, ...] = (0,)) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak resident memory
    (bytes) of one run of ``cmd``: the child's own figures, from ``wait4``.

    An exit code outside ``ok`` stops the bench with the end of the child's stderr.
    """
    import os
    import tempfile

    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in ok:
            err.seek(0)
            tail = err.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"{' '.join(cmd[:6])} exited {proc.returncode}:\n{tail}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def print_ratios(meds: dict[str, tuple[float, float]], heading: str, base: str = CLICK) -> None:
    """The medians of ``interleaved``: wall and CPU time of each command, and
    each as a ratio to ``base``'s."""
    base_wall, base_cpu = meds[base]
    width = max(len(name) for name in meds)
    print(heading)
    print(f"  {'':<{width}} {'wall':>9} {'ratio':>6}   {'cpu':>9} {'ratio':>6}")
    for name, (wall, cpu) in meds.items():
        print(f"  {name:<{width}} {wall * 1000:6.1f} ms {wall / base_wall:5.2f}x   "
              f"{cpu * 1000:6.1f} ms {cpu / base_cpu:5.2f}x")


def instructions(cmd: list[str], env: dict) -> int:
    """Instructions one run executes, counted by valgrind: unlike time, the
    count does not move with the load of a shared machine."""
    import re

    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                         capture_output=True, text=True, env=env, check=True).stderr
    m = re.search(r"Collected : (\d+)", out)
    if m is None:
        raise SystemExit(f"valgrind printed no count:\n{out[-500:]}")
    return int(m.group(1))


def print_instructions(cmds: dict[str, list[str]], env: dict, base: str = CLICK) -> None:
    """Instructions of one run of each command (but ``python -c pass``), and
    each as a ratio to ``base``'s."""
    counts = {name: instructions(cmd, env) for name, cmd in cmds.items() if name != "python -c pass"}
    width = max(len(name) for name in counts)
    print("Instructions (valgrind), one run each:")
    for name, n in counts.items():
        print(f"  {name:<{width}} {n / 1e6:7.1f} M  {n / counts[base]:5.2f}x click import")
