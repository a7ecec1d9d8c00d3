"""The protocol printed: a plain HTML page (escaped, with print CSS) and an A4 PDF (fpdf2), from its JSON.

Both show the same sections in the same order, as tables of rows; what a section holds comes from
:func:`sections`, so the two forms cannot drift apart. Hands are named once (their row's anchor in the page,
and a link to their history in the API); every other section that names a hand links to that row. The
rejections come last, in an annex of their own. A cell too long for one printed page is carried on over
continuation rows, so a 1,000-player seat draw prints as it is.

Every print says what it is (:func:`stamp`): the live protocol is marked as unsigned (it changes as the
competition goes on); a snapshot is printed with its number, its SHA-256, its chain head, who took it and who
signed it, and when — what a reviewer checks a printed copy against.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.fonts import CoreFont

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    #: where the cell links to in the HTML page ("" for none): a hand's row, or its history
    href: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    header: tuple[str, ...]
    rows: list[tuple[Cell, ...]]
    #: each column's share of the printed width
    widths: tuple[int, ...]
    #: each row's anchor in the HTML page ("" for none)
    anchors: tuple[str, ...] = ()
    #: printed after the protocol proper, as an annex
    annex: bool = False


Getter = Callable[[JSON], Any]
#: a column: its heading, its value, its share of the width, and (optionally) where its cell links to
Column = tuple[str, Getter, int] | tuple[str, Getter, int, Callable[[JSON], str]]


def _who(value: Any) -> str:
    if isinstance(value, dict):
        person, role = value.get("person", ""), str(value.get("role", "")).replace("_", " ")
        return f"{person} ({role})" if role else str(person)
    return str(value or "")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) if not isinstance(v, dict | list) else json.dumps(v, ensure_ascii=False)
                         for v in value)
    return str(value)


def _amount(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else _text(value)


def anchor(hand: str) -> str:
    """The HTML id of a hand's row: ``"T1/3"`` → ``"hand-T1-3"``."""
    return "hand-" + re.sub(r"[^A-Za-z0-9_-]+", "-", hand)


def failing(protocol: JSON) -> list[str]:
    """The breaks the protocol's verification found (none when its streams verify)."""
    verification = protocol.get("verification") or {}
    return [] if verification.get("ok", True) else list(verification.get("breaks") or ["verification failed"])


def _covers(signature: JSON) -> str:
    if signature.get("covers_this_document", True):
        return "yes"
    return "NO: the store fails verification"


def warning(protocol: JSON) -> str:
    """The line printed above a protocol whose streams fail verification ("" when they verify)."""
    breaks = failing(protocol)
    if not breaks:
        return ""
    return (f"FAILS VERIFICATION: {len(breaks)} break{'s' if len(breaks) > 1 else ''} in the stored events this "
            "protocol is read from; it is not the record, and no signature covers it")


def stamp(snapshot: JSON | None) -> list[str]:
    """What a print says it is, line by line: for the live protocol (``None``) that it is unsigned; for a
    snapshot (the API's JSON of one: name, sha256, chain_head, taken_by, taken_at, signatures, verification)
    its identity and every signature on it."""
    if snapshot is None:
        return ["LIVE PROTOCOL - NOT SIGNED: it changes as the competition goes on. The signed record is a "
                "snapshot (pokeraudit snapshot list; /protocol/snapshots)."]
    lines = [
        ("FINAL PROTOCOL, compiled by the Secretary after the competition's end (bfsp 2.3.3): " if snapshot.get("final")
         else "") + f"Snapshot {snapshot['name']} (version {snapshot['version']}), taken by {snapshot['taken_by']} at "
        f"{snapshot['taken_at']}",
        f"SHA-256 of its text: {snapshot['sha256']}",
        f"Chain head of the {snapshot.get('streams', len(snapshot.get('heads', {})))} streams it covers: "
        f"{snapshot['chain_head']}",
    ]
    signatures = snapshot.get("signatures") or []
    if not signatures:
        lines.append("NOT SIGNED: no official has signed this snapshot")
    for s in signatures:
        lines.append(f"Signed by {s['person']} ({_text(s['role']).replace('_', ' ')}) at {s['at']}, on SHA-256 {s['sha256']}")
    verification = snapshot.get("verification")
    if verification is not None:
        lines.append("Verified against the store: " + (
            "it holds" + (f" ({verification['note']})" if verification.get("note") else "")
            if verification.get("ok") else f"IT DOES NOT HOLD: {verification.get('difference', '')}"
        ))
    return lines


# --- the sections ----------------------------------------------------------------------------------------------


def _table(title: str, items: Sequence[JSON], columns: Sequence[Column], anchor_of: Getter | None = None,
           annex: bool = False) -> Section:
    rows = []
    for item in items:
        cells = []
        for column in columns:
            text = _text(column[1](item))
            href = column[3](item) if len(column) > 3 else ""
            cells.append(Cell(text, href if text else ""))
        rows.append(tuple(cells))
    anchors = tuple(anchor_of(item) for item in items) if anchor_of else ()
    return Section(title, tuple(c[0] for c in columns), rows, tuple(c[2] for c in columns), anchors, annex)


def _fields(title: str, pairs: Sequence[tuple[str, Any]]) -> Section:
    rows: list[tuple[Cell, ...]] = [(Cell(name), Cell(_text(value))) for name, value in pairs]
    return Section(title, ("", ""), rows, (1, 3))


def _hand_links(protocol: JSON) -> Callable[[Any], str]:
    """A hand named as the records name it (``T1/3``) or by its stream id → the link to its row ("" when the
    protocol lists no such hand)."""
    known: dict[str, str] = {}
    for h in protocol.get("hands", []):
        name = h.get("name") or f"{h['table']}/{h['number']}"
        known[name] = known[str(h["hand"])] = "#" + anchor(name)
    return lambda hand: known.get(str(hand or ""), "")


def _hand_name(protocol: JSON) -> Callable[[Any], str]:
    names = {str(h["hand"]): h.get("name") or f"{h['table']}/{h['number']}" for h in protocol.get("hands", [])}
    return lambda hand: names.get(str(hand or ""), str(hand or ""))


def _regulations(regs: JSON, competition: JSON) -> list[Section]:
    re_entry = regs.get("re_entry")
    percent = regs.get("withholding_percent", 0)
    fields = [
        ("title", competition.get("title") or regs.get("title")),
        ("format", regs.get("format")), ("variant", regs.get("variant")), ("betting", regs.get("betting")),
        ("starts on", regs.get("starts_on")),
        ("rulebook", f"{regs.get('rulebook', '')} {regs.get('rulebook_version', '')}".strip()),
        ("starting stack", _amount(regs.get("starting_stack"))),
        ("seats per table", regs.get("max_seats")),
        ("final table", regs.get("final_table") or "the rulebook's for the table size"),
        ("chip denominations", ", ".join(_amount(d) for d in regs.get("denominations", []))),
        ("re-entry", (f"up to {re_entry['max_entries']} entries until level {re_entry['until_level']}, "
                      f"{_amount(re_entry['stack'])} chips each") if re_entry else "none"),
        ("add-on", f"{_amount(regs['add_on'])} chips" if regs.get("add_on") else "none"),
        ("tax withheld from prizes", f"{percent} % of every prize, rounded down (income tax; the federation's FAQ)"),
        ("minimum age", regs.get("min_age")),
    ]
    if regs.get("rounds"):
        fields.append(("OFC rounds per table", regs["rounds"]))
    levels = regs.get("levels", [])
    level_columns: list[Column] = [("level", lambda v: v["number"], 1), ("minutes", lambda v: v["minutes"], 1)]
    for key, heading in (("small_blind", "small blind"), ("big_blind", "big blind"), ("ante", "ante"),
                         ("bring_in", "bring-in"), ("small_bet", "small bet"), ("big_bet", "big bet")):
        if any(v.get(key) for v in levels):
            level_columns.append((heading, lambda v, k=key: _amount(v.get(k, 0)), 1))
    prizes = [{**p, "withheld": p["amount"] * percent // 100} for p in regs.get("prizes", [])]
    return [
        _fields("Regulations", fields),
        _table("Regulations: level schedule", levels, level_columns),
        _table("Regulations: breaks", regs.get("breaks", []),
               (("after level", lambda b: b["after_level"], 1), ("minutes", lambda b: b["minutes"], 1))),
        _table("Regulations: prizes", prizes, (
            ("place", lambda p: p["place"], 1), ("prize", lambda p: _amount(p["amount"]), 1),
            (f"withheld ({percent} %)", lambda p: _amount(p["withheld"]), 1),
            ("paid", lambda p: _amount(p["amount"] - p["withheld"]), 1))),
    ]


def _moves(protocol: JSON) -> list[JSON]:
    """Every player moved, one row each: a balancing move as recorded, and each move of a broken table's draw."""
    out = []
    for act in protocol.get("moves", []):
        if act.get("type") == "PlayerMoved":
            out.append(act)
        elif act.get("type") == "TableBroken":
            out += [{**move, "at": act["at"], "recorded_by": act["recorded_by"], "rule": act.get("rule", "")}
                    for move in act.get("moves", [])]
    return out


def _floor_acts(protocol: JSON) -> list[JSON]:
    out = []
    for act in protocol.get("moves", []):
        if act.get("type") == "PlayerMoved":
            continue
        details = {k: v for k, v in act.items() if k not in ("type", "at", "recorded_by", "rule", "moves")}
        if act.get("type") == "TableBroken":
            details["cards"] = ", ".join(f"{c['participant']} {c['card']}" for c in act.get("cards", []))
            details["players moved"] = len(act.get("moves", []))
        out.append({**act, "details": details})
    return out


def _reawarded(ruling: JSON) -> str:
    parts = []
    for r in ruling.get("reawards", []):
        shares = ", ".join(f"{s.get('player') or 'seat ' + str(s['seat'])} (seat {s['seat']}) {_amount(s['amount'])}"
                           for s in r["shares"])
        parts.append(f"pot {r['pot_index']}{' ' + r['half'] if r.get('half') else ''}: {shares}")
    for key, what in (("dead", "dead"), ("restored", "restored")):
        if ruling.get(key):
            parts.append(f"{what}: {_text(ruling[key])}")
    return "; ".join(parts) or "nothing (a finding of fact)"


def _forwarded(protest: JSON) -> str:
    forwarded = protest.get("forwarded")
    if not forwarded:
        return ""
    return (f"{forwarded['at']} by {_who(forwarded.get('by'))} with snapshot {forwarded['snapshot']} "
            f"(chain head {str(forwarded['chain_head'])[:16]}...; {forwarded.get('rule', '')})")


def _protest_records(protest: JSON) -> list[JSON]:
    """A protest as a record card: one row per item, so its long texts print in full."""
    decision = protest.get("decision") or {}
    contested = protest["contested"]
    items: list[tuple[str, Any]] = [
        ("tier", protest["tier"]),
        ("filer", protest["filer"]),
        ("against", f"{contested['reference']} ({contested['kind'].replace('_', ' ')}, decided by "
                    f"{contested['decided_by'].replace('_', ' ')})"),
        ("grounds", protest["grounds"] if protest.get("grounds") is not None else "withheld: officials only"),
        ("in writing", protest.get("written")),
        ("filed", protest["filed_at"]),
        ("recorded by", _who(protest.get("recorded_by"))),
        ("forwarded", _forwarded(protest) or "not forwarded"),
        ("deadline", protest.get("deadline") or ""),
        ("decision", decision.get("decision", "pending")),
    ]
    if decision:
        items += [
            ("reasons", decision.get("reasons")),
            ("decided by", f"{_who(decision.get('recorded_by'))}, as {decision['decided_by'].replace('_', ' ')}"
                           if decision.get("recorded_by") else decision["decided_by"]),
            ("decided", decision["at"]),
        ]
    items += [("overdue", protest.get("overdue")), ("filer notified", protest.get("filer_notified_at") or "")]
    return [{"protest": protest["protest"], "item": k, "record": v} for k, v in items]


def sections(protocol: JSON) -> list[Section]:
    """Every section of the protocol, in the order they are printed (the annex last)."""
    c = protocol.get("competition", {})
    hand = _hand_links(protocol)
    name = _hand_name(protocol)
    out = [_fields("Competition", [
        (k.replace("_", " "), _who(c.get(k)) if k in ("adopted_by", "closed_by") else c.get(k))
        for k in ("id", "title", "format", "variant", "betting", "starts_on", "rulebook", "rulebook_version",
                  "adopted_at", "adopted_by", "winner", "ended_at", "closed_at", "closed_by")
        if k not in ("closed_at", "closed_by") or c.get(k)
    ])]
    out += _regulations(protocol.get("regulations", {}), c)
    out.append(_table("Officials", protocol.get("officials", []), (
        ("person", lambda i: i["person"], 2), ("role", lambda i: i["role"], 2),
        ("delegations", lambda i: ", ".join(i["delegations"]), 2), ("appointed", lambda i: i["appointed_at"], 3),
        ("by", lambda i: _who(i["appointed_by"]), 3), ("removed", lambda i: i["removed_at"], 3),
        ("why", lambda i: i.get("removal_reason", ""), 3))))
    out.append(_table("Participants", protocol.get("participants", []), (
        ("participant", lambda i: i["participant"], 2), ("name", lambda i: i["person"], 3),
        ("entry", lambda i: i["entry"], 1), ("registered", lambda i: i["registered_at"], 3),
        ("by", lambda i: _who(i.get("registered_by")), 3))))
    draws = protocol.get("draws", [])
    out.append(_table("Seat draws", draws, (
        ("kind", lambda i: i["kind"].replace("_", " ") + (f" ({i['stage']})" if i.get("stage") else ""), 2),
        ("commitment (SHA-256)", lambda i: i["commitment"], 4), ("committed", lambda i: i["committed_at"], 3),
        ("seed", lambda i: i["seed"], 4), ("conducted", lambda i: i["conducted_at"], 3),
        ("by", lambda i: _who(i["conducted_by"]), 3), ("ordered by", lambda i: i["ordered_by"], 2),
        ("seed matches", lambda i: i["seed_matches_commitment"], 1),
        ("seats match", lambda i: i["seats_match_seed"], 1),
        ("buttons", lambda i: ", ".join(f"T{b['table']} seat {b['seat']}" for b in i["buttons"]), 3),
        ("rule", lambda i: i["rule"], 1))))
    for number, d in enumerate(draws, start=1):
        out.append(_table(f"Seats drawn: draw {number} ({d['kind'].replace('_', ' ')})", d["assignments"], (
            ("participant", lambda a: a["participant"], 1), ("table", lambda a: a["table"], 1),
            ("seat", lambda a: a["seat"], 1))))
    out.append(_table("Levels played (by the level clock)", protocol.get("levels", []), (
        ("level", lambda i: i["number"], 1), ("stakes", lambda i: i["stakes"], 3),
        ("minutes", lambda i: i["minutes"], 1), ("started", lambda i: i["started_at"], 3),
        ("ended", lambda i: i.get("ended_at") or "", 3),
        ("announced", lambda i: i.get("announced_at") or "", 3),
        ("by", lambda i: _who(i.get("announced_by")) if i.get("announced_by") else "", 3))))
    out.append(_table("Breaks taken (by the level clock)", protocol.get("breaks", []), (
        ("after level", lambda i: i["after_level"], 1), ("minutes", lambda i: i["minutes"], 1),
        ("started", lambda i: i["started_at"], 3), ("ended", lambda i: i.get("ended_at") or "", 3),
        ("announced", lambda i: i.get("announced_at") or "", 3))))
    out.append(_table("Level clock stopped", protocol.get("clock_pauses", []), (
        ("from", lambda i: i["from"], 3), ("to", lambda i: i.get("to") or "", 3),
        ("reason", lambda i: i["reason"], 4), ("stopped by", lambda i: _who(i.get("paused_by")) if i.get("paused_by") else "", 3),
        ("rule", lambda i: i.get("rule", ""), 1))))
    out.append(_table("Moves", _moves(protocol), (
        ("at", lambda i: i["at"], 3), ("participant", lambda i: i["participant"], 2),
        ("from", lambda i: f"table {i['from_table']} seat {i['from_seat']}", 2),
        ("to", lambda i: f"table {i['to_table']} seat {i['to_seat']}", 2),
        ("reason", lambda i: i["reason"].replace("_", " "), 2),
        ("how chosen", lambda i: str(i.get("rule_applied", "")).replace("_", " "), 2),
        ("rule", lambda i: i.get("rule", ""), 1),
        ("authorised by", lambda i: i.get("authorised_by", ""), 2),
        ("recorded by", lambda i: _who(i["recorded_by"]), 3))))
    out.append(_table("Floor decisions (breaks, halts, tolerance, exceptions)", _floor_acts(protocol), (
        ("at", lambda i: i["at"], 3), ("act", lambda i: i["type"], 2), ("rule", lambda i: i.get("rule", ""), 1),
        ("by", lambda i: _who(i["recorded_by"]), 3), ("details", lambda i: i["details"], 8))))
    out.append(_table("Chip races", protocol.get("chip_races", []), (
        ("at", lambda i: i["at"], 3), ("table", lambda i: i.get("table", ""), 1),
        ("removed", lambda i: i.get("removed_denomination", ""), 1),
        ("results", lambda i: ", ".join(f"{r['participant']} {_amount(r['stack_after'])}"
                                        for r in i.get("results", [])), 8))))
    out.append(_table("Hands", protocol.get("hands", []), (
        ("hand (history)", lambda i: i.get("name") or f"{i['table']}/{i['number']}", 2,
         lambda i: i.get("history", "")),
        ("started", lambda i: i["started_at"] + (" (imported)" if i.get("imported") else ""), 3),
        ("ended", lambda i: i["ended_at"], 3), ("players", lambda i: len(i["players"]), 1), ("winners", lambda i: ", ".join(i.get("winners", [])), 2),
        ("pots", lambda i: ", ".join(_amount(p["amount"]) + ("" if p.get("decided_by", "mechanical") == "mechanical"
                                                           else f" (ruling {p['decided_by']['ruling']})")
                                     for p in i["pots"]), 3),
        ("officials' acts", lambda i: ", ".join(a["type"] for a in i.get("officials_acts", [])), 2)),
        anchor_of=lambda i: anchor(i.get("name") or f"{i['table']}/{i['number']}")))
    out.append(_table("Challenges", protocol.get("challenges", []), (
        ("hand", lambda i: i["hand"], 2, lambda i: hand(i["hand"])), ("participant", lambda i: i["participant"], 2),
        ("kind", lambda i: i["kind"], 2), ("grounds", lambda i: i["grounds"], 5),
        ("raised", lambda i: i["raised_at"], 3), ("deadline", lambda i: i["deadline"], 3),
        ("rule", lambda i: i.get("rule", ""), 1))))
    out.append(_table("Rulings", protocol.get("rulings", []), (
        ("ruling", lambda i: i["ruling"], 2), ("hand", lambda i: i["hand"], 2, lambda i: hand(i["hand"])),
        ("kind", lambda i: i["kind"].replace("_", " "), 2),
        ("official", lambda i: f"{i['official']} ({i['role'].replace('_', ' ')})", 3),
        ("rule", lambda i: i["rule"], 1), ("finding", lambda i: i["finding"], 4),
        ("re-awarded", _reawarded, 4), ("justification", lambda i: i.get("justification", ""), 3),
        ("mechanical", lambda i: not i["discretionary"], 1), ("at", lambda i: i["at"], 3))))
    out.append(_table("Misdeals and voids", protocol.get("misdeals_and_voids", []), (
        ("type", lambda i: i["type"], 2), ("hand", lambda i: name(i["hand"]), 2, lambda i: hand(i["hand"])),
        ("reason", lambda i: i["reason"], 5), ("rule", lambda i: i["rule"], 1), ("at", lambda i: i["at"], 3),
        ("by", lambda i: _who(i["recorded_by"]), 3))))
    out.append(_table("Incorrect bets", protocol.get("incorrect_bets", []), (
        ("hand", lambda i: name(i["hand"]), 2, lambda i: hand(i["hand"])), ("seat", lambda i: i["seat"], 1),
        ("player", lambda i: i.get("player", ""), 2), ("made", lambda i: f"{i['action']} to {_amount(i['made'])}", 2),
        ("rule broken", lambda i: i["rule"], 1), ("due", lambda i: _amount(i["due"]), 1),
        ("outcome", lambda i: i["outcome"], 1), ("outcome rule", lambda i: i["outcome_rule"], 1),
        ("bets moved", lambda i: "; ".join(f"{m['seat']}: {m['was']} to {m['to']}" for m in i["moved"]), 3),
        ("at", lambda i: i["at"], 3), ("recorded by", lambda i: _who(i.get("recorded_by")), 3))))
    out.append(_table("Violations", protocol.get("violations", []), (
        ("participant", lambda i: i["participant"], 2), ("no.", lambda i: i["number"], 1),
        ("rule", lambda i: i["rule"], 1), ("what", lambda i: i["what"], 3),
        ("hand", lambda i: i["hand"], 2, lambda i: hand(i["hand"])), ("occurrence", lambda i: i["occurrence"], 1),
        ("intentional", lambda i: i["intentional"], 1), ("description", lambda i: i["description"], 4),
        ("at", lambda i: i["at"], 3), ("recorded by", lambda i: _who(i["recorded_by"]), 3),
        ("in protocol", lambda i: i["entered_in_protocol"], 1))))
    out.append(_table("Penalties", protocol.get("penalties", []), (
        ("participant", lambda i: i["participant"], 2), ("ref", lambda i: i["reference"], 2),
        ("kind", lambda i: i["kind"].replace("_", " "), 2), ("for violation", lambda i: i["violation"], 1),
        ("rule", lambda i: i["rule"], 1), ("imposed by", lambda i: i["imposed_by"].replace("_", " "), 2),
        ("recorded by", lambda i: _who(i["recorded_by"]), 3),
        ("sanction", lambda i: ", ".join(p for p in (
            f"{i['rounds']} rounds" if i.get("rounds") else "", f"{i['hands_to_miss']} hands to miss"
            if i.get("hands_to_miss") else "", f"{_amount(i['chips_removed'])} chips removed"
            if i.get("chips_removed") else "") if p), 3),
        ("served", lambda i: f"{'yes' if i['served'] else 'no'} ({i['hands_served']} hands)", 2),
        ("at", lambda i: i["at"], 3), ("rescinded by", lambda i: i["rescinded_by_protest"], 2))))
    out.append(_table("Season disqualifications", protocol.get("season_disqualifications", []), (
        ("athlete", lambda i: i["athlete"], 2), ("season", lambda i: i["season"], 1),
        ("competition", lambda i: i["competition"], 2), ("violation", lambda i: i["violation"], 1),
        ("code", lambda i: i["code"], 1), ("at", lambda i: i["at"], 3), ("rule", lambda i: i["rule"], 1))))
    out.append(_table("Protests", [r for p in protocol.get("protests", []) for r in _protest_records(p)], (
        ("protest", lambda i: i["protest"], 2), ("item", lambda i: i["item"], 2), ("record", lambda i: i["record"], 10))))
    out.append(_table("Other acts of the competition", protocol.get("other_acts", []), (
        ("act", lambda i: i["type"], 2), ("at", lambda i: i["at"], 3), ("by", lambda i: _who(i["recorded_by"]), 3),
        ("details", lambda i: {k: v for k, v in i.items() if k not in ("type", "at", "recorded_by")}, 8))))
    out.append(_table("Eliminations", protocol.get("eliminations", []), (
        ("place", lambda i: i["place"], 1), ("participant", lambda i: i["participant"], 2),
        ("hand", lambda i: i["hand"], 2, lambda i: hand(i["hand"])), ("reason", lambda i: i["reason"], 2),
        ("shared with", lambda i: ", ".join(i.get("shared_with", [])), 2), ("at", lambda i: i["at"], 3),
        ("recorded by", lambda i: _who(i.get("recorded_by")), 3), ("rule", lambda i: i["rule"], 1))))
    out.append(_table("Placings and prizes", protocol.get("placings", []), (
        ("place", lambda i: i["place"], 1), ("participant", lambda i: i["participant"], 2),
        ("name", lambda i: i.get("person", ""), 3), ("disqualified", lambda i: i["disqualified"], 1),
        ("prize", lambda i: _amount((i["prize"] or {}).get("gross", 0)), 2),
        ("withheld", lambda i: _withheld(i["prize"]), 2),
        ("paid", lambda i: _amount((i["prize"] or {}).get("net", 0)), 2))))
    out.append(_table("Signatures", protocol.get("signatures", []), (
        ("snapshot", lambda i: i["version"], 1), ("person", lambda i: i["person"], 2),
        ("role", lambda i: i["role"], 2), ("SHA-256", lambda i: i["sha256"], 6), ("at", lambda i: i["at"], 3),
        *((("covers this document", _covers, 2),) if failing(protocol) else ()))))
    if "ofc" in protocol:  # an OFC event (bfsp 8): its rounds and points, projections/ofc.py
        out.append(_table("OFC rounds", protocol["ofc"]["rounds"], _OFC_ROUND_COLUMNS))
        out.append(_table("OFC standings (points)", protocol["ofc"]["standings"], _OFC_STANDING_COLUMNS))
    out.append(_table("Annex: rejections (records the referee refused, with the rule)", protocol.get("rejections", []), (
        ("at", lambda i: i["at"], 3), ("table", lambda i: i.get("table_id", ""), 1),
        ("hand", lambda i: i.get("hand_id", ""), 1,
         lambda i: hand(f"{i.get('table_id', '')}/{i.get('hand_id', '')}")),
        ("type", lambda i: i["event_type"], 2), ("kind", lambda i: i["kind"], 1), ("rule", lambda i: i["rule"], 1),
        ("reason", lambda i: i["reason"], 6), ("recorded by", lambda i: _who(i.get("recorded_by")), 3)),
        annex=True))
    return out


def _withheld(prize: JSON | None) -> str:
    if not prize:
        return "0"
    percent = prize.get("withheld_percent")
    return _amount(prize["withheld"]) + (f" ({percent} %)" if percent is not None and prize["gross"] else "")


def _ofc_points(round_: JSON) -> str:
    played = ", ".join(f"{h['player']} {h['points']:+d}" + (" (fouled)" if h["fouled"] else "") for h in round_["hands"])
    return played or "being played"


_OFC_ROUND_COLUMNS: Sequence[Column] = (
    ("table", lambda i: i["table"], 1),
    ("round", lambda i: i["number"], 1),
    ("button", lambda i: i["button"], 1),
    ("fantasy", lambda i: ", ".join(i["fantasy"]), 2),
    ("redeals", lambda i: i["redeals"], 1),
    ("points", _ofc_points, 5),
    ("scored", lambda i: i["scored_at"], 3),
)
_OFC_STANDING_COLUMNS: Sequence[Column] = (
    ("place", lambda i: i["place"], 1),
    ("player", lambda i: i["player"], 3),
    ("points", lambda i: i["points"], 1),
)


# --- HTML ------------------------------------------------------------------------------------------------------

_CSS = """
body { font-family: Georgia, serif; margin: 2em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0; }
h2 { font-size: 1.1em; border-bottom: 1px solid #444; margin-top: 1.6em; }
nav ol { columns: 3; font-size: 0.85em; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; }
th, td { border: 1px solid #999; padding: 0.2em 0.4em; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
th { background: #eee; }
tr:target { background: #ffd; }
p.none { color: #666; font-style: italic; }
div.failing { border: 3px solid #b00; color: #b00; padding: 0.3em 1em; margin: 1em 0; }
div.stamp { border: 2px solid #444; padding: 0.3em 1em; margin: 1em 0; font-family: monospace; }
div.stamp.live { border-style: dashed; color: #555; }
@page { size: A4 landscape; margin: 12mm; }
@media print {
  body { margin: 0; font-size: 9pt; } nav { display: none; } a { color: inherit; text-decoration: none; }
  h2 { page-break-after: avoid; } thead { display: table-header-group; } tr { page-break-inside: avoid; }
  section.annex { page-break-before: always; }
}
"""


def _section_id(number: int) -> str:
    return f"section-{number}"


def _html_cell(cell: Cell) -> str:
    text = escape(cell.text)
    return f'<td><a href="{escape(cell.href)}">{text}</a></td>' if cell.href else f"<td>{text}</td>"


def to_html(protocol: JSON, snapshot: JSON | None = None) -> str:
    """The protocol as a page; ``snapshot`` the snapshot it is the text of (None: the live protocol)."""
    c = protocol.get("competition", {})
    title = f"Protocol of {c.get('title') or c.get('id', '')}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>As of {escape(_text(protocol.get('as_of')))}; rulebook {escape(_text(c.get('rulebook')))} "
        f"{escape(_text(c.get('rulebook_version')))}</p>",
        f'<div class="stamp{" live" if snapshot is None else ""}">'
        + "".join(f"<p>{escape(line)}</p>" for line in stamp(snapshot)) + "</div>",
    ]
    if warning(protocol):
        parts.append(f'<div class="failing" role="alert"><p><strong>{escape(warning(protocol))}</strong></p><ul>')
        parts += [f"<li>{escape(b)}</li>" for b in failing(protocol)]
        parts.append("</ul></div>")
    listed = sections(protocol)
    parts.append("<nav><ol>" + "".join(
        f'<li><a href="#{_section_id(n)}">{escape(s.title)}</a> ({len(s.rows)})</li>' for n, s in enumerate(listed)
    ) + "</ol></nav>")
    for number, section in enumerate(listed):
        parts.append(f'<section id="{_section_id(number)}"{" class=annex" if section.annex else ""}>')
        parts.append(f"<h2>{escape(section.title)}</h2>")
        if not section.rows:
            parts.append('<p class="none">none</p></section>')
            continue
        parts.append("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in section.header)
                     + "</tr></thead><tbody>")
        anchors = section.anchors or ("",) * len(section.rows)
        parts += [
            (f'<tr id="{escape(a)}">' if a else "<tr>") + "".join(_html_cell(cell) for cell in row) + "</tr>"
            for a, row in zip(anchors, section.rows, strict=True)
        ]
        parts.append("</tbody></table></section>")
    parts.append("</body></html>")
    return "\n".join(parts)


# --- PDF -------------------------------------------------------------------------------------------------------

#: the printed page: A4 landscape, its margins, the table text's size and line height (mm)
_MARGIN = 10.0
_FONT_SIZE = 7
_LINE = 3.2
#: how many lines of one cell one printed row may carry: longer cells go on over continuation rows
_LINES_PER_ROW = 30


#: where the DejaVu fonts are found (Debian's and Ubuntu's fonts-dejavu-core; Fedora's; Arch's): the PDF embeds
#: them so that every name prints as written (Cyrillic, Polish, Lithuanian …), whatever the reader has installed
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu-sans-fonts", "/usr/share/fonts/TTF")
_FONT_FILES = {
    ("DejaVuSans", ""): "DejaVuSans.ttf", ("DejaVuSans", "B"): "DejaVuSans-Bold.ttf",
    ("DejaVuSansMono", ""): "DejaVuSansMono.ttf", ("DejaVuSansMono", "B"): "DejaVuSansMono-Bold.ttf",
}


@functools.cache
def unicode_fonts(dirs: tuple[str, ...] = FONT_DIRS) -> dict[tuple[str, str], Path] | None:
    """The DejaVu font files, all four from one folder, or None when no folder holds them all (the PDF is then
    printed in the core fonts, which are Latin-1: other letters show as "?", and the log says so)."""
    for folder in map(Path, dirs):
        found = {key: folder / name for key, name in _FONT_FILES.items()}
        if all(path.is_file() for path in found.values()):
            return found
    logging.getLogger(__name__).warning(
        "no DejaVu fonts in %s: the protocol's PDF prints letters outside Latin-1 as '?' (install fonts-dejavu-core)",
        ", ".join(dirs),
    )
    return None


class _Printed(FPDF):
    """An A4 page in the embedded Unicode fonts when they are found, else in the core (Latin-1) fonts."""

    title_line = ""

    def __init__(self, fonts: dict[tuple[str, str], Path] | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.unicode = fonts is not None
        self.sans, self.mono = ("DejaVuSans", "DejaVuSansMono") if fonts else ("Helvetica", "Courier")
        for (family, style), path in (fonts or {}).items():
            self.add_font(family, style, str(path))

    def printable(self, text: str) -> str:
        # The core PDF fonts are Latin-1: anything else is shown as "?" rather than failing the whole document.
        return text if self.unicode else text.encode("latin-1", "replace").decode("latin-1")

    def footer(self) -> None:
        self.set_y(-8)
        self.set_font(self.sans, "", 7)
        self.cell(0, 4, self.printable(f"{self.title_line} - page {self.page_no()} of {{nb}}"), align="C")


class _Wrap:
    """Lines of text as they fit a column, measured with the current core font's own widths: fpdf2's table wraps
    every cell twice through its general text engine, which took minutes for a 1,000-player event."""

    def __init__(self, pdf: FPDF) -> None:
        font: Any = pdf.current_font
        # a core font's widths are by character, an embedded font's by code point
        self.widths: dict[str, int] = font.cw if isinstance(font, CoreFont) else _ByCodePoint(font.cw)
        self.scale = pdf.font_size / 1000

    def width(self, text: str) -> float:
        return sum(self.widths.get(ch, 500) for ch in text) * self.scale

    def lines(self, text: str, room: float) -> list[str]:
        out: list[str] = []
        space = self.width(" ")
        for paragraph in text.split("\n"):
            line, used = "", 0.0
            for word in paragraph.split(" "):
                size = self.width(word)
                if line and used + space + size > room:
                    out.append(line)
                    line, used = "", 0.0
                while size > room and len(word) > 1:  # a word wider than the column is cut where it ends
                    cut = self._fits(word, room)
                    out.append(word[:cut])
                    word = word[cut:]
                    size = self.width(word)
                line, used = (f"{line} {word}", used + space + size) if line else (word, size)
            out.append(line)
        return out

    def _fits(self, word: str, room: float) -> int:
        used = 0.0
        for n, ch in enumerate(word):
            used += self.widths.get(ch, 500) * self.scale
            if used > room:
                return max(1, n)
        return len(word)


class _ByCodePoint(dict[str, int]):
    """An embedded font's widths (by code point) read by character, each looked up once."""

    def __init__(self, by_code_point: Any) -> None:
        super().__init__()
        self.by_code_point = by_code_point

    def get(self, ch: str, default: Any = None) -> Any:
        found = super().get(ch)
        if found is None:
            found = self[ch] = int(self.by_code_point[ord(ch)])
        return found


def _grid(pdf: _Printed, section: Section, widths: Sequence[float]) -> None:
    """The section as a ruled table: its header again at the top of each page, a row taller than a page carried
    on over continuation rows (each piece of its long cells in turn)."""
    pad, x0 = 0.8, pdf.l_margin
    bottom = pdf.h - pdf.b_margin
    header = [pdf.printable(h) for h in section.header] if any(section.header) else []

    def draw(cells: Sequence[list[str]], bold: bool) -> None:
        height = max(len(c) for c in cells) * _LINE + 2 * pad
        if pdf.get_y() + height > bottom:
            pdf.add_page()
            if header and not bold:
                draw(heading, True)
        y, x = pdf.get_y(), x0
        if bold:
            pdf.set_fill_color(230)
        for lines, width in zip(cells, widths, strict=True):
            pdf.rect(x, y, width, height, style="DF" if bold else "D")
            for n, line in enumerate(lines):
                if line:
                    pdf.text(x + pad, y + pad + (n + 0.78) * _LINE, line)
            x += width
        pdf.set_y(y + height)

    pdf.set_font(pdf.sans, "B", _FONT_SIZE)
    heading = [_Wrap(pdf).lines(h, w - 2 * pad) for h, w in zip(header, widths, strict=True)] if header else []
    if heading:
        draw(heading, True)
    pdf.set_font(pdf.sans, "", _FONT_SIZE)
    wrap = _Wrap(pdf)
    for row in section.rows:
        cells = [wrap.lines(pdf.printable(cell.text), w - 2 * pad) for cell, w in zip(row, widths, strict=True)]
        for start in range(0, max(len(c) for c in cells), _LINES_PER_ROW):
            draw([c[start:start + _LINES_PER_ROW] for c in cells], False)


def to_pdf(protocol: JSON, snapshot: JSON | None = None) -> bytes:
    """The protocol as an A4 PDF; ``snapshot`` the snapshot it is the text of (None: the live protocol)."""
    c = protocol.get("competition", {})
    title = f"Protocol of {c.get('title') or c.get('id', '')}"
    pdf = _Printed(unicode_fonts(), orientation="L", format="A4")
    pdf.title_line = pdf.printable(f"{title}, as of {_text(protocol.get('as_of'))}" + (
        f" - snapshot v{snapshot['version']}, SHA-256 {snapshot['sha256'][:16]}..." if snapshot is not None
        else " - live, not signed"
    ))
    pdf.set_margins(_MARGIN, _MARGIN, _MARGIN)
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.add_page()
    pdf.set_font(pdf.sans, "B", 15)
    pdf.multi_cell(0, 8, pdf.printable(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.sans, "", 9)
    pdf.multi_cell(0, 5, pdf.printable(f"As of {_text(protocol.get('as_of'))}; rulebook {_text(c.get('rulebook'))} "
                                f"{_text(c.get('rulebook_version'))}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.mono, "B" if snapshot is not None else "", 8)
    for line in stamp(snapshot):
        pdf.multi_cell(0, 4, pdf.printable(line), border=0, new_x="LMARGIN", new_y="NEXT")
    if warning(protocol):
        pdf.set_text_color(176, 0, 0)
        pdf.set_font(pdf.sans, "B", 11)
        pdf.multi_cell(0, 6, pdf.printable(warning(protocol)), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.sans, "", 8)
        for b in failing(protocol):
            pdf.multi_cell(0, 4, pdf.printable(f"- {b}"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
    usable = pdf.w - 2 * _MARGIN
    for section in sections(protocol):
        if section.annex:
            pdf.add_page()
        pdf.ln(2)
        pdf.set_font(pdf.sans, "B", 11)
        pdf.multi_cell(0, 7, pdf.printable(section.title), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(pdf.sans, "", _FONT_SIZE)
        if not section.rows:
            pdf.cell(0, 5, "none", new_x="LMARGIN", new_y="NEXT")
            continue
        # a narrow section (a seat list, a schedule) is printed narrow rather than stretched over the page
        share = min(1.0, 0.12 * sum(section.widths)) if len(section.widths) <= 5 else 1.0
        total = sum(section.widths)
        widths = [usable * share * w / total for w in section.widths]
        _grid(pdf, section, widths)
    return bytes(pdf.output())


def signed_snapshot_html(snapshot: JSON) -> str:
    """A snapshot's text as a page, stamped with its identity and its signatures (:func:`stamp`)."""
    return to_html(_with_its_signatures(snapshot), snapshot)


def signed_snapshot_pdf(snapshot: JSON) -> bytes:
    """A snapshot's text as an A4 PDF, stamped with its identity and its signatures (:func:`stamp`)."""
    return to_pdf(_with_its_signatures(snapshot), snapshot)


def _with_its_signatures(snapshot: JSON) -> JSON:
    """The snapshot's text with its own signatures added to its Signatures section. They were made after the
    text was fixed (they sign its SHA-256), so the text lists only the signatures on earlier snapshots; a print
    whose Signatures section said "none" under a signed header would mislead its reader. The hashed text is
    unchanged: only the print shows them."""
    protocol: JSON = snapshot["protocol"]
    earlier = list(protocol.get("signatures", []))
    seen = {(s.get("version"), s.get("person"), s.get("role")) for s in earlier}
    own = [s for s in snapshot.get("signatures") or [] if (s.get("version"), s.get("person"), s.get("role")) not in seen]
    return {**protocol, "signatures": [*earlier, *own]} if own else protocol
