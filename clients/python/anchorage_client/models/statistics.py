from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.statistics_options_item import StatisticsOptionsItem

if TYPE_CHECKING:
    from ..models.statistics_statistics_item import StatisticsStatisticsItem


T = TypeVar("T", bound="Statistics")


@_attrs_define
class Statistics:
    """A statistics collection query's answer: every bucket from the one containing `from` through the one containing `to`,
    each with those of the statistics `options` asked for that have a value, in `unit`, dates in UTC. With
    `separateBySource` (then last in `options`), every bucket has `sources` as well: each source that saved samples in
    it, by bundle identifier, with its own values of the same statistics (an empty list for an empty bucket); without
    it, no bucket has `sources`.

        Attributes:
            interval (str): The interval as asked for (`1d` by default)
            options (list[StatisticsOptionsItem]): The statistics asked for, in this order: sum, average, min, max,
                mostRecent, duration; then separateBySource
            statistics (list[StatisticsStatisticsItem]):
            time_zone (str): The `tz` asked for (`UTC` by default)
            type_ (str): The quantity type's identifier Example: HKQuantityTypeIdentifierStepCount.
            unit (str): The unit asked for, or the type's usual one
    """

    interval: str
    options: list[StatisticsOptionsItem]
    statistics: list[StatisticsStatisticsItem]
    time_zone: str
    type_: str
    unit: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        interval = self.interval

        options = []
        for options_item_data in self.options:
            options_item = options_item_data.value
            options.append(options_item)

        statistics = []
        for statistics_item_data in self.statistics:
            statistics_item = statistics_item_data.to_dict()
            statistics.append(statistics_item)

        time_zone = self.time_zone

        type_ = self.type_

        unit = self.unit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "interval": interval,
                "options": options,
                "statistics": statistics,
                "timeZone": time_zone,
                "type": type_,
                "unit": unit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.statistics_statistics_item import StatisticsStatisticsItem  # noqa: PLC0415

        d = dict(src_dict)
        interval = d.pop("interval")

        options = []
        _options = d.pop("options")
        for options_item_data in _options:
            options_item = StatisticsOptionsItem(options_item_data)

            options.append(options_item)

        statistics = []
        _statistics = d.pop("statistics")
        for statistics_item_data in _statistics:
            statistics_item = StatisticsStatisticsItem.from_dict(statistics_item_data)

            statistics.append(statistics_item)

        time_zone = d.pop("timeZone")

        type_ = d.pop("type")

        unit = d.pop("unit")

        statistics = cls(
            interval=interval,
            options=options,
            statistics=statistics,
            time_zone=time_zone,
            type_=type_,
            unit=unit,
        )

        statistics.additional_properties = d
        return statistics

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
