"""Suites of tasks, shipped as data with their loaders (``egoeval.tasks.egobench``)."""
