"""``bench.api --rounds``: the phases of every other round run the other way round, and
the ratios over rounds are their medians and ranges (the figures docs/benchmarks.md
quotes). wrk itself is not run here: tests/live/test_bench_scripts.py runs it."""

from bench import api
from bench.api import Phase, phases, ratios_over_rounds


def _phase(name: str, requests: int, cpu_s: float) -> Phase:
    return Phase(
        name=name,
        requests=requests,
        seconds=1.0,
        p50_ms=1.0,
        p99_ms=2.0,
        errors={},
        answers={},
        wrk_cpu_s=0.0,
        server_cpu_s=cpu_s,
    )


def test_a_backwards_round_runs_play_first_and_answers_in_the_usual_order(monkeypatch):
    ran = []

    def fake_wrk(name, url, script, connections, duration, env, *, server_pids=None):
        ran.append(name)
        return _phase(name, 1, 1.0)

    monkeypatch.setattr(api, "wrk", fake_wrk)
    kwargs = {"connections": 1, "duration": 1, "server_pids": []}
    forwards = phases("http://x", {}, **kwargs)
    first = list(ran)
    ran.clear()
    backwards = phases("http://x", {}, backwards=True, **kwargs)
    assert first == [phase.name for phase in forwards]
    assert first[0] == "plain Django JSON view"
    assert ran == first[::-1]
    assert ran[0].startswith("play")
    assert [phase.name for phase in backwards] == first


def test_the_ratios_over_rounds_are_their_medians_and_ranges(capsys):
    rounds = [
        [_phase("plain", 1000, 1.0), _phase("me", 600, 1.0), _phase("play", rate, 0.8)]
        for rate in (200, 250, 160)
    ]
    ratios_over_rounds(rounds)
    lines = capsys.readouterr().out.splitlines()
    play = next(line for line in lines if "play / plain Django" in line)
    drf = next(line for line in lines if "DRF trivial / plain Django" in line)
    # By requests per second, then by requests per web CPU-second (play's CPU is 0.8 s).
    assert play.split()[-4:] == ["0.200", "(0.160-0.250)", "0.250", "(0.200-0.312)"]
    assert drf.split()[-4:] == ["0.600", "(0.600-0.600)", "0.600", "(0.600-0.600)"]
