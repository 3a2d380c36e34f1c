"""What a battle looks like to its readers, computed without pygame: names and side views."""
