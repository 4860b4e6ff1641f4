from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sensitivity_test import SensitivityTest


T = TypeVar("T", bound="SensitivityPoint")


@_attrs_define
class SensitivityPoint:
    """An audiogram's tests at one frequency

    Attributes:
        frequency (float): Hertz
        tests (list[SensitivityTest]):
    """

    frequency: float
    tests: list[SensitivityTest]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        frequency = self.frequency

        tests = []
        for tests_item_data in self.tests:
            tests_item = tests_item_data.to_dict()
            tests.append(tests_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "frequency": frequency,
                "tests": tests,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sensitivity_test import SensitivityTest  # noqa: PLC0415

        d = dict(src_dict)
        frequency = d.pop("frequency")

        tests = []
        _tests = d.pop("tests")
        for tests_item_data in _tests:
            tests_item = SensitivityTest.from_dict(tests_item_data)

            tests.append(tests_item)

        sensitivity_point = cls(
            frequency=frequency,
            tests=tests,
        )

        sensitivity_point.additional_properties = d
        return sensitivity_point

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
