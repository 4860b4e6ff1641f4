from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Device")


@_attrs_define
class Device:
    """The device that measured the object; every property optional, each at most 4,096 bytes

    Example:
        {'hardwareVersion': 'Watch7,1', 'manufacturer': 'Apple Inc.', 'model': 'Watch', 'name': 'Apple Watch',
            'softwareVersion': '11.1'}

    Attributes:
        firmware_version (str | Unset):
        hardware_version (str | Unset):
        local_identifier (str | Unset):
        manufacturer (str | Unset):
        model (str | Unset):
        name (str | Unset):
        software_version (str | Unset):
        udi_device_identifier (str | Unset): HKDevice's UDIDeviceIdentifier
    """

    firmware_version: str | Unset = UNSET
    hardware_version: str | Unset = UNSET
    local_identifier: str | Unset = UNSET
    manufacturer: str | Unset = UNSET
    model: str | Unset = UNSET
    name: str | Unset = UNSET
    software_version: str | Unset = UNSET
    udi_device_identifier: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        firmware_version = self.firmware_version

        hardware_version = self.hardware_version

        local_identifier = self.local_identifier

        manufacturer = self.manufacturer

        model = self.model

        name = self.name

        software_version = self.software_version

        udi_device_identifier = self.udi_device_identifier

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if firmware_version is not UNSET:
            field_dict["firmwareVersion"] = firmware_version
        if hardware_version is not UNSET:
            field_dict["hardwareVersion"] = hardware_version
        if local_identifier is not UNSET:
            field_dict["localIdentifier"] = local_identifier
        if manufacturer is not UNSET:
            field_dict["manufacturer"] = manufacturer
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if software_version is not UNSET:
            field_dict["softwareVersion"] = software_version
        if udi_device_identifier is not UNSET:
            field_dict["udiDeviceIdentifier"] = udi_device_identifier

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        firmware_version = d.pop("firmwareVersion", UNSET)

        hardware_version = d.pop("hardwareVersion", UNSET)

        local_identifier = d.pop("localIdentifier", UNSET)

        manufacturer = d.pop("manufacturer", UNSET)

        model = d.pop("model", UNSET)

        name = d.pop("name", UNSET)

        software_version = d.pop("softwareVersion", UNSET)

        udi_device_identifier = d.pop("udiDeviceIdentifier", UNSET)

        device = cls(
            firmware_version=firmware_version,
            hardware_version=hardware_version,
            local_identifier=local_identifier,
            manufacturer=manufacturer,
            model=model,
            name=name,
            software_version=software_version,
            udi_device_identifier=udi_device_identifier,
        )

        device.additional_properties = d
        return device

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
