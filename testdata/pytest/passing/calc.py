"""A tiny module for the passing sample suite."""


def add(a, b):
    return a + b
