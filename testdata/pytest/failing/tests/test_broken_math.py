def double(x):
    return x * 3


def test_double_passes_for_zero():
    assert double(0) == 0


def test_double():
    assert double(2) == 4
