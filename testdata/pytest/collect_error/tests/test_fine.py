def test_fine():
    assert True
