"""Nothing finished is lost: dead workers, SIGTERM, a killed driver, two sweeps on one file.

Games are deterministic, so a run that lost a worker must give exactly the games of a run that did not;
each test compares the games themselves with a serial run's (docs/reliability.md).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from hardening.support import alive, assert_one_error, children_of, run_main

from happydayz.report.results import load_results
from happydayz.simulation import parallel
from happydayz.simulation.simulate import SimulationIncomplete, simulate
from happydayz.simulation.sweep import run_sweep

_real_run_batch = parallel.run_batch
MARKS: dict[str, str] = {}  # how the doomed workers below leave a trace (set by each test)


def dies_once(batch):
    """A worker's entry point that kills its process the first time it is given game 10."""
    if any(index == 10 for index, _ in batch.games):
        try:
            os.close(os.open(MARKS["once"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return _real_run_batch(batch)
        os._exit(9)  # as kill -9: no cleanup, no answer
    return _real_run_batch(batch)


def always_dies(batch):
    """A worker's entry point that kills its process whenever it is given game 0."""
    if any(index == 0 for index, _ in batch.games):
        with open(MARKS["always"], "a", encoding="utf-8") as handle:
            handle.write("died\n")
        os._exit(9)
    return _real_run_batch(batch)


def serial(games: int, seed: int = 3) -> dict:
    return simulate("woodstock-fever/1", 4, games=games, seed=seed, express=True)


def test_a_killed_worker_is_replaced_and_the_results_are_those_of_a_serial_run(tmp_path, monkeypatch):
    MARKS["once"] = str(tmp_path / "died")
    monkeypatch.setattr(parallel, "run_batch", dies_once)
    result = simulate("woodstock-fever/1", 4, games=80, seed=3, express=True, jobs=2, start_method="fork")
    assert Path(MARKS["once"]).exists(), "no worker died: the test tested nothing"
    assert result == serial(80)  # every game, identical, and the same summary


def test_a_batch_lost_too_often_ends_the_run_keeping_every_game_finished(tmp_path, monkeypatch):
    MARKS["always"] = str(tmp_path / "deaths")
    monkeypatch.setattr(parallel, "run_batch", always_dies)
    with pytest.raises(SimulationIncomplete) as info:
        simulate("woodstock-fever/1", 4, games=80, seed=3, express=True, jobs=2, start_method="fork")
    # once among others (the cause unknown), then MAX_RETRIES + 1 times alone
    deaths = Path(MARKS["always"]).read_text(encoding="utf-8").count("died")
    assert deaths == parallel.MAX_RETRIES + 2
    result = info.value.result
    size = parallel.batch_size(80, 2)
    assert result["summary"]["incomplete"] is True
    assert info.value.reason == f"a worker process died {parallel.MAX_RETRIES + 1} times playing games 0 to " \
                                f"{size - 1}; giving up on them"
    assert result["games"] == serial(80)["games"][size:]  # every other game, played, identical


def test_the_command_writes_the_games_finished_and_marks_the_json_incomplete(tmp_path, monkeypatch):
    MARKS["always"] = str(tmp_path / "deaths")
    monkeypatch.setattr(parallel, "run_batch", always_dies)
    out = tmp_path / "run.json"
    code, output = run_main("simulate", "--games", "80", "--seed", "3", "--express", "--jobs", "2", "--quiet",
                            "--json", str(out))
    line = assert_one_error(code, output)
    assert line.startswith("happydayz: error: the run could not finish (a worker process died")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["incomplete"] is True and data["summary"]["games"] == len(data["games"])
    assert data["games"] == serial(80)["games"][parallel.batch_size(80, 2):]


def test_a_game_that_raises_ends_the_run_with_the_games_before_it(monkeypatch):
    real = parallel.Worker.play_one

    def play_one(self, job, index, seed):
        if index == 7:
            raise ValueError("a bug in game 7")
        return real(self, job, index, seed)

    reference = serial(7)["games"]
    monkeypatch.setattr(parallel.Worker, "play_one", play_one)
    with pytest.raises(SimulationIncomplete) as info:
        simulate("woodstock-fever/1", 4, games=20, seed=3, express=True)
    assert info.value.reason == "game 7 failed: ValueError: a bug in game 7"
    assert info.value.result["games"] == reference


def test_a_dead_worker_of_a_sweep_is_replaced_and_the_file_is_that_of_a_serial_sweep(tmp_path, monkeypatch):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: [3, 4]\ngames: {count: 30, seed: 2}\nexpress: true\n",
                    encoding="utf-8")
    run_sweep(spec, tmp_path / "serial.jsonl")
    MARKS["once"] = str(tmp_path / "died")
    monkeypatch.setattr(parallel, "run_batch", dies_once)
    run_sweep(spec, tmp_path / "parallel.jsonl", jobs=2, start_method="fork")
    assert Path(MARKS["once"]).exists()
    assert (tmp_path / "parallel.jsonl").read_bytes() == (tmp_path / "serial.jsonl").read_bytes()


# ------------------------------------------------------------------ the sweep's lock and duplicates

def test_a_results_file_another_sweep_holds_is_refused(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: 3\ngames: 4\nexpress: true\n", encoding="utf-8")
    out = tmp_path / "spec.results.jsonl"
    assert run_main("sweep", str(spec), "--quiet")[0] == 0
    before = out.read_bytes()
    with open(out, "rb") as holder:  # another sweep, as far as the lock can tell
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        for argv in (["--resume"], ["--force"]):
            code, output = run_main("sweep", str(spec), "--quiet", *argv)
            line = assert_one_error(code, output)
            assert line == f"{out}:1:1: error[L006]: another sweep is writing this results file; wait for it to " \
                           f"end, or write to another --out"
    assert out.read_bytes() == before


@pytest.mark.slow
def test_two_sweeps_on_one_file_write_each_game_once(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: 4\ngames: 3000\nexpress: true\n", encoding="utf-8")
    out = tmp_path / "spec.results.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "happydayz", "sweep", str(spec), "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    second = subprocess.run([sys.executable, "-m", "happydayz", "sweep", str(spec), "--resume", "--quiet"],
                            capture_output=True, text=True, timeout=120)
    first_output, _ = first.communicate(timeout=300)
    assert first.returncode == 0, first_output
    if second.returncode == 0:  # the first had finished already: nothing was left to play
        pytest.skip("the first sweep ended before the second began")
    assert second.returncode == 1 and "another sweep is writing this results file" in second.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3000
    assert len({(json.dumps(json.loads(x)["cell"]), json.loads(x)["game"]) for x in lines}) == 3000


def test_report_counts_a_game_written_twice_once(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: 3\ngames: 5\nexpress: true\n", encoding="utf-8")
    out = tmp_path / "r.jsonl"
    run_sweep(spec, out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines + lines[1:3]), encoding="utf-8")
    results = load_results(out)
    assert [g.index for g in results.games] == [0, 1, 2, 3, 4]
    assert "2 line(s) repeating a game already read (the same cell and game) were ignored." in results.notes


# ------------------------------------------------------------------ signals and a killed driver

def _start(argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "happydayz", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _workers_of(process: subprocess.Popen, count: int = 2, timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = children_of(process.pid)
        if len(found) >= count:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {count} worker processes of {process.pid}")


@pytest.mark.slow
def test_sigterm_stops_a_run_as_ctrl_c_does_keeping_the_games_finished(tmp_path):
    out = tmp_path / "run.json"
    # far more games than two seconds play (a random express game takes about a millisecond): the signal
    # must come in the middle of the run
    process = _start(["simulate", "--games", "40000", "--seed", "3", "--express", "--jobs", "2", "--quiet",
                      "--json", str(out)])
    workers = _workers_of(process)
    time.sleep(2.0)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["interrupted"] is True and 0 < len(data["games"]) < 40000
    by_index = {g["game"]: g for g in serial(max(g["game"] for g in data["games"]) + 1)["games"]}
    assert data["games"] == [by_index[g["game"]] for g in data["games"]]
    time.sleep(0.5)
    assert not any(alive(pid) for pid in workers)


@pytest.mark.slow
def test_sigterm_stops_a_ray_run_as_ctrl_c_does_keeping_the_games_finished(tmp_path):
    pytest.importorskip("ray")
    out, events = tmp_path / "run.json", tmp_path / "events.jsonl"
    process = _start(["simulate", "--games", "1000000", "--seed", "3", "--express", "--backend", "ray", "--jobs", "2",
                      "--quiet", "--json", str(out), "--log", str(events)])
    # the signal must come once games have come back (their events are written as they do), which takes from
    # a second to a minute by the machine's load (Ray's workers start and import the package first)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not (events.exists() and events.stat().st_size > 0):
        assert process.poll() is None, process.communicate()[1][-2000:]
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=180)
    assert process.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "interrupted after" in err, err[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["interrupted"] is True and 0 < len(data["games"]) < 1000000
    by_index = {g["game"]: g for g in serial(max(g["game"] for g in data["games"]) + 1)["games"]}
    assert data["games"] == [by_index[g["game"]] for g in data["games"]]


def test_a_sigterm_during_ray_init_waits_for_it_then_stops_the_run():
    # Ray's own SIGTERM handlers, which ray.init installs, exit the process at once (sys.exit), and a signal
    # that stops ray.init midway can crash Ray: the signal waits until ray.init returns, then stops the run.
    calls = []

    class Utils:  # as ray._private.utils
        @staticmethod
        def set_sigterm_handler(handler):
            signal.signal(signal.SIGTERM, handler)

    class FakeRay:
        _private = types.SimpleNamespace(utils=Utils)

        def init(self, **options):
            self._private.utils.set_sigterm_handler(lambda signum, frame: sys.exit(signum))  # as ray.init does
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            calls.append("init")

        def shutdown(self):
            calls.append("shutdown")

    def as_ctrl_c(signum, frame):  # as the CLI's
        raise KeyboardInterrupt

    own = Utils.set_sigterm_handler
    previous = signal.signal(signal.SIGTERM, as_ctrl_c)
    try:
        with pytest.raises(KeyboardInterrupt):
            parallel._start_ray(FakeRay(), 2, None)
        assert signal.getsignal(signal.SIGTERM) is as_ctrl_c
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert calls == ["init", "shutdown"] and Utils.set_sigterm_handler is own


@pytest.mark.slow
def test_an_interrupted_ray_run_cancels_no_task(monkeypatch):
    # ray.cancel meeting the reply of a task finishing just then fails a RAY_CHECK in the driver's Ray core
    # worker, which exits 1 at once (a race in Ray): a run that stops keeps the batches finished and cancels none.
    ray = pytest.importorskip("ray")
    monkeypatch.setattr(ray, "cancel", lambda *args, **kwargs: pytest.fail("ray.cancel was called"))
    job = parallel.GameJob("woodstock-fever/1", 4, ("random",) * 4, express=True)
    batches = parallel.make_batches(None, job, ((i, i) for i in range(20000)), 25)
    got: list[int] = []

    def on_outcome(outcome):
        got.append(outcome[1])
        if len(got) == 60:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        parallel.run(batches, on_outcome, jobs=2, backend="ray")
    assert len(got) >= 60 and len(set(got)) == len(got)


# A Ctrl-C that comes when the command's work is done, while Python waits for threads at its exit
# (threading._shutdown): a thread that is still running then sends it.
_SIGNAL_AT_EXIT = """
import os, signal, sys, threading, time
from happydayz.cli import main
code = main()
def late():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1.0)
threading.Thread(target=late).start()
sys.exit(code)
"""


@pytest.mark.parametrize("argv", [["simulate", "--games", "2", "--express", "--jobs", "2"],
                                  ["sweep", "SPEC", "--resume", "--jobs", "2", "--quiet"]], ids=["simulate", "sweep"])
def test_a_signal_at_exit_prints_no_traceback(tmp_path, argv):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: 3\ngames: 4\nexpress: true\n", encoding="utf-8")
    argv = [str(spec) if a == "SPEC" else a for a in argv]
    done = subprocess.run([sys.executable, "-c", _SIGNAL_AT_EXIT, *argv], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode in (0, -signal.SIGINT), (done.returncode, done.stderr)


@pytest.mark.slow
def test_the_workers_of_a_killed_driver_end_and_never_hold_the_results_file(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text("scenarios: [woodstock-fever/1]\nplayers: 4\ngames: 5000\nexpress: true\n", encoding="utf-8")
    out = tmp_path / "spec.results.jsonl"
    process = _start(["sweep", str(spec), "--jobs", "2", "--quiet"])
    workers = _workers_of(process)
    deadline = time.monotonic() + 60
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in workers:  # a worker has no descriptor of the results file
        held = []
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                held.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                pass
        assert str(out) not in held, (pid, held)
    process.kill()  # kill -9 of the driver
    process.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)
    # the file is free again: a resumed sweep finishes it, each game once
    done = subprocess.run([sys.executable, "-m", "happydayz", "sweep", str(spec), "--resume", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(x)["game"] for x in lines) == list(range(5000))


@pytest.mark.slow
def test_kill_9_of_a_worker_mid_run_changes_nothing_in_the_json(tmp_path):
    """The acceptance check's scenario: a worker killed from outside, at some moment of the run."""
    out = tmp_path / "par.json"
    # enough games that the run is still going when a worker is killed, on a fast machine too
    process = _start(["simulate", "--games", "12000", "--seed", "9", "--express", "--jobs", "2", "--quiet",
                      "--json", str(out)])
    _workers_of(process, 1)
    time.sleep(1.5)
    killed = False
    for victim in _workers_of(process, 1):  # a worker alive now (a child may have ended meanwhile)
        try:
            os.kill(victim, signal.SIGKILL)
            killed = True
            break
        except ProcessLookupError:
            continue
    assert killed
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0 and "Traceback" not in err, err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == simulate("woodstock-fever/1", 4, games=12000, seed=9, express=True)


def _raises_at_game_7(self, job, index, seed):
    if index == 7:
        raise ValueError("a bug in game 7")
    return _real_play_one(self, job, index, seed)


_real_play_one = parallel.Worker.play_one


def test_a_game_that_raises_in_a_worker_gives_up_its_batch_only(monkeypatch):
    reference = serial(80)["games"]
    monkeypatch.setattr(parallel.Worker, "play_one", _raises_at_game_7)
    with pytest.raises(SimulationIncomplete) as info:
        simulate("woodstock-fever/1", 4, games=80, seed=3, express=True, jobs=2, start_method="fork")
    assert info.value.reason == "game 7 failed: ValueError: a bug in game 7"
    size = parallel.batch_size(80, 2)  # the games of 7's batch before it are kept, the rest of it given up
    batch = range(7 // size * size, 7 // size * size + size)
    expected = [g for g in reference if g["game"] < 7 or g["game"] not in batch]
    assert info.value.result["games"] == expected and info.value.result["summary"]["incomplete"] is True
