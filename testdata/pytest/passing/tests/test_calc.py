import pytest

from calc import add


def test_add():
    assert add(2, 3) == 5


class TestAdd:
    def test_negative(self):
        assert add(-1, -1) == -2


@pytest.mark.skip(reason="shows a skipped case")
def test_skipped():
    assert False
