"""Computer players. They act only through engine actions, like a human."""
