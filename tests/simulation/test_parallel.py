"""Parallel simulation: --jobs N and the Ray backend give the very games of --jobs 1; Ctrl-C keeps what finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from happydayz.simulation import parallel
from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.simulation.simulate import SimulationInterrupted, simulate

from interrupting import ctrl_c_at_line


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_jobs_2_writes_the_same_json_and_log_as_jobs_1(capsys, tmp_path):
    files = {}
    for jobs in ("1", "2"):
        out, log = tmp_path / f"j{jobs}.json", tmp_path / f"j{jobs}.jsonl"
        code, _, err = run(capsys, "simulate", "--scenario", "american-dream/2", "--players", "3", "--games", "24",
                           "--seed", "8", "--express", "--jobs", jobs, "--json", str(out), "--log", str(log))
        assert code == 0 and err == ""  # no progress bar: standard error is not a terminal
        files[jobs] = (out.read_bytes(), log.read_bytes())
    assert files["1"] == files["2"]
    games = json.loads(files["2"][0])["games"]
    assert [g["game"] for g in games] == list(range(24))
    logged = [json.loads(line)["game"] for line in files["2"][1].decode().splitlines()]
    assert logged == sorted(logged) and set(logged) == set(range(24))


def test_spawned_workers_rebuild_the_setup_from_a_scenario_file(tmp_path, monkeypatch):
    """With the "spawn" start method nothing is inherited: the workers read the box and scenario files themselves."""
    from happydayz.base.resources import data_dir

    box = (data_dir("boxes") / "woodstock_fever.yaml").read_text(encoding="utf-8")
    (tmp_path / "extra.yaml").write_text(box.replace("id: woodstock-fever", "id: extra-box"), encoding="utf-8")
    (tmp_path / "mine.yaml").write_text("box: extra-box\nfactions: [Dogs, {faction: Hippies, variant: negative}, "
                                        "Soldiers]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = dict(players=3, games=6, seed=2, express=True, random_powers=True, variants={"Dogs": "positive"},
                env=Environment(box_files=[tmp_path / "extra.yaml"]))
    serial = simulate("mine.yaml", log=tmp_path / "serial.jsonl", **args)
    spawned = simulate("mine.yaml", log=tmp_path / "spawned.jsonl", jobs=2, start_method="spawn", **args)
    assert json.dumps(serial) == json.dumps(spawned)
    assert (tmp_path / "serial.jsonl").read_bytes() == (tmp_path / "spawned.jsonl").read_bytes()
    start = json.loads((tmp_path / "spawned.jsonl").read_text().splitlines()[0])
    assert start["scenario"].endswith("mine.yaml") and ["Dogs", "positive"] in start["factions"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_games_finished(jobs):
    full = simulate("woodstock-fever/1", players=4, games=40, seed=5, express=True)

    def progress(done, total):
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as caught:
        simulate("woodstock-fever/1", players=4, games=40, seed=5, express=True, jobs=jobs, progress=progress)
    partial = caught.value.result
    assert partial["summary"]["interrupted"] is True
    assert 5 <= partial["summary"]["games"] == len(partial["games"]) < 40
    by_index = {g["game"]: g for g in full["games"]}
    indexes = [g["game"] for g in partial["games"]]
    assert indexes == sorted(indexes)
    assert all(g == by_index[g["game"]] for g in partial["games"])
    assert "interrupted" not in full["summary"]


def test_a_ctrl_c_while_a_game_is_logged_keeps_the_game_and_its_log_line_together(tmp_path, monkeypatch):
    """Ctrl-C at the worst moment, as the sixth game's log line is about to be written: the games the result
    keeps are exactly those the event log holds (the interrupt waits for the line, then stops the run)."""
    from happydayz.simulation import simulate as simulate_module

    with ctrl_c_at_line(monkeypatch, simulate_module, 6), pytest.raises(SimulationInterrupted) as caught:
        simulate("woodstock-fever/1", players=4, games=40, seed=5, express=True, log=tmp_path / "events.jsonl")
    kept = [g["game"] for g in caught.value.result["games"]]
    logged = sorted({json.loads(line)["game"] for line in (tmp_path / "events.jsonl").read_text().splitlines()})
    assert kept == logged == list(range(6))


def _hear_ctrl_c() -> None:
    # A shell without job control starts background commands with Ctrl-C ignored, and a
    # child inherits that (so does the Python inside it): a test run started with `&`
    # would send its SIGINT to a command that cannot hear it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_on_the_command_line_exits_130_and_writes_the_json(tmp_path):
    out, log = tmp_path / "out.json", tmp_path / "events.jsonl"
    # far more games than can finish before the interrupt comes, however fast the kernel gets
    process = subprocess.Popen([sys.executable, "-m", "happydayz", "simulate", "--games", "50000", "--jobs", "2",
                                "--json", str(out), "--log", str(log)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=_hear_ctrl_c)
    try:
        deadline = time.time() + 90
        while time.time() < deadline and process.poll() is None and not (log.exists() and log.stat().st_size):
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
        _, err = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    data = json.loads(out.read_text())
    assert data["summary"]["interrupted"] is True and 0 < len(data["games"]) < 50000
    logged = {json.loads(line)["game"] for line in log.read_text().splitlines()}
    assert logged == {g["game"] for g in data["games"]}


def test_backend_usage_errors(capsys, monkeypatch):
    code, _, err = run(capsys, "simulate", "--address", "10.0.0.1:6379")
    assert code == 2 and "--backend ray" in err
    code, _, err = run(capsys, "simulate", "--jobs", "-1")
    assert code == 2 and "expected 0" in err
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    code, _, err = run(capsys, "simulate", "--backend", "ray")
    assert code == 2 and "pip install 'happydayz[ray]'" in err


def test_batches_keep_the_order_and_cover_every_game():
    job = parallel.GameJob("woodstock-fever/1", 4, ("random",) * 4)
    games = [(i, 100 + i) for i in range(53)]
    for workers in (1, 2, 3, 16):
        batches = parallel.make_batches("k", job, games, parallel.batch_size(len(games), workers))
        assert [g for b in batches for g in b.games] == games
        assert all(len(b.games) <= 25 for b in batches)


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    import logging

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield ray
    if started:
        ray.shutdown()


def test_ray_gives_the_games_of_the_local_backend(ray_instance, tmp_path):
    from happydayz.simulation.sweep import run_sweep

    args = dict(players=3, games=5, seed=11, express=True)
    local = simulate("american-dream/2", **args)
    remote = simulate("american-dream/2", jobs=2, backend="ray", **args)
    assert json.dumps(local) == json.dumps(remote)

    spec = tmp_path / "grid.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: [2, 3]\ngames: {count: 2, seed: 4}\nexpress: true\n",
                    encoding="utf-8")
    run_sweep(spec, tmp_path / "local.jsonl")
    run_sweep(spec, tmp_path / "ray.jsonl", jobs=2, backend="ray")
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "ray.jsonl").read_bytes()
