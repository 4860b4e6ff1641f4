from enum import StrEnum


class RegisterWebhookBodyFrequencyType3Type1(StrEnum):
    DAILY = "daily"
    HOURLY = "hourly"
    IMMEDIATE = "immediate"
    WEEKLY = "weekly"

    def __str__(self) -> str:
        return str(self.value)
