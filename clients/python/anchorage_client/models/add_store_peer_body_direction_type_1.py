from enum import StrEnum


class AddStorePeerBodyDirectionType1(StrEnum):
    BOTH = "both"
    PULL = "pull"
    PUSH = "push"

    def __str__(self) -> str:
        return str(self.value)
