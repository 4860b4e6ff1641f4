from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StoreAuthorizationResponse200App")


@_attrs_define
class StoreAuthorizationResponse200App:
    """
    Attributes:
        bundle_identifier (str):
        name (str):
    """

    bundle_identifier: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        bundle_identifier = self.bundle_identifier

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bundleIdentifier": bundle_identifier,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bundle_identifier = d.pop("bundleIdentifier")

        name = d.pop("name")

        store_authorization_response_200_app = cls(
            bundle_identifier=bundle_identifier,
            name=name,
        )

        return store_authorization_response_200_app
