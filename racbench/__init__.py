"""racbench: offline text benchmarks about actions and change."""

__version__ = "0.1.0"
