"""Benchmarks: AI turn times and win rates, each reported against a baseline timed in the same run."""
