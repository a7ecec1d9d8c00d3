"""The write path's handlers: one module per family of acts, each judging one record the referee hands it.

=====================  ==================================================================================
hands.py               a hand's events: the game as dealt and the officials' acts at a hand
ofc_rounds.py          Open-Face Chinese rounds (bfsp 8)
competition.py         the competition and its floor: Regulations, registrations, draws, levels, moves,
                       eliminations, hand-for-hand, deals
discipline.py          officials and discipline: appointments, the tokens' deny list, violations,
                       penalties, season disqualifications
protests.py            challenges of a hand's result and protests
rulings.py             rulings on a hand and inspections of mucked cards
protocol.py            the protocol's signatures
final.py               the competition's end, its final protocol and the result documents; the gate that
                       closes the record once the Chief Judge has signed the final protocol
integrity.py           integrity cases: opened, noted, concluded, reported to the Chief Judge
desk.py                what the federation's handlers are given: each aggregate by its natural key, and the
                       checks every record passes (roles, appointments)
=====================  ==================================================================================

A handler loads the aggregate(s) a record belongs to by natural key, then accepts the record into them or
rejects it with the rule the domain (domain/) raised; it is given the referee as a
:class:`ingest.judgement.Bench` (the store, the hot aggregates, one way to reject), never the referee's own
state. The rules themselves live in domain/: a handler orchestrates, the domain decides.
"""
