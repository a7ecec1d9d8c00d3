"""The API's routers, one per resource: health, submit (reporting events), reads (what was recorded)."""
