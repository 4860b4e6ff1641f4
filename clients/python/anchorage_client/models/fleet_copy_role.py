from enum import StrEnum


class FleetCopyRole(StrEnum):
    JOINING = "joining"
    PRIMARY = "primary"
    REPLICA = "replica"

    def __str__(self) -> str:
        return str(self.value)
