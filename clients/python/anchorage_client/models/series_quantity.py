from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.quantity import Quantity


T = TypeVar("T", bound="SeriesQuantity")


@_attrs_define
class SeriesQuantity:
    """One quantity of a quantity series, with its interval inside the sample's

    Attributes:
        end_date (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
        quantity (Quantity): A quantity; the unit must suit what it measures Example: {'unit': 'count/min', 'value':
            72}.
        start_date (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
    """

    end_date: str
    quantity: Quantity
    start_date: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        quantity = self.quantity.to_dict()

        start_date = self.start_date

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "quantity": quantity,
                "startDate": start_date,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quantity import Quantity  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        quantity = Quantity.from_dict(d.pop("quantity"))

        start_date = d.pop("startDate")

        series_quantity = cls(
            end_date=end_date,
            quantity=quantity,
            start_date=start_date,
        )

        series_quantity.additional_properties = d
        return series_quantity

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
