import gc
import warnings

import pytest


@pytest.fixture
def strict_warnings():
    """check_env and the passive checker report problems as warnings: make them fail.

    Garbage an earlier test on the same worker left (a library's unclosed pipe or temporary
    folder) is collected first, under the usual filters: its ResourceWarnings are not this
    test's, and turned into errors here they failed an unrelated test in CI."""
    gc.collect()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield
