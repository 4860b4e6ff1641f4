from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.statistics_statistics_item_sources_item import StatisticsStatisticsItemSourcesItem


T = TypeVar("T", bound="StatisticsStatisticsItem")


@_attrs_define
class StatisticsStatisticsItem:
    """
    Attributes:
        end_date (datetime.datetime):
        start_date (datetime.datetime):
        average (float | Unset):
        duration (float | Unset): Seconds
        max_ (float | Unset):
        min_ (float | Unset):
        most_recent (float | Unset):
        most_recent_start_date (datetime.datetime | Unset): When the most recent quantity's sample started
        sources (list[StatisticsStatisticsItemSourcesItem] | Unset):
        sum_ (float | Unset):
    """

    end_date: datetime.datetime
    start_date: datetime.datetime
    average: float | Unset = UNSET
    duration: float | Unset = UNSET
    max_: float | Unset = UNSET
    min_: float | Unset = UNSET
    most_recent: float | Unset = UNSET
    most_recent_start_date: datetime.datetime | Unset = UNSET
    sources: list[StatisticsStatisticsItemSourcesItem] | Unset = UNSET
    sum_: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date.isoformat()

        start_date = self.start_date.isoformat()

        average = self.average

        duration = self.duration

        max_ = self.max_

        min_ = self.min_

        most_recent = self.most_recent

        most_recent_start_date: str | Unset = UNSET
        if not isinstance(self.most_recent_start_date, Unset):
            most_recent_start_date = self.most_recent_start_date.isoformat()

        sources: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = []
            for sources_item_data in self.sources:
                sources_item = sources_item_data.to_dict()
                sources.append(sources_item)

        sum_ = self.sum_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
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
        if sources is not UNSET:
            field_dict["sources"] = sources
        if sum_ is not UNSET:
            field_dict["sum"] = sum_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.statistics_statistics_item_sources_item import StatisticsStatisticsItemSourcesItem  # noqa: PLC0415

        d = dict(src_dict)
        end_date = datetime.datetime.fromisoformat(d.pop("endDate"))

        start_date = datetime.datetime.fromisoformat(d.pop("startDate"))

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

        _sources = d.pop("sources", UNSET)
        sources: list[StatisticsStatisticsItemSourcesItem] | Unset = UNSET
        if _sources is not UNSET:
            sources = []
            for sources_item_data in _sources:
                sources_item = StatisticsStatisticsItemSourcesItem.from_dict(sources_item_data)

                sources.append(sources_item)

        sum_ = d.pop("sum", UNSET)

        statistics_statistics_item = cls(
            end_date=end_date,
            start_date=start_date,
            average=average,
            duration=duration,
            max_=max_,
            min_=min_,
            most_recent=most_recent,
            most_recent_start_date=most_recent_start_date,
            sources=sources,
            sum_=sum_,
        )

        statistics_statistics_item.additional_properties = d
        return statistics_statistics_item

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
