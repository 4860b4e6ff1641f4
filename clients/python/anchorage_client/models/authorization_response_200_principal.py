from enum import StrEnum


class AuthorizationResponse200Principal(StrEnum):
    APP = "app"
    OWNER = "owner"

    def __str__(self) -> str:
        return str(self.value)
