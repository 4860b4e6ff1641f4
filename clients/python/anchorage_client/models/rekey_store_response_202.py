from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RekeyStoreResponse202")


@_attrs_define
class RekeyStoreResponse202:
    """
    Attributes:
        key_id (str):
        stores (list[str]):
        version (int):
    """

    key_id: str
    stores: list[str]
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key_id = self.key_id

        stores = self.stores

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "keyID": key_id,
                "stores": stores,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_id = d.pop("keyID")

        stores = cast(list[str], d.pop("stores"))

        version = d.pop("version")

        rekey_store_response_202 = cls(
            key_id=key_id,
            stores=stores,
            version=version,
        )

        rekey_store_response_202.additional_properties = d
        return rekey_store_response_202

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
