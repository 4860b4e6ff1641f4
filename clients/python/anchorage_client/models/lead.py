from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lead_lead import LeadLead

T = TypeVar("T", bound="Lead")


@_attrs_define
class Lead:
    """One lead's voltage measurements of an electrocardiogram, in volts

    Attributes:
        lead (LeadLead): HKElectrocardiogram.Lead: 1 Apple Watch, similar to lead I
        volts (list[float]):
    """

    lead: LeadLead
    volts: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lead = self.lead.value

        volts = self.volts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lead": lead,
                "volts": volts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lead = LeadLead(d.pop("lead"))

        volts = cast(list[float], d.pop("volts"))

        lead = cls(
            lead=lead,
            volts=volts,
        )

        lead.additional_properties = d
        return lead

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
