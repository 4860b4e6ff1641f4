from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StatisticsStatisticsItemSourcesItem")


@_attrs_define
class StatisticsStatisticsItemSourcesItem:
    """
    Attributes:
        bundle_identifier (str):
        name (str):
        average (float | Unset):
        duration (float | Unset): Seconds
        max_ (float | Unset):
        min_ (float | Unset):
        most_recent (float | Unset):
        most_recent_start_date (datetime.datetime | Unset):
        sum_ (float | Unset):
    """

    bundle_identifier: str
    name: str
    average: float | Unset = UNSET
    duration: float | Unset = UNSET
    max_: float | Unset = UNSET
    min_: float | Unset = UNSET
    most_recent: float | Unset = UNSET
    most_recent_start_date: datetime.datetime | Unset = UNSET
    sum_: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bundle_identifier = self.bundle_identifier

        name = self.name

        average = self.average

        duration = self.duration

        max_ = self.max_

        min_ = self.min_

        most_recent = self.most_recent

        most_recent_start_date: str | Unset = UNSET
        if not isinstance(self.most_recent_start_date, Unset):
            most_recent_start_date = self.most_recent_start_date.isoformat()

        sum_ = self.sum_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bundleIdentifier": bundle_identifier,
                "name": name,
            }
        )
        if average is not UNSET:
            field_dict["average"] = average
        if duration is not UNSET:
            field_dict["duration"] = duration
        if max_ is not UNSET:
            field_dict["max"] = max_
        if min_ is not UNSET:
            field_dict["min"] = min_
        if most_recent is not UNSET:
            field_dict["mostRecent"] = most_recent
        if most_recent_start_date is not UNSET:
            field_dict["mostRecentStartDate"] = most_recent_start_date
        if sum_ is not UNSET:
            field_dict["sum"] = sum_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_identifier = d.pop("bundleIdentifier")

        name = d.pop("name")

        average = d.pop("average", UNSET)

        duration = d.pop("duration", UNSET)

        max_ = d.pop("max", UNSET)

        min_ = d.pop("min", UNSET)

        most_recent = d.pop("mostRecent", UNSET)

        _most_recent_start_date = d.pop("mostRecentStartDate", UNSET)
        most_recent_start_date: datetime.datetime | Unset
        if isinstance(_most_recent_start_date, Unset):
            most_recent_start_date = UNSET
        else:
            most_recent_start_date = datetime.datetime.fromisoformat(_most_recent_start_date)

        sum_ = d.pop("sum", UNSET)

        statistics_statistics_item_sources_item = cls(
            bundle_identifier=bundle_identifier,
            name=name,
            average=average,
            duration=duration,
            max_=max_,
            min_=min_,
            most_recent=most_recent,
            most_recent_start_date=most_recent_start_date,
            sum_=sum_,
        )

        statistics_statistics_item_sources_item.additional_properties = d
        return statistics_statistics_item_sources_item

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
