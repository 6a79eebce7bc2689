"""Layer 2: the rules as data (rule sets, paytables, their kernel arrays and named layouts).

Imports only :mod:`ricochet_math.evaluator` and the foundation modules.  The rule-set
objects and their loading are re-exported here; the kernel arrays
(:mod:`ricochet_math.rules.arrays`) and layouts (:mod:`ricochet_math.rules.layout`)
are imported from their modules.
"""
from ricochet_math.rules.files import DEFAULT_RULES, paytables_dir, resolve_rules_path, shipped_rule_sets
from ricochet_math.rules.ruleset import (
    CATEGORY_PATTERNS, COMPARISON_CHOICES, MAX_PLAYERS, SPLIT_CHOICES, KickoutTable, PayLine, Paytable,
    QuickdrawRules, RuleOptions, RuleSet, load_rules, rules_from_toml,
)
from ricochet_math.rules.toml_writer import paytable_line, toml_key, toml_value

__all__ = [
    "DEFAULT_RULES", "MAX_PLAYERS", "CATEGORY_PATTERNS", "SPLIT_CHOICES", "COMPARISON_CHOICES",
    "PayLine", "Paytable", "KickoutTable", "QuickdrawRules", "RuleOptions", "RuleSet",
    "load_rules", "rules_from_toml", "paytables_dir", "shipped_rule_sets", "resolve_rules_path",
    "toml_key", "toml_value", "paytable_line",
]
