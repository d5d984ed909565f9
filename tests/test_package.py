"""Packaging: one import namespace, the suite's data and licence shipped inside."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                    str(REPO)], check=True, capture_output=True)
    return zipfile.ZipFile(next(out.glob("egoeval-*.whl")))


def test_everything_installs_under_the_egoeval_namespace(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert tops == {"egoeval", next(t for t in tops if t.endswith(".dist-info"))}


def test_layers_and_suite_data_are_in_the_wheel(wheel):
    names = set(wheel.namelist())
    for module in ("egoeval/cli.py", "egoeval/tools/egobench/retail.py", "egoeval/verifiers/process.py",
                   "egoeval/tasks/egobench/__init__.py", "egoeval/media/__init__.py", "egoeval/renderers/__init__.py"):
        assert module in names
    data = [n for n in names if n.startswith("egoeval/tasks/egobench/data/")]
    assert sum(n.startswith("egoeval/tasks/egobench/data/tasks/") for n in data) == 21
    assert sum(n.startswith("egoeval/tasks/egobench/data/databases/") for n in data) == 14
    assert "egoeval/tasks/egobench/NOTICE.md" in names
    assert "CC BY 4.0" in wheel.read("egoeval/tasks/egobench/NOTICE.md").decode()
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "egoeval = egoeval.cli:main" in wheel.read(entry_points).decode()


def test_suite_data_is_read_from_the_package_not_from_shared():
    from egoeval.tasks import egobench as suite

    assert suite.DATA.is_relative_to(REPO / "tasks")
    assert len(suite.load_tasks()) == 1044
