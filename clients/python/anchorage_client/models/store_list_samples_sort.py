from enum import StrEnum


class StoreListSamplesSort(StrEnum):
    ENDDATE = "endDate"
    STARTDATE = "startDate"
    VALUE_1 = "-startDate"
    VALUE_3 = "-endDate"

    def __str__(self) -> str:
        return str(self.value)
