"""`happydayz test`: run every scripted game under some files or folders, like a test runner.

One process and one Environment for the whole run, so every power file is
compiled once. Each game passes when it plays through and everything its
script checks holds (its steps, its `end:`, its `expect:` block); it fails
with the differences, or with the diagnostic of an illegal deal or answer.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from happydayz.base.errors import Diagnostic, HappyError, Span
from happydayz.base.safeyaml import load_yaml
from happydayz.data.environment import Environment
from happydayz.kernel.scripted import StoppedScript, is_script, replay

SCRIPT_SUFFIXES = (".yaml", ".yml")


@dataclass
class ScriptResult:
    path: Path
    problems: list[str] = field(default_factory=list)  # what did not hold; empty when the game passed
    error: Diagnostic | None = None  # the script could not be played (an illegal answer, a broken file)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems and self.error is None

    def record(self) -> dict:
        return {"file": str(self.path), "passed": self.passed, "seconds": round(self.seconds, 4),
                "problems": self.problems, "error": self.error.record() if self.error else None}


def find_scripts(paths: list[str | os.PathLike]) -> tuple[list[Path], list[Diagnostic]]:
    """The scripted games named, or found in the folders named (YAML files that are scripted games)."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for candidate in sorted(p for p in path.rglob("*") if p.suffix in SCRIPT_SUFFIXES and p.is_file()):
                try:
                    if is_script(load_yaml(candidate).data):
                        found.append(candidate)
                except HappyError:
                    continue  # not a readable YAML file: not a scripted game of this folder
        elif path.is_file():
            found.append(path)
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "no such file or folder", "F001"))
    return found, problems


def run_script(path: Path, env: Environment) -> ScriptResult:
    start = time.perf_counter()
    result = ScriptResult(path)
    try:
        result.problems = replay(path, env).mismatches
    except StoppedScript as exc:  # the checks that failed before an illegal step, then the step
        *failed, result.error = exc.diagnostics
        result.problems = [diagnostic.message for diagnostic in failed]
    except HappyError as exc:
        result.error = exc.diagnostics[0]
    result.seconds = time.perf_counter() - start
    return result


def run_scripts(files: list[Path], env: Environment) -> list[ScriptResult]:
    return [run_script(path, env) for path in files]


def junit_xml(results: list[ScriptResult], seconds: float) -> str:
    """The results as JUnit XML, the format CI services read."""
    failures = sum(1 for r in results if r.problems and r.error is None)
    errors = sum(1 for r in results if r.error is not None)
    suite = ElementTree.Element("testsuite", name="happydayz scripted games", tests=str(len(results)),
                                failures=str(failures), errors=str(errors), time=f"{seconds:.3f}")
    for result in results:
        case = ElementTree.SubElement(suite, "testcase", classname=result.path.parent.as_posix() or ".",
                                      name=result.path.name, file=str(result.path), time=f"{result.seconds:.4f}")
        if result.error is not None:
            element = ElementTree.SubElement(case, "error", message=result.error.message)
            element.text = "\n".join(result.problems + [result.error.render()])
        elif result.problems:
            element = ElementTree.SubElement(case, "failure", message=result.problems[0])
            element.text = "\n".join(result.problems)
    ElementTree.indent(suite)
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


__all__ = ["ScriptResult", "find_scripts", "run_script", "run_scripts", "junit_xml"]
