"""The Dask executor gives the local result bit for bit (issue 12: runs that outgrow one machine).

A real ``dask.distributed.LocalCluster`` of 2 worker processes is started once for the module; every
run below is compared with the same run on local threads by the SHA-256 of its raw sums.
"""
from __future__ import annotations

import hashlib
import sys

import pytest

import ricochet_math.solvers.montecarlo as mc
from ricochet_math.errors import RicochetError
from ricochet_math.solvers.executors import DaskExecutor, LocalExecutor
from ricochet_math.solvers.montecarlo import rtp_table, simulate
from ricochet_math.storage import load_arrays

ALWAYS = dict(players=4, strategy="always", rounds=200_000, seed=12, chunk_size=20_000, progress=False)
PERFECT = dict(players=2, strategy="perfect", rounds=300, seed=5, chunk_size=40, progress=False)


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed",
                                      reason="dask.distributed is not installed (pip install 'ricochet_math[distributed]')")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def digest(result) -> str:
    h = hashlib.sha256()
    for key in result.sums.KEYS:
        h.update(getattr(result.sums, key).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("run", [ALWAYS, PERFECT], ids=["always-N4", "perfect-N2"])
def test_dask_gives_the_local_sums_bit_for_bit(client, run):
    one = simulate(**run, workers=1)
    print(f"{run['strategy']} N={run['players']}: raw-sum SHA-256 {digest(one)[:16]} (local 1 thread)")
    assert digest(simulate(**run, workers=2)) == digest(one)
    assert digest(simulate(**run, executor=client)) == digest(one)
    on_dask = simulate(**run, executor=DaskExecutor(client))
    assert digest(on_dask) == digest(one)
    assert (on_dask.rounds, on_dask.seeds, on_dask.chunk_size) == (one.rounds, one.seeds, one.chunk_size)


def test_rtp_table_on_a_scheduler_address(client):
    kw = dict(players=[1, 3], strategy="always", rounds=30_000, seed=3, progress=False)
    local, _ = rtp_table(**kw, workers=1)
    remote, _ = rtp_table(**kw, executor=client.scheduler.address)
    assert [digest(r) for r in remote] == [digest(r) for r in local]


class _Interrupting(DaskExecutor):
    """A Dask executor whose driver is interrupted (Ctrl-C) after ``k`` chunks have come back."""

    def __init__(self, client, k: int) -> None:
        super().__init__(client)
        self.k = k

    def run(self, job, todo, remaining, done):
        seen = 0

        def counting(i, chunk):
            nonlocal seen
            done(i, chunk)
            seen += 1
            if seen == self.k:
                raise KeyboardInterrupt

        super().run(job, todo, remaining, counting)


def test_an_interrupted_dask_run_resumes_locally_to_the_same_sums(client, tmp_path):
    ck = tmp_path / "ck.npz"
    with pytest.raises(KeyboardInterrupt):
        simulate(**ALWAYS, checkpoint=ck, executor=_Interrupting(client, 3))
    head, arrays = load_arrays(ck, mc._CHECKPOINT_SCHEMA)
    assert 3 <= head["prefix_chunks"] + len(arrays["index"]) < 10  # kept what finished, not the whole run
    resumed = simulate(**ALWAYS, checkpoint=ck, workers=1)
    assert digest(resumed) == digest(simulate(**ALWAYS, workers=1))


def test_workers_and_executor_together_are_refused(client):
    with pytest.raises(RicochetError, match="workers .* or executor, not both"):
        simulate(**ALWAYS, workers=2, executor=client)
    with pytest.raises(RicochetError, match="Client or a scheduler address"):
        simulate(**ALWAYS, executor=42)


def test_a_missing_dask_is_one_line_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails as if not installed
    with pytest.raises(RicochetError, match=r"pip install 'ricochet_math\[distributed\]'"):
        simulate(**ALWAYS, executor="tcp://127.0.0.1:8786")
    assert simulate(**{**ALWAYS, "rounds": 1000}, executor=LocalExecutor(1)).rounds == 1000
    with pytest.raises(RicochetError, match="workers must be"):
        LocalExecutor(0)


def test_every_monte_carlo_entry_point_takes_the_cluster(client):
    """kickout sweep, published figures and best response, bonus tuning: identical on the cluster."""
    from ricochet_math.design.kickout import kickout_curve
    from ricochet_math.design.tuning import bonus_rtp_function_mc
    from ricochet_math.reports.published import best_response, published_figures

    kw = dict(players=2, grid=("KK", "AA"), rounds=2_000, seed=4, strategy="always")
    assert kickout_curve(**kw, executor=client).to_frame().equals(kickout_curve(**kw).to_frame())
    pf = dict(rounds=300, seed=5, readings=("pot-odds-now",), players=(2,), weak_profiles=("always",),
              weak_rounds=2_000)
    assert published_figures(**pf, executor=client).table.equals(published_figures(**pf).table)
    br = dict(reading="pot-odds-now", players=(2,), rounds=200, seed=6)
    assert best_response(**br, executor=client).equals(best_response(**br))
    f_local = bonus_rtp_function_mc(None, 2, rounds=2_000, seed=7, strategy="always")
    f_dask = bonus_rtp_function_mc(None, 2, rounds=2_000, seed=7, strategy="always", executor=client)
    assert (f_dask.constant, f_dask.coefficients) == (f_local.constant, f_local.coefficients)


def test_cli_scheduler_gives_the_local_table(client):
    import subprocess

    argv = [sys.executable, "-m", "ricochet_math", "simulate", "--players", "3", "--strategy", "always",
            "--rounds", "40000", "--seed", "8", "--format", "csv"]
    local = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    remote = subprocess.run(argv + ["--scheduler", client.scheduler.address], capture_output=True, text=True,
                            timeout=300)
    assert local.returncode == remote.returncode == 0, remote.stderr[-2000:]
    drop = ("run_time_s",)  # the only column that may differ
    strip = lambda out: [",".join(c for c, h in zip(line.split(","), out.splitlines()[0].split(","))
                                  if h not in drop) for line in out.splitlines()]
    assert strip(remote.stdout) == strip(local.stdout)



@pytest.mark.parametrize("workers", [1, 4])
def test_dask_with_one_or_four_workers_gives_the_local_sums(workers):
    """The same sums, bit for bit, on clusters of 1 and 4 worker processes (2 are tested above)."""
    distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")
    one = simulate(**ALWAYS, workers=1)
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        on_dask = simulate(**ALWAYS, executor=c)
    print(f"always N=4, 200,000 rounds: local 1 thread {digest(one)[:16]}, Dask {workers} worker(s) "
          f"{digest(on_dask)[:16]}")
    assert digest(on_dask) == digest(one)
