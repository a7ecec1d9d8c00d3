"""The result documents issued to a competition's participants (bfsp 2.3.3; domain/final_protocol.py), read from
the store as the referee kept them, and printed as a page or an A4 PDF: place, prize gross, tax withheld, net,
the violations and penalties recorded against the participant, and the signed final protocol it derives from."""

from __future__ import annotations

from html import escape
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from fpdf import FPDF

from domain.final_protocol import ResultDocuments, issue_json, results_id
from projections.protocol_render import unicode_fonts
from projections.stored import EventSource

JSON = dict[str, Any]


def issued(store: EventSource, competition_id: str) -> JSON | None:
    """The latest issue of the competition's result documents (version, sha256, protocol, issued_at, documents),
    or None when none has been issued."""
    try:
        found: Any = store.repository.get(results_id(competition_id))
    except AggregateNotFoundError:
        return None
    assert isinstance(found, ResultDocuments)
    return issue_json(found.issues[-1]) if found.issues else None


def lines(document: JSON) -> list[tuple[str, str]]:
    """The document as (label, value) lines, in the order printed."""
    prize = document["prize"]
    place = "disqualified" if document["disqualified"] else (str(document["place"]) if document["place"] else "-")
    out = [
        ("Competition", f"{document['title']} ({document['competition_id']})"),
        ("Participant", f"{document['participant']} ({document['person']})"),
        ("Place", place),
        ("Prize, gross", str(prize["gross"])),
        (f"Tax withheld ({prize['withheld_percent']} %)", str(prize["withheld"])),
        ("Prize, net", str(prize["net"])),
    ]
    for v in document["violations"]:
        out.append(("Violation", f"{v['code']} ({v['rule']}) {v['what']}, hand {v['hand'] or '-'}, at {v['at']}"
                    + ("; entered in the protocol" if v.get("entered_in_protocol") else "")))
    for p in document["penalties"]:
        out.append(("Penalty", f"{p['reference']}: {p['kind']} ({p['rule']}), at {p['at']}"
                    + (f"; rescinded by protest {p['rescinded_by_protest']}" if p.get("rescinded_by_protest") else "")))
    if not document["violations"] and not document["penalties"]:
        out.append(("Violations and penalties", "none recorded"))
    out.append(("Based on the signed final protocol",
                f"{document['protocol']} (version {document['protocol_version']}), SHA-256 {document['protocol_sha256']}"))
    return out


def to_html(document: JSON) -> str:
    title = f"Result document: {document['participant']} at {document['title'] or document['competition_id']}"
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in lines(document))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title></head>'
            f"<body><h1>{escape(title)}</h1><table>{rows}</table></body></html>")


def to_pdf(document: JSON) -> bytes:
    """The document as an A4 page (DejaVu embedded where installed, so names print as written)."""
    pdf = FPDF(format="A4")
    fonts = unicode_fonts()
    family = "helvetica"
    if fonts is not None:
        pdf.add_font("DejaVuSans", "", str(fonts[("DejaVuSans", "")]))
        pdf.add_font("DejaVuSans", "B", str(fonts[("DejaVuSans", "B")]))
        family = "DejaVuSans"

    def printable(text: str) -> str:
        return text if fonts is not None else text.encode("latin-1", "replace").decode("latin-1")

    pdf.add_page()
    pdf.set_font(family, "B", 14)
    pdf.multi_cell(0, 8, printable(f"Result document: {document['participant']}"), new_x="LMARGIN", new_y="NEXT")
    for label, value in lines(document):
        pdf.set_font(family, "B", 9)
        pdf.multi_cell(0, 5, printable(label), new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(family, "", 9)
        pdf.multi_cell(0, 5, printable(value), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
