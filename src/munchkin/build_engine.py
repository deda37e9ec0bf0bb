"""Build the compiled engine (issue 15): the same engine source, compiled with mypyc.

    .venv/bin/pip install -e '.[compile]'   # mypyc; a C compiler and Python's headers too
    .venv/bin/munchkin build-engine          # or: .venv/bin/python -m munchkin.build_engine

The engine's modules (all but `munchkin.engine.PURE_MODULES`) are copied into a package of
their own, `munchkin._cengine`, with their imports of each other rewritten to it, and
compiled in a temporary directory. The extension modules then go into `munchkin/_cengine/`
beside the installed package (in the source tree for an editable install; never
committed), with the digest of the sources they were built from, written last.
`munchkin.engine` uses them from then on, as long as those sources are unchanged
(`MUNCHKIN_ENGINE` chooses otherwise). `--clean` removes the build.

When numpy is installed, the RL environment's encoders (`munchkin.compiled_rl.RL_MODULES`)
are compiled in the same library as `munchkin._cengine.rl`, their imports of the engine and
of each other rewritten the same way, with their own digest (`RL_SOURCE`): `munchkin.rl`
uses them with the compiled engine while their sources are unchanged (issue 17, item 4).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import munchkin
from munchkin import compiled_rl, engine

PACKAGE_DIR = Path(munchkin.__file__).parent
ENGINE_DIR = PACKAGE_DIR / "engine"
TARGET = PACKAGE_DIR / engine.COMPILED_PACKAGE.rpartition(".")[2]
GROUP = f"{engine.COMPILED_PACKAGE}.lib"
"""The name of the one shared library that holds every compiled module."""
IMPORTS = re.compile(r"\bmunchkin\.engine\b(?!\.(?:{})\b)".format("|".join(sorted(engine.PURE_MODULES))))
"""Imports of compiled modules, rewritten to the compiled package; the pure ones are kept."""
RL_IMPORTS = re.compile(r"\bmunchkin\.rl\.({})\b".format("|".join(compiled_rl.RL_MODULES)))
"""Imports of the RL modules compiled too, rewritten to the compiled package."""
HEADER = '"""The compiled engine, built by `munchkin build-engine`: do not edit."""\n\n'
SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

split = sys.argv.index("--")
paths, sys.argv = sys.argv[1:split], [sys.argv[0], *sys.argv[split + 1 :]]
setup(
    name="munchkin-cengine",
    packages=[],
    ext_modules=mypycify(["--config-file", "mypy.ini", *paths], group_name={group!r}, opt_level="3"),
)
"""
MYPY_INI = "[mypy]\npython_version = {version}\nplugins = pydantic.mypy\n"


def _sources(directory: str, names: list[str]) -> set[str]:
    """What `copytree` leaves out: everything but Python sources, and any earlier build."""
    return {
        name
        for name in names
        if name in ("__pycache__", TARGET.name)
        or (not name.endswith((".py", ".pyi", "py.typed")) and not Path(directory, name).is_dir())
    }


def with_rl() -> bool:
    """Whether the RL modules are compiled too: when numpy, which they import, is installed."""
    return importlib.util.find_spec("numpy") is not None


def generate(root: Path) -> tuple[list[str], str, str]:
    """munchkin's sources under `root` (so that mypy resolves every import), the engine's
    compiled modules as `munchkin._cengine` (and the RL modules of `compiled_rl` as
    `munchkin._cengine.rl`, when `with_rl()`); the paths to compile and both sources'
    digests (the RL one empty without them)."""
    digest = engine.source_hash()
    rl_digest = compiled_rl.rl_source_hash() if with_rl() else ""
    shutil.copytree(PACKAGE_DIR, root / "munchkin", ignore=_sources)
    out = root / "munchkin" / TARGET.name
    for package in ("rules", "rl"):
        (out / package).mkdir(parents=True)
    for init in (out / "__init__.py", out / "rules" / "__init__.py", out / "rl" / "__init__.py"):
        init.write_text("", encoding="utf-8")
    sources = [(ENGINE_DIR / (name.replace(".", "/") + ".py"), name) for name in engine.compiled_modules()]
    if rl_digest:
        sources += [(compiled_rl.RL_DIR / f"{name}.py", f"rl.{name}") for name in compiled_rl.RL_MODULES]
    paths = []
    for source, name in sources:
        relative = name.replace(".", "/") + ".py"
        text = IMPORTS.sub(engine.COMPILED_PACKAGE, source.read_text(encoding="utf-8"))
        text = RL_IMPORTS.sub(rf"{compiled_rl.COMPILED_RL}.\1", text)
        (out / relative).write_text(text, encoding="utf-8")
        paths.append(f"munchkin/{TARGET.name}/{relative}")
    if engine.source_hash() != digest or (rl_digest and compiled_rl.rl_source_hash() != rl_digest):
        raise SystemExit("error: the engine's sources changed during the build: build again")
    return paths, digest, rl_digest


def compile_modules(root: Path, paths: list[str], verbose: bool) -> None:
    """mypyc and the C compiler, in `root`; the extension modules land beside the sources."""
    (root / "setup_cengine.py").write_text(SETUP.format(group=GROUP), encoding="utf-8")
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    (root / "mypy.ini").write_text(MYPY_INI.format(version=version), encoding="utf-8")
    command = [sys.executable, "setup_cengine.py", *paths, "--", "build_ext", "--inplace"]
    done = subprocess.run(command, cwd=root, capture_output=not verbose, text=True, check=False)
    if done.returncode != 0:
        if not verbose:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-8000:])
        raise SystemExit(f"error: compiling the engine failed (exit {done.returncode})")


def _extensions(directory: Path) -> list[Path]:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(path for path in directory.rglob("*") if path.name.endswith(suffixes))


def install(built: Path, digest: str, rl_digest: str) -> int:
    """Put the extension modules in TARGET; the digests last, so that a process starting
    meanwhile uses the pure engine. Returns how many modules were installed."""
    for package in ("rules", "rl"):
        (TARGET / package).mkdir(parents=True, exist_ok=True)
    marker = TARGET / "__init__.py"
    marker.write_text(HEADER + 'SOURCE = ""\n', encoding="utf-8")
    new = set()
    for path in _extensions(built):
        dest = TARGET / path.relative_to(built)
        partial = dest.with_name(dest.name + ".partial")
        shutil.copyfile(path, partial)
        os.replace(partial, dest)  # a process that has the old one loaded keeps it
        new.add(dest)
    for old in _extensions(TARGET):
        if old not in new:
            old.unlink()
    for package in ("rules", "rl"):
        (TARGET / package / "__init__.py").write_text("", encoding="utf-8")
    marker.write_text(HEADER + f'SOURCE = "{digest}"\nRL_SOURCE = "{rl_digest}"\n', encoding="utf-8")
    return len(new)


def check() -> str:
    """The compiled engine as a new process loads it, or SystemExit."""
    probe = "import munchkin.engine as e; print(e.ENGINE_NOTE)"
    env = {**os.environ, "MUNCHKIN_ENGINE": "compiled"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the compiled engine does not load:\n{done.stderr[-2000:]}")
    return done.stdout.strip()


def clean() -> None:
    if TARGET.exists():
        shutil.rmtree(TARGET)
    print(f"removed {TARGET}: the pure engine runs")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m munchkin.build_engine", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--clean", action="store_true", help="remove the compiled engine")
    parser.add_argument("--verbose", action="store_true", help="show mypyc's and the compiler's output")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="build in DIR and keep the C sources there")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
        return
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise SystemExit("error: mypyc is not installed: pip install -e '.[compile]'") from None
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="munchkin-cengine-") as tmp:
        root = Path(tmp) if args.keep is None else args.keep.resolve()
        if args.keep is not None and root.exists():
            shutil.rmtree(root)
        paths, digest, rl_digest = generate(root)
        compile_modules(root, paths, args.verbose)
        count = install(root / "munchkin" / TARGET.name, digest, rl_digest)
    note = check()
    print(f"compiled {len(paths)} modules, the engine's and the RL encoders' ({count} extension modules)")
    print(f"in {TARGET}")
    print(f"in {time.perf_counter() - start:.0f} s; the compiled engine runs by default ({note})")


if __name__ == "__main__":
    main()
