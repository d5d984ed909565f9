"""A suite's self-test (``egoeval validate``): what each suite checks is its own
(``Suite.validate``); for suites scored from calls it is the oracle, the null agent and
the ground-truth defects of :mod:`egoeval.verifiers.validation`."""

from __future__ import annotations

from typing import Any


def validate(profile: str | None = None, suite_name: str = "egobench") -> Any:
    """Self-test suite ``suite_name`` under its profile called ``profile`` (None: its
    default). The report has ``ok``, ``to_dict()`` and ``lines()``."""
    from egoeval.suites import get_suite

    suite = get_suite(suite_name)
    return suite.validate(suite.profile(profile))
