from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Quantity")


@_attrs_define
class Quantity:
    """A quantity; the unit must suit what it measures

    Example:
        {'unit': 'count/min', 'value': 72}

    Attributes:
        unit (str): A unit in HealthKit's unit-string grammar (`count/min`, `kg`, `mg/dL`, `mmol<180.1558800000541>/L`,
            `mL/min·kg`) Example: count/min.
        value (float): A finite number
    """

    unit: str
    value: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "unit": unit,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        unit = d.pop("unit")

        value = d.pop("value")

        quantity = cls(
            unit=unit,
            value=value,
        )

        quantity.additional_properties = d
        return quantity

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
