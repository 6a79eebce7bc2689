"""Layer 5: analyses built on the engines: the Monte Carlo driver and its statistics, control
variates, the exact solo analysis, the nested exact references and advice."""
