"""PokerStars text hand histories as the site writes them, for the reader's, the format door's and the CLI's
tests: a raise war with rake, an all-in with a side pot, a split pot, a pot-limit Omaha tournament hand with
antes, and a limit hand whose big blind is cut short by an all-in."""

RAISE_WAR = """\
PokerStars Hand #208912340001: Hold'em No Limit ($0.05/$0.10 USD) - 2020/01/01 12:00:00 ET
Table 'Aase III' 6-max Seat #3 is the button
Seat 1: alpha ($10 in chips)
Seat 2: bravo ($7.45 in chips)
Seat 3: charlie ($10.20 in chips)
Seat 4: delta ($3 in chips)
Seat 5: echo ($12.10 in chips) is sitting out
Seat 6: foxtrot ($10 in chips)
delta: posts small blind $0.05
foxtrot: posts big blind $0.10
*** HOLE CARDS ***
Dealt to alpha [Ah Kd]
alpha: raises $0.20 to $0.30
bravo: folds
charlie: calls $0.30
delta: folds
foxtrot: folds
*** FLOP *** [2c 7d Js]
alpha: bets $0.50
charlie: raises $1 to $1.50
alpha: calls $1
*** TURN *** [2c 7d Js] [Qh]
alpha: checks
charlie: bets $2
alpha: folds
Uncalled bet ($2) returned to charlie
charlie collected $3.65 from pot
charlie: doesn't show hand
*** SUMMARY ***
Total pot $3.75 | Rake $0.10
Board [2c 7d Js Qh]
Seat 1: alpha folded on the Turn
Seat 2: bravo folded before Flop (didn't bet)
Seat 3: charlie (button) collected ($3.65)
Seat 4: delta (small blind) folded before Flop
Seat 6: foxtrot (big blind) folded before Flop
"""

SIDE_POT = """\
PokerStars Hand #208912340002: Hold'em No Limit ($0.05/$0.10 USD) - 2020/01/01 12:01:10 ET
Table 'Aase III' 6-max Seat #4 is the button
Seat 1: alpha ($9.35 in chips)
Seat 2: bravo ($7.45 in chips)
Seat 3: charlie ($11.85 in chips)
Seat 4: delta ($2.95 in chips)
Seat 6: foxtrot ($9.90 in chips)
foxtrot: posts small blind $0.05
alpha: posts big blind $0.10
*** HOLE CARDS ***
Dealt to alpha [9c 9d]
bravo: raises $0.20 to $0.30
charlie: folds
delta: raises $2.65 to $2.95 and is all-in
foxtrot: folds
alpha: raises $6.40 to $9.35 and is all-in
bravo: calls $7.15 and is all-in
Uncalled bet ($1.90) returned to alpha
delta: shows [Ah Qh]
bravo: shows [Kc Ks]
alpha: shows [9c 9d]
*** FLOP *** [2h 7h Jc]
*** TURN *** [2h 7h Jc] [3s]
*** RIVER *** [2h 7h Jc 3s] [Th]
*** SHOW DOWN ***
bravo collected $9 from side pot
delta collected $8.90 from main pot
*** SUMMARY ***
Total pot $17.90 Main pot $8.90. Side pot $9. | Rake $0
Board [2h 7h Jc 3s Th]
Seat 1: alpha (big blind) showed [9c 9d] and lost with a pair of Nines
Seat 2: bravo showed [Kc Ks] and won ($9) with a pair of Kings
Seat 4: delta (button) showed [Ah Qh] and won ($8.90) with a flush, Ace high
"""

SPLIT_POT = """\
PokerStars Hand #208912340003: Hold'em No Limit ($0.05/$0.10 USD) - 2020/01/01 12:02:30 ET
Table 'Aase III' 6-max Seat #6 is the button
Seat 1: alpha ($1.90 in chips)
Seat 3: charlie ($11.85 in chips)
Seat 6: foxtrot ($9.85 in chips)
alpha: posts small blind $0.05
charlie: posts big blind $0.10
*** HOLE CARDS ***
Dealt to alpha [Ad Tc]
foxtrot: raises $0.15 to $0.25
alpha: calls $0.20
charlie: folds
*** FLOP *** [As 8h 4c]
alpha: checks
foxtrot: bets $0.40
alpha: calls $0.40
*** TURN *** [As 8h 4c] [Kd]
alpha: checks
foxtrot: checks
*** RIVER *** [As 8h 4c Kd] [2s]
alpha: bets $0.60
foxtrot: calls $0.60
*** SHOW DOWN ***
alpha: shows [Ad Tc] (a pair of Aces)
foxtrot: shows [Ac Th] (a pair of Aces)
alpha collected $1.30 from pot
foxtrot collected $1.30 from pot
*** SUMMARY ***
Total pot $2.60 | Rake $0
Board [As 8h 4c Kd 2s]
"""

OMAHA_TOURNAMENT = """\
PokerStars Hand #208912340104: Tournament #3001234567, $10+$1 USD Omaha Pot Limit - Level III (25/50) - 2020/01/01 13:00:00 ET
Table '3001234567 1' 9-max Seat #2 is the button
Seat 1: alpha (1500 in chips)
Seat 2: bravo (2000 in chips)
Seat 4: delta (1200 in chips)
alpha: posts the ante 5
bravo: posts the ante 5
delta: posts the ante 5
delta: posts small blind 25
alpha: posts big blind 50
*** HOLE CARDS ***
Dealt to alpha [Ah As Kd Qc]
bravo: raises 125 to 175
delta: folds
alpha: calls 125
*** FLOP *** [2c 7s Jd]
alpha: checks
bravo: bets 365
alpha: folds
Uncalled bet (365) returned to bravo
bravo collected 390 from pot
bravo: doesn't show hand
*** SUMMARY ***
Total pot 390 | Rake 0
Board [2c 7s Jd]
"""

SHORT_BLIND_LIMIT = """\
PokerStars Hand #208912340200: Hold'em Limit ($0.10/$0.20 USD) - 2020/01/01 14:00:00 ET
Table 'Ariadne' 9-max Seat #1 is the button
Seat 1: alpha ($4 in chips)
Seat 2: bravo ($2 in chips)
Seat 3: charlie ($0.08 in chips)
bravo: posts small blind $0.05
charlie: posts big blind $0.08 and is all-in
*** HOLE CARDS ***
Dealt to alpha [Qs Qh]
alpha: raises $0.10 to $0.20
bravo: calls $0.15
*** FLOP *** [2c 7d Js]
bravo: checks
alpha: bets $0.10
bravo: calls $0.10
*** TURN *** [2c 7d Js] [Kh]
bravo: checks
alpha: bets $0.20
bravo: folds
Uncalled bet ($0.20) returned to alpha
*** RIVER *** [2c 7d Js Kh] [3d]
*** SHOW DOWN ***
charlie: shows [Ah Kd] (a pair of Kings)
alpha: shows [Qs Qh] (a pair of Queens)
charlie collected $0.24 from pot
alpha collected $0.44 from side pot
*** SUMMARY ***
Total pot $0.68 Main pot $0.24. Side pot $0.44. | Rake $0
"""

#: every hand above by what it shows, for tests that read each one
EVERY_HAND = {
    "raise war": RAISE_WAR,
    "side pot": SIDE_POT,
    "split pot": SPLIT_POT,
    "omaha tournament": OMAHA_TOURNAMENT,
    "short blind limit": SHORT_BLIND_LIMIT,
}
