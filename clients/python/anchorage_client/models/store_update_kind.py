from enum import StrEnum


class StoreUpdateKind(StrEnum):
    CHANGED = "changed"
    DELETED = "deleted"

    def __str__(self) -> str:
        return str(self.value)
