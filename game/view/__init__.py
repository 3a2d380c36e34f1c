"""What a battle looks like to its readers, computed without pygame: the names of sides and
formations, what each side sees (side views, the witness rule, the threat), how a battle ended
and what it cost each side. Each module answers one question the screens ask, so the battle,
the replay viewer, the hotseat report and the result screen share one answer."""
