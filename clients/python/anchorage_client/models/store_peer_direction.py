from enum import StrEnum


class StorePeerDirection(StrEnum):
    BOTH = "both"
    PULL = "pull"
    PUSH = "push"

    def __str__(self) -> str:
        return str(self.value)
