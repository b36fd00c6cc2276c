"""The smaller findings of issue 33, each as it was found: fmt near 256 KiB, a "\\ud800" title, the trick cap's
error, `new scenario 'Night: the return'`, escape sequences and bidi controls in titles."""

from __future__ import annotations

import json
from pathlib import Path

from hardening.support import run_main

BOX = "box: american-dream\nfactions: [Survivalists, Bikers, Cheerleaders]\n"


def test_fmt_of_a_file_that_formatting_takes_past_256_kib_says_so_and_keeps_it(tmp_path):
    path = tmp_path / "near.power"
    text = "power Goblins {\nfor faction Goblins\non win {\n" + " gain 1\n" * 30_000 + "}\n}\n"  # 240 KB
    path.write_text(text, encoding="utf-8")
    assert run_main("check", str(path))[0] == 0
    code, output = run_main("fmt", str(path))
    assert code == 1 and "internal error" not in output, output
    assert ("error[S004]: formatted, this file would be 330056 bytes, larger than the 256 KiB of a power file; "
            "it is left as it is") in output
    assert path.read_text(encoding="utf-8") == text


def test_a_lone_surrogate_in_a_title_is_refused_by_check(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text('title: "\\ud800"\n' + BOX, encoding="utf-8")
    code, output = run_main("check", str(path))
    assert code == 1
    assert "s.yaml:1:8: error[D005]: this text holds a lone surrogate (U+D800), which is not a character" in output


def test_a_results_file_with_a_lone_surrogate_is_reported(tmp_path):
    path = tmp_path / "r.json"
    game = {"game": 0, "seed": 0, "rounds": 3, "final_populations": [1, 2, 3], "winners": [0],
            "factions": [["X", "basic"], ["B", "basic"], ["C", "basic"]]}
    path.write_text(json.dumps({"games": [game], "summary": {"scenario": "x"}}).replace('"X"', '"\\ud800X"'),
                    encoding="utf-8")
    code, output = run_main("report", str(path), "--out", str(tmp_path / "report"))
    assert code == 0, output
    assert "\ufffdX" in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")


def test_escape_sequences_and_bidi_controls_in_titles_are_refused(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text('title: "red \\e[31m"\n' + BOX, encoding="utf-8")
    code, output = run_main("check", str(scenario))
    assert code == 1 and "\x1b" not in output
    assert "error[D005]: this text holds the control character U+001B, which a terminal would act on" in output
    power = tmp_path / "p.power"
    power.write_text('power Goblins {\n  for faction Goblins\n  variant basic "T\u202eitle" { on win { gain 1 } }\n'
                     '  variant positive { on win { gain 2 } }\n  variant negative { on win { gain 3 } }\n}\n',
                     encoding="utf-8")
    code, output = run_main("check", str(power))
    assert code == 1 and "\u202e" not in output
    assert "p.power:3:19: error[S001]: an invisible control character (U+202E) is here: delete it" in output


def test_the_trick_cap_names_the_scenario(tmp_path):
    (tmp_path / "g.power").write_text("power Goblins {\n  for faction Goblins\n  on win {\n    move trick to hand\n"
                                      "  }\n}\n", encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("box: woodstock-fever\nfactions: [Goblins, Hippies, Soldiers]\ncustom_factions:\n"
                        "  - name: Goblins\n    power: g.power\n", encoding="utf-8")
    code, output = run_main("simulate", "--scenario", str(scenario), "--games", "1")
    assert code == 1
    assert output.startswith(f"{scenario}:1:1: error[R001]: round 1 did not end after ")
    assert "tricks: a power keeps bringing cards back into the hands" in output and "<input>" not in output


def test_new_scenario_with_a_colon_in_its_title_checks(tmp_path):
    code, output = run_main("new", "scenario", "Night: the return", "--dir", str(tmp_path))
    assert code == 0, output
    path = tmp_path / "night_the_return.yaml"
    assert 'title: "Night: the return"' in path.read_text(encoding="utf-8")
    assert run_main("check", str(path)) == (0, "0 errors, 0 warnings in 1 file\n")
    code, output = run_main("new", "scenario", "Odd \x1b[31m", "--dir", str(tmp_path))
    assert code == 2 and "holds an invisible or control character" in output and "\x1b" not in output
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == ["night_the_return.yaml"]
