from enum import StrEnum


class StoreWorkoutRoutesFormat(StrEnum):
    GEOJSON = "geojson"
    GPX = "gpx"

    def __str__(self) -> str:
        return str(self.value)
