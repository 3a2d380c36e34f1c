"""The rules of the game: pure Python, no pygame and no I/O."""
