from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MetadataDate")


@_attrs_define
class MetadataDate:
    """
    Attributes:
        date (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
    """

    date: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        date = self.date

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date": date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        date = d.pop("date")

        metadata_date = cls(
            date=date,
        )

        metadata_date.additional_properties = d
        return metadata_date

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
