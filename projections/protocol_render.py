"""The protocol printed: a plain HTML page (escaped, with print CSS) and a PDF (fpdf2), from its JSON.

Both show the same sections in the same order, as tables of rows; what a section holds comes from
:func:`sections`, so the two forms cannot drift apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from fpdf import FPDF

JSON = dict[str, Any]
Row = Sequence[str]


def _who(value: Any) -> str:
    if isinstance(value, dict):
        return f"{value.get('person', '')} ({str(value.get('role', '')).replace('_', ' ')})"
    return str(value or "")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def _rows(items: list[JSON], columns: Sequence[tuple[str, Callable[[JSON], Any]]]) -> tuple[Row, list[Row]]:
    return tuple(c[0] for c in columns), [tuple(_text(get(item)) for _, get in columns) for item in items]


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


def sections(protocol: JSON) -> list[tuple[str, Row, list[Row]]]:
    """(title, header, rows) of every section of the protocol, in the order they are printed."""
    c = protocol.get("competition", {})
    regs = protocol.get("regulations", {})
    identity = [
        (k.replace("_", " "), _text(c.get(k)))
        for k in ("id", "title", "format", "variant", "betting", "starts_on", "rulebook", "rulebook_version",
                  "winner", "ended_at")
    ]
    regulation_rows = [
        (k.replace("_", " "), _text(regs.get(k)))
        for k in ("starting_stack", "max_seats", "final_table", "denominations", "breaks", "re_entry", "add_on",
                  "prizes", "withholding_percent", "min_age")
    ]
    out: list[tuple[str, Row, list[Row]]] = [
        ("Competition", ("field", "value"), [tuple(r) for r in identity]),
        ("Regulations", ("field", "value"), [tuple(r) for r in regulation_rows]),
    ]
    tables: list[tuple[str, str, Sequence[tuple[str, Callable[[JSON], Any]]]]] = [
        ("Officials", "officials", (("person", lambda i: i["person"]), ("role", lambda i: i["role"]),
                                    ("delegations", lambda i: ", ".join(i["delegations"])),
                                    ("appointed", lambda i: i["appointed_at"]),
                                    ("by", lambda i: _who(i["appointed_by"])), ("removed", lambda i: i["removed_at"]))),
        ("Participants", "participants", (("participant", lambda i: i["participant"]), ("person", lambda i: i["person"]),
                                          ("entry", lambda i: i["entry"]), ("registered", lambda i: i["registered_at"]))),
        ("Seat draws", "draws", (("kind", lambda i: i["kind"]), ("commitment (SHA-256)", lambda i: i["commitment"]),
                                 ("seed", lambda i: i["seed"]),
                                 ("seed matches", lambda i: i["seed_matches_commitment"]),
                                 ("seats match", lambda i: i["seats_match_seed"]),
                                 ("seats", lambda i: "; ".join(f"{a['participant']} {a['table']}/{a['seat']}"
                                                               for a in i["assignments"])),
                                 ("rule", lambda i: i["rule"]))),
        ("Levels", "levels", (("level", lambda i: i["number"]), ("stakes", lambda i: i["stakes"]),
                              ("minutes", lambda i: i["minutes"]), ("started", lambda i: i["started_at"]))),
        ("Breaks", "breaks", (("after level", lambda i: i["after_level"]), ("minutes", lambda i: i["minutes"]),
                              ("started", lambda i: i["started_at"]), ("ended", lambda i: i["ended_at"]))),
        ("Moves", "moves", (("type", lambda i: i["type"]), ("who", lambda i: i.get("participant", "")),
                            ("at", lambda i: i["at"]))),
        ("Hands", "hands", (("hand", lambda i: i["hand"]), ("table", lambda i: i["table"]),
                            ("number", lambda i: i["number"]), ("started", lambda i: i["started_at"]),
                            ("winners", lambda i: ", ".join(i["winners"])),
                            ("pots", lambda i: ", ".join(str(p["amount"]) for p in i["pots"])))),
        ("Challenges", "challenges", (("hand", lambda i: i["hand"]), ("participant", lambda i: i["participant"]),
                                      ("kind", lambda i: i["kind"]), ("raised", lambda i: i["raised_at"]),
                                      ("deadline", lambda i: i["deadline"]), ("grounds", lambda i: i["grounds"]))),
        ("Rulings", "rulings", (("ruling", lambda i: i["ruling"]), ("hand", lambda i: i["hand"]),
                                ("kind", lambda i: i["kind"]), ("official", lambda i: i["official"]),
                                ("rule", lambda i: i["rule"]), ("finding", lambda i: i["finding"]),
                                ("mechanical", lambda i: not i["discretionary"]))),
        ("Misdeals and voids", "misdeals_and_voids", (("type", lambda i: i["type"]), ("hand", lambda i: i["hand"]),
                                                       ("reason", lambda i: i["reason"]), ("rule", lambda i: i["rule"]),
                                                       ("by", lambda i: _who(i["recorded_by"])))),
        ("Incorrect bets", "incorrect_bets", (("hand", lambda i: i["hand"]), ("seat", lambda i: i["seat"]),
                                              ("made", lambda i: f"{i['action']} to {i['made']}"),
                                              ("rule broken", lambda i: i["rule"]), ("due", lambda i: i["due"]),
                                              ("outcome", lambda i: i["outcome"]),
                                              ("outcome rule", lambda i: i["outcome_rule"]),
                                              ("bets moved", lambda i: "; ".join(
                                                  f"{m['seat']}: {m['was']} to {m['to']}" for m in i["moved"])))),
        ("Violations", "violations", (("participant", lambda i: i["participant"]), ("rule", lambda i: i["rule"]),
                                      ("what", lambda i: i["what"]), ("occurrence", lambda i: i["occurrence"]),
                                      ("hand", lambda i: i["hand"]), ("at", lambda i: i["at"]),
                                      ("in protocol", lambda i: i["entered_in_protocol"]))),
        ("Penalties", "penalties", (("participant", lambda i: i["participant"]), ("ref", lambda i: i["reference"]),
                                    ("kind", lambda i: i["kind"]), ("by", lambda i: i["imposed_by"]),
                                    ("rule", lambda i: i["rule"]), ("hands to miss", lambda i: i["hands_to_miss"]),
                                    ("rescinded by", lambda i: i["rescinded_by_protest"]))),
        ("Protests", "protests", (("protest", lambda i: i["protest"]), ("tier", lambda i: i["tier"]),
                                  ("filer", lambda i: i["filer"]), ("against", lambda i: i["contested"]["reference"]),
                                  ("filed", lambda i: i["filed_at"]), ("deadline", lambda i: i["deadline"]),
                                  ("decision", lambda i: (i["decision"] or {}).get("decision", "pending")),
                                  ("overdue", lambda i: i["overdue"]))),
        ("Other acts of the competition", "other_acts", (("act", lambda i: i["type"]), ("at", lambda i: i["at"]),
                                                         ("by", lambda i: _who(i["recorded_by"])),
                                                         ("details", lambda i: {k: v for k, v in i.items()
                                                                                if k not in ("type", "at", "recorded_by")}))),
        ("Eliminations", "eliminations", (("participant", lambda i: i["participant"]), ("place", lambda i: i["place"]),
                                          ("reason", lambda i: i["reason"]), ("hand", lambda i: i["hand"]),
                                          ("at", lambda i: i["at"]), ("rule", lambda i: i["rule"]))),
        ("Placings and prizes", "placings", (("place", lambda i: i["place"]),
                                             ("participant", lambda i: i["participant"]),
                                             ("disqualified", lambda i: i["disqualified"]),
                                             ("gross", lambda i: (i["prize"] or {}).get("gross", 0)),
                                             ("withheld", lambda i: (i["prize"] or {}).get("withheld", 0)))),
        ("Rejections", "rejections", (("kind", lambda i: i["kind"]), ("type", lambda i: i["event_type"]),
                                      ("rule", lambda i: i["rule"]), ("reason", lambda i: i["reason"]))),
        ("Signatures", "signatures", (("snapshot", lambda i: i["version"]), ("person", lambda i: i["person"]),
                                      ("role", lambda i: i["role"]), ("SHA-256", lambda i: i["sha256"]),
                                      ("at", lambda i: i["at"]),
                                      *((("covers this document", _covers),) if failing(protocol) else ()))),
    ]
    for title, key, columns in tables:
        header, rows = _rows(list(protocol.get(key, [])), columns)
        out.append((title, header, rows))
    if "ofc" in protocol:  # an OFC event (bfsp 8): its rounds and points, projections/ofc.py
        out.append(("OFC rounds", *_rows(protocol["ofc"]["rounds"], _OFC_ROUND_COLUMNS)))
        out.append(("OFC standings (points)", *_rows(protocol["ofc"]["standings"], _OFC_STANDING_COLUMNS)))
    return out


def _ofc_points(round_: JSON) -> str:
    played = ", ".join(f"{h['player']} {h['points']:+d}" + (" (fouled)" if h["fouled"] else "") for h in round_["hands"])
    return played or "being played"


_OFC_ROUND_COLUMNS: Sequence[tuple[str, Callable[[JSON], Any]]] = (
    ("table", lambda i: i["table"]),
    ("round", lambda i: i["number"]),
    ("button", lambda i: i["button"]),
    ("fantasy", lambda i: ", ".join(i["fantasy"])),
    ("redeals", lambda i: i["redeals"]),
    ("points", _ofc_points),
    ("scored", lambda i: i["scored_at"]),
)
_OFC_STANDING_COLUMNS: Sequence[tuple[str, Callable[[JSON], Any]]] = (
    ("place", lambda i: i["place"]),
    ("player", lambda i: i["player"]),
    ("points", lambda i: i["points"]),
)


_CSS = """
body { font-family: Georgia, serif; margin: 2em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0; }
h2 { font-size: 1.1em; border-bottom: 1px solid #444; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; font-size: 0.85em; }
th, td { border: 1px solid #999; padding: 0.2em 0.4em; text-align: left; vertical-align: top;
         word-break: break-word; }
th { background: #eee; }
p.none { color: #666; font-style: italic; }
div.failing { border: 3px solid #b00; color: #b00; padding: 0.3em 1em; margin: 1em 0; }
@media print { body { margin: 0; } h2 { page-break-after: avoid; } tr { page-break-inside: avoid; } }
"""


def to_html(protocol: JSON) -> str:
    c = protocol.get("competition", {})
    title = f"Protocol of {c.get('title') or c.get('id', '')}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>As of {escape(_text(protocol.get('as_of')))}; rulebook {escape(_text(c.get('rulebook')))} "
        f"{escape(_text(c.get('rulebook_version')))}</p>",
    ]
    if warning(protocol):
        parts.append(f'<div class="failing" role="alert"><p><strong>{escape(warning(protocol))}</strong></p><ul>')
        parts += [f"<li>{escape(b)}</li>" for b in failing(protocol)]
        parts.append("</ul></div>")
    for heading, header, rows in sections(protocol):
        parts.append(f"<h2>{escape(heading)}</h2>")
        if not rows:
            parts.append('<p class="none">none</p>')
            continue
        parts.append("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr></thead><tbody>")
        parts += ["<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows]
        parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _latin(text: str) -> str:
    # The core PDF fonts are Latin-1: anything else is shown as "?" rather than failing the whole document.
    return text.encode("latin-1", "replace").decode("latin-1")


def to_pdf(protocol: JSON) -> bytes:
    c = protocol.get("competition", {})
    pdf = FPDF(orientation="L", format="A4")
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 15)
    pdf.multi_cell(0, 8, _latin(f"Protocol of {c.get('title') or c.get('id', '')}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 9)
    pdf.multi_cell(0, 5, _latin(f"As of {_text(protocol.get('as_of'))}; rulebook {_text(c.get('rulebook'))} "
                                f"{_text(c.get('rulebook_version'))}"), new_x="LMARGIN", new_y="NEXT")
    if warning(protocol):
        pdf.set_text_color(176, 0, 0)
        pdf.set_font("Helvetica", "B", 11)
        pdf.multi_cell(0, 6, _latin(warning(protocol)), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 8)
        for b in failing(protocol):
            pdf.multi_cell(0, 4, _latin(f"- {b}"), new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
    for heading, header, rows in sections(protocol):
        pdf.ln(2)
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 7, _latin(heading), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 7)
        if not rows:
            pdf.cell(0, 5, "none", new_x="LMARGIN", new_y="NEXT")
            continue
        with pdf.table(text_align="LEFT", first_row_as_headings=True) as table:
            for row in [header, *rows]:
                line = table.row()
                for cell in row:
                    line.cell(_latin(cell))
    return bytes(pdf.output())
