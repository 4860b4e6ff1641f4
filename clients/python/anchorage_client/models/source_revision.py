from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.source import Source


T = TypeVar("T", bound="SourceRevision")


@_attrs_define
class SourceRevision:
    """The app or device that saved the object, and its version. Without it, an owner's object is saved with the node's
    local source; an app's objects always carry the app's. Texts at most 4,096 bytes (a bundle identifier 255).

        Example:
            {'operatingSystemVersion': '17.1.0', 'productType': 'iPhone15,2', 'source': {'bundleIdentifier':
                'com.apple.health', 'name': 'Health'}, 'version': '17'}

        Attributes:
            source (Source):
            operating_system_version (str | Unset): major.minor.patch; `0.0.0` (unknown) when absent, and always written
                Example: 17.1.0.
            product_type (str | Unset):  Example: iPhone15,2.
            version (str | Unset):
    """

    source: Source
    operating_system_version: str | Unset = UNSET
    product_type: str | Unset = UNSET
    version: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source = self.source.to_dict()

        operating_system_version = self.operating_system_version

        product_type = self.product_type

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
            }
        )
        if operating_system_version is not UNSET:
            field_dict["operatingSystemVersion"] = operating_system_version
        if product_type is not UNSET:
            field_dict["productType"] = product_type
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.source import Source  # noqa: PLC0415

        d = dict(src_dict)
        source = Source.from_dict(d.pop("source"))

        operating_system_version = d.pop("operatingSystemVersion", UNSET)

        product_type = d.pop("productType", UNSET)

        version = d.pop("version", UNSET)

        source_revision = cls(
            source=source,
            operating_system_version=operating_system_version,
            product_type=product_type,
            version=version,
        )

        source_revision.additional_properties = d
        return source_revision

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
