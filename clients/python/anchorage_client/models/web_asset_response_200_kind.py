from enum import StrEnum


class WebAssetResponse200Kind(StrEnum):
    FLEET = "fleet"
    MULTI = "multi"
    SINGLE = "single"

    def __str__(self) -> str:
        return str(self.value)
