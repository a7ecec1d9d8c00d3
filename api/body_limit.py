"""The largest request body the API reads: beyond it, 413 in the one error shape, before anything is parsed.

A body that declares its length is refused before it is read; one sent in chunks is counted as it arrives and
refused at the chunk that passes the bound (the route never sees it).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import ErrorBody, ErrorDetail


class BodyLimit:
    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await self._refused(int(declared))(scope, receive, send)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    # an HTTPException is what FastAPI lets through from reading a body (it answers 400 to others)
                    raise HTTPException(413, self._why(read))
            return message

        await self.app(scope, counted, send)

    def _refused(self, size: int) -> JSONResponse:
        detail = ErrorDetail(status=413, code="too_large", message=self._why(size))
        return JSONResponse(ErrorBody(error=detail).model_dump(), status_code=413)

    def _why(self, size: int) -> str:
        return (
            f"the request body is {size:,} bytes or more; this API reads at most {self.limit:,} "
            "(POKERAUDIT_MAX_BODY_BYTES): send fewer records per batch"
        )
