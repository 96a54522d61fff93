"""The research loop: plan, collect, review coverage, follow up within budgets, report."""
