"""Placeholder: being written."""
NAME = "multiwoz"


def sniff(path):
    return False


def read(path, kb=None):
    return iter(())
