"""The mods folder: the only place the web table reads or writes a user's files.

Every path a request names is relative to the folder; it is refused when it
is absolute, climbs out (`..`), or leads out through a symbolic link. Only
power files, box and scenario files and save files are read or written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from happydayz.base.files import write_atomic

#: What may be read and written: power files, box or scenario files, save files.
SUFFIXES = (".power", ".yaml", ".yml", ".json")
EDITABLE = (".power", ".yaml", ".yml")
MAX_BYTES = 1024 * 1024
#: The longest path a request may name, and the longest name in it (the system's own limits are 4096 and 255).
MAX_PATH = 1024
MAX_NAME = 255
SAVES = "saves"


class ModsError(Exception):
    """A request for a file that is refused (status 400 or 403) or missing (404)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class ModsFolder:
    root: Path

    @classmethod
    def at(cls, folder: str | os.PathLike) -> "ModsFolder":
        root = Path(folder).expanduser().resolve()
        root.mkdir(parents=True, exist_ok=True)
        return cls(root)

    def resolve(self, relative: str, suffixes: tuple[str, ...] = SUFFIXES) -> Path:
        """The file `relative` names inside the folder. Raises ModsError (403) for anything that leads out."""
        if not isinstance(relative, str) or not relative.strip() or "\x00" in relative:
            raise ModsError(400, "a file path inside the mods folder is needed")
        if PurePosixPath(relative).is_absolute() or PureWindowsPath(relative).is_absolute() or \
                PureWindowsPath(relative).drive:
            raise ModsError(403, "only paths relative to the mods folder are allowed")
        parts = PurePosixPath(relative.replace("\\", "/")).parts
        if any(part == ".." for part in parts):
            raise ModsError(403, "a path may not climb out of the mods folder ('..')")
        if len(relative.encode("utf-8", "surrogatepass")) > MAX_PATH or \
                any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME for part in parts):
            raise ModsError(400, f"a path of the mods folder has at most {MAX_PATH} bytes, each name {MAX_NAME}")
        try:
            path = (self.root / Path(*parts)).resolve()
        except (OSError, RuntimeError):  # a loop of links
            raise ModsError(403, "the path leads nowhere inside the mods folder") from None
        if path != self.root and self.root not in path.parents:
            raise ModsError(403, "the path leads out of the mods folder")
        if path.suffix.lower() not in suffixes:
            raise ModsError(403, f"only {', '.join(suffixes)} files can be used here")
        return path

    def relative(self, path: Path) -> str:
        return path.resolve().relative_to(self.root).as_posix()

    def files(self, suffixes: tuple[str, ...] = SUFFIXES) -> list[dict]:
        """The files of the folder (no hidden ones, no link leading out), sorted by path."""
        found = []
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if name.startswith(".") or Path(name).suffix.lower() not in suffixes:
                    continue
                path = Path(folder) / name
                try:
                    resolved = path.resolve()
                    if self.root not in resolved.parents:
                        continue
                    size = resolved.stat().st_size
                except OSError:
                    continue
                found.append({"path": path.relative_to(self.root).as_posix(), "size": size,
                              "kind": Path(name).suffix.lower().lstrip(".")})
        return found

    def read(self, relative: str, suffixes: tuple[str, ...] = SUFFIXES) -> str:
        path = self.resolve(relative, suffixes)
        if not path.is_file():
            raise ModsError(404, f"no file {relative!r} in the mods folder")
        if path.stat().st_size > MAX_BYTES:
            raise ModsError(400, f"the file is larger than {MAX_BYTES} bytes")
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ModsError(400, "the file is not UTF-8 text") from None

    def write(self, relative: str, text: str, suffixes: tuple[str, ...] = EDITABLE) -> Path:
        """Write a file (atomically), making its folders inside the mods folder."""
        if not isinstance(text, str):
            raise ModsError(400, "the file's text must be a string")
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise ModsError(400, f"the file is larger than {MAX_BYTES} bytes")
        path = self.resolve(relative, suffixes)
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.root not in path.parent.resolve().parents and path.parent.resolve() != self.root:
            raise ModsError(403, "the path leads out of the mods folder")
        write_atomic(path, text, what="file")  # beside it, then renamed: never through a link, never torn
        return path

    def save_path(self, name: str) -> Path:
        """The save file named `name` (letters, digits, - and _) in the saves folder."""
        stem = name[:-5] if isinstance(name, str) and name.endswith(".json") else name
        if not isinstance(stem, str) or not stem or len(stem) > 80 or \
                not all(c.isalnum() or c in "-_" for c in stem):
            raise ModsError(400, "a save's name is made of letters, digits, - and _ (at most 80)")
        return self.resolve(f"{SAVES}/{stem}.json", (".json",))

    def saves(self) -> list[dict]:
        folder = self.root / SAVES
        if not folder.is_dir():
            return []
        return [{"name": f["path"].rpartition("/")[2][:-5], "path": f["path"]}
                for f in self.files((".json",)) if f["path"].startswith(SAVES + "/")]


__all__ = ["ModsFolder", "ModsError", "SUFFIXES", "EDITABLE", "SAVES"]
