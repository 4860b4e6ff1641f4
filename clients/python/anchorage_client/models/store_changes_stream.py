from enum import StrEnum


class StoreChangesStream(StrEnum):
    NDJSON = "ndjson"
    SSE = "sse"

    def __str__(self) -> str:
        return str(self.value)
