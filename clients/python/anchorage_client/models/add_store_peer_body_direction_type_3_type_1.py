from enum import StrEnum


class AddStorePeerBodyDirectionType3Type1(StrEnum):
    BOTH = "both"
    PULL = "pull"
    PUSH = "push"

    def __str__(self) -> str:
        return str(self.value)
