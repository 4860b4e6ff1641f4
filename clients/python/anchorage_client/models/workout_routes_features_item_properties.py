from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorkoutRoutesFeaturesItemProperties")


@_attrs_define
class WorkoutRoutesFeaturesItemProperties:
    """
    Attributes:
        courses (list[float]): Degrees from true north; negative: unknown
        end_date (datetime.datetime):
        horizontal_accuracies (list[float]): Metres; negative: unknown
        speeds (list[float]): Metres a second; negative: unknown
        start_date (datetime.datetime):
        times (list[datetime.datetime]):
        vertical_accuracies (list[float]): Metres; negative: unknown
    """

    courses: list[float]
    end_date: datetime.datetime
    horizontal_accuracies: list[float]
    speeds: list[float]
    start_date: datetime.datetime
    times: list[datetime.datetime]
    vertical_accuracies: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        courses = self.courses

        end_date = self.end_date.isoformat()

        horizontal_accuracies = self.horizontal_accuracies

        speeds = self.speeds

        start_date = self.start_date.isoformat()

        times = []
        for times_item_data in self.times:
            times_item = times_item_data.isoformat()
            times.append(times_item)

        vertical_accuracies = self.vertical_accuracies

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "courses": courses,
                "endDate": end_date,
                "horizontalAccuracies": horizontal_accuracies,
                "speeds": speeds,
                "startDate": start_date,
                "times": times,
                "verticalAccuracies": vertical_accuracies,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        courses = cast(list[float], d.pop("courses"))

        end_date = datetime.datetime.fromisoformat(d.pop("endDate"))

        horizontal_accuracies = cast(list[float], d.pop("horizontalAccuracies"))

        speeds = cast(list[float], d.pop("speeds"))

        start_date = datetime.datetime.fromisoformat(d.pop("startDate"))

        times = []
        _times = d.pop("times")
        for times_item_data in _times:
            times_item = datetime.datetime.fromisoformat(times_item_data)

            times.append(times_item)

        vertical_accuracies = cast(list[float], d.pop("verticalAccuracies"))

        workout_routes_features_item_properties = cls(
            courses=courses,
            end_date=end_date,
            horizontal_accuracies=horizontal_accuracies,
            speeds=speeds,
            start_date=start_date,
            times=times,
            vertical_accuracies=vertical_accuracies,
        )

        workout_routes_features_item_properties.additional_properties = d
        return workout_routes_features_item_properties

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
