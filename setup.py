"""Only the build folders: the project is described in pyproject.toml.

setuptools builds in the source tree (build/, happydayz.egg-info/), so two
`pip install .` of one checkout at once broke each other's files there. Each
build gets folders of its own, in the system's temporary folder, removed when
the build ends.
"""

import atexit
import shutil
import tempfile

from setuptools import setup

_own = tempfile.mkdtemp(prefix="happydayz-build-")
atexit.register(shutil.rmtree, _own, True)
setup(options={"build": {"build_base": f"{_own}/build"}, "egg_info": {"egg_base": _own}})
