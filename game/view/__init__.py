"""One side's perspective on the battle, for screens, logs and reports: what it sees, the state
as it knows it, what happened within its sight, where its enemies in sight could strike, and
what it may read about a formation. Pure like game.core (no pygame), whose rules it asks."""
