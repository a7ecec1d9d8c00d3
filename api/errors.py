"""One error shape for every error the API returns.

```json
{"error": {"status": 422, "code": "validation_error", "message": "…", "field": "payload.seat", "rule": ""}}
```

``code`` is stable and machine-readable; ``message`` is a sentence an official can read; ``field`` names the
input at fault (a dotted path) and ``rule`` the rulebook and rule an act broke, when there is one.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    status: int
    code: str = Field(description="stable, machine-readable: not_found, forbidden, validation_error, …")
    message: str
    field: str = Field(default="", description="the input at fault, as a dotted path")
    rule: str = Field(default="", description="rulebook and rule, e.g. 'bfsp 4.9.6'")


class ErrorBody(BaseModel):
    error: ErrorDetail


class ApiError(Exception):
    """Raised by a route; the app turns it into :class:`ErrorBody` with ``status``."""

    def __init__(
        self, status: int, code: str, message: str, *, field: str = "", rule: str = "", retry_after: int | None = None
    ) -> None:
        self.detail = ErrorDetail(status=status, code=code, message=message, field=field, rule=rule)
        #: seconds after which a refused-for-load request may be tried again (the Retry-After header)
        self.retry_after = retry_after
        super().__init__(message)


def not_found(what: str, key: object) -> ApiError:
    return ApiError(404, "not_found", f"no {what} {key!s} is recorded")


#: For a route's ``responses=``: the error statuses it may answer, all in the one shape.
ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in (
        (400, "bad request"),
        (401, "no valid token"),
        (403, "the token's role may not do this"),
        (404, "not found"),
        (422, "a field is invalid"),
        (503, "a service the request needs is unavailable"),
    )
}
