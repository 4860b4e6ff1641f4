from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Location")


@_attrs_define
class Location:
    """One location of a route: a place (degrees) and time, with what CoreLocation measured; `altitude` and
    `horizontalAccuracy` default to 0, the rest to −1 (unknown). Answers write every field.

        Attributes:
            latitude (float):
            longitude (float):
            timestamp (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
                exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
                fractional digits Example: 2026-03-10T00:00:00.25Z.
            altitude (float | Unset): Metres Default: 0.0.
            course (float | Unset): Degrees from true north; negative: unknown Default: -1.0.
            course_accuracy (float | Unset): Degrees; negative: unknown Default: -1.0.
            horizontal_accuracy (float | Unset): Metres; negative: the place is not valid Default: 0.0.
            speed (float | Unset): Metres a second; negative: unknown Default: -1.0.
            speed_accuracy (float | Unset): Metres a second; negative: unknown Default: -1.0.
            vertical_accuracy (float | Unset): Metres; negative: the altitude is unknown Default: -1.0.
    """

    latitude: float
    longitude: float
    timestamp: str
    altitude: float | Unset = 0.0
    course: float | Unset = -1.0
    course_accuracy: float | Unset = -1.0
    horizontal_accuracy: float | Unset = 0.0
    speed: float | Unset = -1.0
    speed_accuracy: float | Unset = -1.0
    vertical_accuracy: float | Unset = -1.0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        latitude = self.latitude

        longitude = self.longitude

        timestamp = self.timestamp

        altitude = self.altitude

        course = self.course

        course_accuracy = self.course_accuracy

        horizontal_accuracy = self.horizontal_accuracy

        speed = self.speed

        speed_accuracy = self.speed_accuracy

        vertical_accuracy = self.vertical_accuracy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "latitude": latitude,
                "longitude": longitude,
                "timestamp": timestamp,
            }
        )
        if altitude is not UNSET:
            field_dict["altitude"] = altitude
        if course is not UNSET:
            field_dict["course"] = course
        if course_accuracy is not UNSET:
            field_dict["courseAccuracy"] = course_accuracy
        if horizontal_accuracy is not UNSET:
            field_dict["horizontalAccuracy"] = horizontal_accuracy
        if speed is not UNSET:
            field_dict["speed"] = speed
        if speed_accuracy is not UNSET:
            field_dict["speedAccuracy"] = speed_accuracy
        if vertical_accuracy is not UNSET:
            field_dict["verticalAccuracy"] = vertical_accuracy

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        latitude = d.pop("latitude")

        longitude = d.pop("longitude")

        timestamp = d.pop("timestamp")

        altitude = d.pop("altitude", UNSET)

        course = d.pop("course", UNSET)

        course_accuracy = d.pop("courseAccuracy", UNSET)

        horizontal_accuracy = d.pop("horizontalAccuracy", UNSET)

        speed = d.pop("speed", UNSET)

        speed_accuracy = d.pop("speedAccuracy", UNSET)

        vertical_accuracy = d.pop("verticalAccuracy", UNSET)

        location = cls(
            latitude=latitude,
            longitude=longitude,
            timestamp=timestamp,
            altitude=altitude,
            course=course,
            course_accuracy=course_accuracy,
            horizontal_accuracy=horizontal_accuracy,
            speed=speed,
            speed_accuracy=speed_accuracy,
            vertical_accuracy=vertical_accuracy,
        )

        location.additional_properties = d
        return location

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
