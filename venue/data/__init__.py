"""Package data: shipped with the package (see pyproject's package-data)."""
