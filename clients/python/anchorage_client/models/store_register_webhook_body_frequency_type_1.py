from enum import StrEnum


class StoreRegisterWebhookBodyFrequencyType1(StrEnum):
    DAILY = "daily"
    HOURLY = "hourly"
    IMMEDIATE = "immediate"
    WEEKLY = "weekly"

    def __str__(self) -> str:
        return str(self.value)
