from enum import StrEnum


class StoreRecordState(StrEnum):
    ACTIVE = "active"
    DELETING = "deleting"

    def __str__(self) -> str:
        return str(self.value)
