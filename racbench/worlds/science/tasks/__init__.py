"""Task families, one module each, with their oracle solvers beside them."""
