from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Heartbeat")


@_attrs_define
class Heartbeat:
    """
    Attributes:
        preceded_by_gap (bool): Whether a gap in measurement came before the beat
        time_since_series_start (float): Seconds since the series' `startDate`
    """

    preceded_by_gap: bool
    time_since_series_start: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        preceded_by_gap = self.preceded_by_gap

        time_since_series_start = self.time_since_series_start

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "precededByGap": preceded_by_gap,
                "timeSinceSeriesStart": time_since_series_start,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        preceded_by_gap = d.pop("precededByGap")

        time_since_series_start = d.pop("timeSinceSeriesStart")

        heartbeat = cls(
            preceded_by_gap=preceded_by_gap,
            time_since_series_start=time_since_series_start,
        )

        heartbeat.additional_properties = d
        return heartbeat

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
