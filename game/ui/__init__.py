"""The screen: pygame-ce drawing and pygame_gui widgets. A client of the engine, nothing more."""
