"""citewise."""
