"""What the screens show, derived from the state and the scenario: pure, no pygame, no files.

Each module answers one question a screen asks (how a battle ended, what it cost each side), so
the result screen, the replay viewer and the command line can share one answer.
"""
