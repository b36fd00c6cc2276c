"""The hardening tests' pytest set-up: the slow marker (also in pyproject.toml, registered here for a run of
this folder alone). Their helpers are in support.py."""


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a test of a minute or more (deselect with -m 'not slow')")
