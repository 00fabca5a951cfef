"""Experiments of the paper (§4–5): KB sampling, runs, tables and plots."""
