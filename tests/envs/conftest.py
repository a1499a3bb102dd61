import warnings

import pytest


@pytest.fixture
def strict_warnings():
    """check_env and the passive checker report problems as warnings: make them fail."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield
