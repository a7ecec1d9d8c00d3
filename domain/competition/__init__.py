"""A competition from its Regulations to its winner: registration, the seat draw, levels, the chip race,
eliminations and placings, hand-for-hand, the final table, the Olympic format (bfsp 2–3, 5.1–5.3, 5.10)."""
