"""Layer 7: reports: the certification-style report and the published-figures comparison."""
