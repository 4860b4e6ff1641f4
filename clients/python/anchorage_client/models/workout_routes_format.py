from enum import StrEnum


class WorkoutRoutesFormat(StrEnum):
    GEOJSON = "geojson"
    GPX = "gpx"

    def __str__(self) -> str:
        return str(self.value)
