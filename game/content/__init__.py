"""Loading and validating data: unit types, heroes, factions, terrain, scenarios and maps."""
