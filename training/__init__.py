"""Training-only code for the photo reader (not installed with printgen)."""
