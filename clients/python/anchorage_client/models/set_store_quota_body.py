from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SetStoreQuotaBody")


@_attrs_define
class SetStoreQuotaBody:
    """
    Attributes:
        maximum_bytes (int | None): The most bytes the store's files may use — the pages in use in its log (`data.mdb`)
            and its indices (`projections.mdb`), not the files' lengths; null lifts the quota
    """

    maximum_bytes: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        maximum_bytes: int | None
        maximum_bytes = self.maximum_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "maximumBytes": maximum_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_maximum_bytes(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        maximum_bytes = _parse_maximum_bytes(d.pop("maximumBytes"))

        set_store_quota_body = cls(
            maximum_bytes=maximum_bytes,
        )

        set_store_quota_body.additional_properties = d
        return set_store_quota_body

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
