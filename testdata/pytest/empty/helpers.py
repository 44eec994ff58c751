"""Not a test module: pytest collects nothing here (exit code 5)."""


def helper():
    return 42
