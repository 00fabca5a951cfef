"""Placeholder: being written."""
NAME = "multiwoz22"


def sniff(path):
    return False


def read(path, kb=None):
    return iter(())
