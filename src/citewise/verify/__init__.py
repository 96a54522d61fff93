"""Verification: claims, their support, conflicts, the claim ledger and acceptance."""
