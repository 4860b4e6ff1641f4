from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.prism_eye import PrismEye
from ..models.prism_horizontal_base import PrismHorizontalBase
from ..models.prism_vertical_base import PrismVerticalBase

T = TypeVar("T", bound="Prism")


@_attrs_define
class Prism:
    """A glasses lens' prism, amounts in prism diopters and the angle in degrees

    Attributes:
        amount (float):
        angle (float):
        eye (PrismEye): HKVisionEye: 1 left, 2 right
        horizontal_amount (float):
        horizontal_base (PrismHorizontalBase): HKPrismBase: 0 none, 1 up, 2 down, 3 in, 4 out
        vertical_amount (float):
        vertical_base (PrismVerticalBase): HKPrismBase: 0 none, 1 up, 2 down, 3 in, 4 out
    """

    amount: float
    angle: float
    eye: PrismEye
    horizontal_amount: float
    horizontal_base: PrismHorizontalBase
    vertical_amount: float
    vertical_base: PrismVerticalBase
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        angle = self.angle

        eye = self.eye.value

        horizontal_amount = self.horizontal_amount

        horizontal_base = self.horizontal_base.value

        vertical_amount = self.vertical_amount

        vertical_base = self.vertical_base.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "angle": angle,
                "eye": eye,
                "horizontalAmount": horizontal_amount,
                "horizontalBase": horizontal_base,
                "verticalAmount": vertical_amount,
                "verticalBase": vertical_base,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        angle = d.pop("angle")

        eye = PrismEye(d.pop("eye"))

        horizontal_amount = d.pop("horizontalAmount")

        horizontal_base = PrismHorizontalBase(d.pop("horizontalBase"))

        vertical_amount = d.pop("verticalAmount")

        vertical_base = PrismVerticalBase(d.pop("verticalBase"))

        prism = cls(
            amount=amount,
            angle=angle,
            eye=eye,
            horizontal_amount=horizontal_amount,
            horizontal_base=horizontal_base,
            vertical_amount=vertical_amount,
            vertical_base=vertical_base,
        )

        prism.additional_properties = d
        return prism

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
