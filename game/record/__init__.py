"""Game records: the action log with checkpoints, saving and loading, verification."""
