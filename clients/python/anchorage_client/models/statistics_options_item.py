from enum import StrEnum


class StatisticsOptionsItem(StrEnum):
    AVERAGE = "average"
    DURATION = "duration"
    MAX = "max"
    MIN = "min"
    MOSTRECENT = "mostRecent"
    SEPARATEBYSOURCE = "separateBySource"
    SUM = "sum"

    def __str__(self) -> str:
        return str(self.value)
