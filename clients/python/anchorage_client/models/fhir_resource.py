from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="FHIRResource")


@_attrs_define
class FHIRResource:
    """A clinical record's FHIR resource, its JSON kept byte for byte

    Attributes:
        data (str): The resource's JSON, base64; at most 4 MiB of it
        fhir_version (str): Three numbers, major.minor.patch Example: 4.0.1.
        identifier (str): 1 to 1,000 bytes
        resource_type (str):  Example: Immunization.
        source_url (str | Unset):
    """

    data: str
    fhir_version: str
    identifier: str
    resource_type: str
    source_url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        fhir_version = self.fhir_version

        identifier = self.identifier

        resource_type = self.resource_type

        source_url = self.source_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "fhirVersion": fhir_version,
                "identifier": identifier,
                "resourceType": resource_type,
            }
        )
        if source_url is not UNSET:
            field_dict["sourceURL"] = source_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        fhir_version = d.pop("fhirVersion")

        identifier = d.pop("identifier")

        resource_type = d.pop("resourceType")

        source_url = d.pop("sourceURL", UNSET)

        fhir_resource = cls(
            data=data,
            fhir_version=fhir_version,
            identifier=identifier,
            resource_type=resource_type,
            source_url=source_url,
        )

        fhir_resource.additional_properties = d
        return fhir_resource

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
