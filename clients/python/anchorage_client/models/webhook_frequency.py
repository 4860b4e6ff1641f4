from enum import StrEnum


class WebhookFrequency(StrEnum):
    DAILY = "daily"
    HOURLY = "hourly"
    IMMEDIATE = "immediate"
    WEEKLY = "weekly"

    def __str__(self) -> str:
        return str(self.value)
