"""Faults on real processes: killed and interrupted runs resume to the same sums, concurrent writers
never collide, and a failed write leaves no partial file (issue 12).

Each run is a few seconds: the driver below slows every chunk by a fixed sleep
(the sums do not depend on time), so a signal lands mid-run on any machine.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import ricochet_math.solvers.montecarlo as mc
from ricochet_math import storage
from ricochet_math.engine.sums import ChunkSums
from ricochet_math.errors import RicochetError
from ricochet_math.solvers import solo

ROOT = Path(__file__).resolve().parents[1]
RUN = dict(players=3, strategy="pair", rounds=240 * 512 + 77, seed=11, chunk_size=512)

DRIVER = textwrap.dedent("""
    import hashlib, json, signal, sys, time
    import ricochet_math.solvers.montecarlo as mc
    # A process started in the background by a non-interactive shell (CI under nohup, `cmd &`) inherits
    # SIGINT ignored, and Python then installs no KeyboardInterrupt handler: restore it, since the test is
    # about what the run does on Ctrl-C, not about how its shell started it.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    ck, log, delay, workers = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    run = json.loads(sys.argv[5])
    real = mc.run_chunk
    mc._SAVE_EVERY_S = 0.0  # save after every finished chunk, so a kill finds a checkpoint

    def slow(setup, seed_sequence, rounds, **kw):
        out = real(setup, seed_sequence, rounds, **kw)
        if rounds:
            time.sleep(delay)
            with open(log, "a") as fh:  # the chunk is finished: the run must keep it
                fh.write(f"{seed_sequence.spawn_key[0]}\\n")
        return out

    mc.run_chunk = slow
    try:
        res = mc.simulate(**run, workers=workers, checkpoint=ck, progress=False)
    except KeyboardInterrupt:
        sys.exit(130)
    h = hashlib.sha256()
    for key in res.sums.KEYS:
        h.update(getattr(res.sums, key).tobytes())
    print(h.hexdigest())
""")


def sums_hash(sums: ChunkSums) -> str:
    h = hashlib.sha256()
    for key in sums.KEYS:
        h.update(getattr(sums, key).tobytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def reference() -> str:
    """The raw sums of the run, uninterrupted, in this process."""
    return sums_hash(mc.simulate(**RUN, workers=1, progress=False).sums)


def start(tmp_path, ck, *, delay=0.01, workers=2, log="chunks.log"):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"}
    return subprocess.Popen([sys.executable, str(script), str(ck), str(tmp_path / log), str(delay), str(workers),
                             json.dumps(RUN)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_chunks(tmp_path, proc, ck, n=20, timeout=120.0, log="chunks.log"):
    """Wait until the run has finished ``n`` chunks and saved a checkpoint."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        path = tmp_path / log
        if ck.exists() and path.exists() and len(path.read_text().split()) >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    pytest.fail("the run did not get going")


def saved_chunks(ck) -> set[int]:
    head, arrays = storage.load_arrays(ck, mc._CHECKPOINT_SCHEMA)
    return set(range(head["prefix_chunks"])) | {int(i) for i in arrays["index"]}


def n_chunks() -> int:
    return -(-RUN["rounds"] // RUN["chunk_size"])


def finish(tmp_path, ck, reference, **kw):
    proc = start(tmp_path, ck, log="resume.log", **kw)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    assert out.strip() == reference, "resumed run differs from the uninterrupted one"
    return proc


def test_sigkill_mid_run_then_resume_gives_identical_sums(tmp_path, reference):
    ck = tmp_path / "ck.npz"
    proc = start(tmp_path, ck)
    wait_for_chunks(tmp_path, proc, ck)
    proc.kill()
    proc.wait(timeout=30)
    kept = saved_chunks(ck)  # a whole checkpoint survived the kill
    assert 0 < len(kept) < n_chunks(), "the kill did not land mid-run"
    finish(tmp_path, ck, reference)
    resumed = [int(i) for i in (tmp_path / "resume.log").read_text().split()]
    assert not kept & set(resumed), "chunks in the checkpoint were run again"
    print(f"kill -9 after {len(kept)} of {n_chunks()} chunks, resumed: raw sums {reference[:16]} = uninterrupted")


def test_sigint_stops_quickly_and_keeps_every_finished_chunk(tmp_path, reference):
    ck = tmp_path / "ck.npz"
    proc = start(tmp_path, ck, delay=0.03)
    wait_for_chunks(tmp_path, proc, ck)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    stopped = time.monotonic() - t0
    assert proc.returncode == 130
    assert stopped < 3.0, f"took {stopped:.1f} s to stop"
    finished = {int(i) for i in (tmp_path / "chunks.log").read_text().split()}
    kept = saved_chunks(ck)
    assert kept == finished, f"finished but not saved: {sorted(finished - kept)[:10]}"
    assert len(kept) < n_chunks()
    finish(tmp_path, ck, reference)


def test_two_processes_on_one_checkpoint(tmp_path, reference):
    ck = tmp_path / "ck.npz"
    procs = [start(tmp_path, ck, delay=0.002, workers=1, log=f"p{i}.log") for i in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        assert out.strip() == reference
    assert saved_chunks(ck) == set(range(n_chunks()))
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".ck.npz.")], "temporary files left"


WRITER = textwrap.dedent("""
    import sys
    import numpy as np
    from ricochet_math import storage
    from ricochet_math.solvers import solo
    path, tag, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    failures = 0
    for i in range(n):
        a = np.full((200, 50), tag * 1000 + i, dtype=np.int64)
        try:
            storage.save_arrays(path, "test/1", {"a": a})
            storage.load_arrays(path, "test/1")
            solo._save_cached("concurrency-test", a, a[:, :2], np.ones(3, bool), float(i))
            got = solo._load_cached("concurrency-test")
            assert got is not None and np.array_equal(got[1], got[0][:, :2])
        except Exception as exc:
            failures += 1
            print(type(exc).__name__, exc, file=sys.stderr)
    print(failures)
""")


def test_concurrent_saves_of_one_file_and_one_cache_never_fail(tmp_path):
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RICOCHET_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, str(script), str(tmp_path / "shared.npz"), str(t), "150"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for t in range(4)]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and out.strip() == "0", err[-2000:]
    storage.load_arrays(tmp_path / "shared.npz", "test/1")
    leftovers = [p.name for p in list(tmp_path.iterdir()) + list((tmp_path / "cache").iterdir())
                 if p.name.endswith(".tmp")]
    assert not leftovers


def test_damaged_solo_cache_is_noted_and_recomputed(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RICOCHET_CACHE_DIR", str(tmp_path))
    a = np.arange(6, dtype=np.int64).reshape(3, 2)
    solo._save_cached("k", a, a, np.ones(2, bool), 1.0)
    path = tmp_path / "solo-k.npz"
    path.write_bytes(path.read_bytes()[:-40])  # a crash half-way through a copy
    assert solo._load_cached("k") is None
    err = capsys.readouterr().err
    assert "solo cache" in err and str(path) in err and "recomputing" in err and len(err.strip().splitlines()) == 1
    assert solo._load_cached("missing") is None and capsys.readouterr().err == ""


# ---------------------------------------------------------------- a full disk, injected

def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["replace", "fsync"])
def test_full_disk_while_saving_a_checkpoint(tmp_path, monkeypatch, where):
    ck = tmp_path / "ck.npz"
    monkeypatch.setattr(storage.os, where, _no_space)
    with pytest.raises(RicochetError, match=f"checkpoint {ck} could not be written: No space left on device") as e:
        mc.simulate(players=2, rounds=2048, seed=1, chunk_size=1024, checkpoint=ck, progress=False)
    assert "\n" not in str(e.value)
    assert list(tmp_path.iterdir()) == [], "a partial file was left"


@pytest.mark.parametrize("where", ["replace", "fsync"])
def test_full_disk_while_writing_text(tmp_path, monkeypatch, where):
    target = tmp_path / "out" / "figures.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    monkeypatch.setattr(storage.os, where, _no_space)
    with pytest.raises(RicochetError, match="could not be written: No space left on device"):
        storage.atomic_write_text(target, "new\n")
    assert target.read_text() == "old\n" and sorted(p.name for p in target.parent.iterdir()) == ["figures.csv"]


def test_huge_runs_cost_no_memory_up_front_and_ctrl_c_keeps_finished_chunks(tmp_path, monkeypatch):
    """rounds = 10**12 in chunks of 1,024: seeds and tasks are made as threads free up, so the run starts at
    once; an interrupt after a few chunks keeps exactly the chunks that finished."""
    real, calls = mc.run_chunk, []

    def interrupted(setup, seed_sequence, rounds, **kw):
        if len(calls) == 12:
            raise KeyboardInterrupt
        calls.append(seed_sequence.spawn_key[0] if rounds else None)
        return real(setup, seed_sequence, 16, **kw)  # 16 rounds stand in for 1,024: only the bookkeeping matters

    monkeypatch.setattr(mc, "run_chunk", interrupted)
    ck = tmp_path / "ck.npz"
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        mc.simulate(players=2, rounds=mc.MAX_ROUNDS, seed=1, chunk_size=1024, workers=1, checkpoint=ck,
                    progress=False)
    assert time.monotonic() - t0 < 10
    assert saved_chunks(ck) == {i for i in calls if i is not None}


def test_chunk_seeds_made_on_their_own_equal_the_spawned_ones():
    for seed in (0, 11, 2 ** 127 + 5):
        spawned = np.random.SeedSequence(seed).spawn(1001)
        for i in (0, 1, 2, 999, 1000):
            assert np.array_equal(mc.chunk_seed(seed, i).generate_state(8), spawned[i].generate_state(8))


@pytest.mark.slow
def test_soak_1e8_rounds_keeps_memory_flat(tmp_path):
    """10**8 always-play rounds at N = 7 (1,526 chunks, checkpointed): the process's peak resident memory
    stays near that of a 10**6-round run, since chunks are seeded, submitted and summed as they go."""
    code = textwrap.dedent("""
        import resource, sys
        from ricochet_math.solvers.montecarlo import simulate
        rounds = int(sys.argv[1])
        r = simulate(players=7, strategy="always", rounds=rounds, seed=3, progress=False, checkpoint=sys.argv[2])
        assert r.rounds == rounds
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # KiB on Linux
    """)
    peaks = {}
    for rounds in (10 ** 6, 10 ** 8):
        out = subprocess.run([sys.executable, "-c", code, str(rounds), str(tmp_path / f"ck-{rounds}.npz")],
                             capture_output=True, text=True, timeout=1800, check=True)
        peaks[rounds] = int(out.stdout.split()[-1])
    print(f"peak resident memory: 1e6 rounds {peaks[10 ** 6] / 1024:.0f} MiB, 1e8 rounds {peaks[10 ** 8] / 1024:.0f} MiB")
    assert peaks[10 ** 8] < peaks[10 ** 6] * 1.25 + 64 * 1024
