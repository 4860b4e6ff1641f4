from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sensitivity_test_side import SensitivityTestSide
from ..models.sensitivity_test_type import SensitivityTestType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clamping_range import ClampingRange


T = TypeVar("T", bound="SensitivityTest")


@_attrs_define
class SensitivityTest:
    """
    Attributes:
        masked (bool):
        sensitivity (float): dBHL
        side (SensitivityTestSide): HKAudiogramSensitivityTestSide: 0 left, 1 right
        type_ (SensitivityTestType): HKAudiogramConductionType: 0 air
        clamping_range (ClampingRange | Unset): A test's clamping range in dBHL, with either bound or both (lower below
            upper)
    """

    masked: bool
    sensitivity: float
    side: SensitivityTestSide
    type_: SensitivityTestType
    clamping_range: ClampingRange | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        masked = self.masked

        sensitivity = self.sensitivity

        side = self.side.value

        type_ = self.type_.value

        clamping_range: dict[str, Any] | Unset = UNSET
        if not isinstance(self.clamping_range, Unset):
            clamping_range = self.clamping_range.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "masked": masked,
                "sensitivity": sensitivity,
                "side": side,
                "type": type_,
            }
        )
        if clamping_range is not UNSET:
            field_dict["clampingRange"] = clamping_range

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clamping_range import ClampingRange  # noqa: PLC0415

        d = dict(src_dict)
        masked = d.pop("masked")

        sensitivity = d.pop("sensitivity")

        side = SensitivityTestSide(d.pop("side"))

        type_ = SensitivityTestType(d.pop("type"))

        _clamping_range = d.pop("clampingRange", UNSET)
        clamping_range: ClampingRange | Unset
        if isinstance(_clamping_range, Unset):
            clamping_range = UNSET
        else:
            clamping_range = ClampingRange.from_dict(_clamping_range)

        sensitivity_test = cls(
            masked=masked,
            sensitivity=sensitivity,
            side=side,
            type_=type_,
            clamping_range=clamping_range,
        )

        sensitivity_test.additional_properties = d
        return sensitivity_test

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
