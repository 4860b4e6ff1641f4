from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quantity import Quantity


T = TypeVar("T", bound="WorkoutStatistic")


@_attrs_define
class WorkoutStatistic:
    """A workout's (or activity's) recorded statistic of one quantity type, in the type's canonical unit when written and
    in any unit it accepts when read: `sum` for cumulative types; `average`, `minimum`, `maximum` for discrete ones; at
    least one of them

        Attributes:
            end (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
                exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
                fractional digits Example: 2026-03-10T00:00:00.25Z.
            start (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
                exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
                fractional digits Example: 2026-03-10T00:00:00.25Z.
            type_ (str): A quantity type identifier Example: HKQuantityTypeIdentifierHeartRate.
            average (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit': 'count/min',
                'value': 72}.
            maximum (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit': 'count/min',
                'value': 72}.
            minimum (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit': 'count/min',
                'value': 72}.
            sum_ (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit': 'count/min', 'value':
                72}.
    """

    end: str
    start: str
    type_: str
    average: Quantity | Unset = UNSET
    maximum: Quantity | Unset = UNSET
    minimum: Quantity | Unset = UNSET
    sum_: Quantity | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        start = self.start

        type_ = self.type_

        average: dict[str, Any] | Unset = UNSET
        if not isinstance(self.average, Unset):
            average = self.average.to_dict()

        maximum: dict[str, Any] | Unset = UNSET
        if not isinstance(self.maximum, Unset):
            maximum = self.maximum.to_dict()

        minimum: dict[str, Any] | Unset = UNSET
        if not isinstance(self.minimum, Unset):
            minimum = self.minimum.to_dict()

        sum_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sum_, Unset):
            sum_ = self.sum_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "start": start,
                "type": type_,
            }
        )
        if average is not UNSET:
            field_dict["average"] = average
        if maximum is not UNSET:
            field_dict["maximum"] = maximum
        if minimum is not UNSET:
            field_dict["minimum"] = minimum
        if sum_ is not UNSET:
            field_dict["sum"] = sum_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quantity import Quantity  # noqa: PLC0415

        d = dict(src_dict)
        end = d.pop("end")

        start = d.pop("start")

        type_ = d.pop("type")

        _average = d.pop("average", UNSET)
        average: Quantity | Unset
        if isinstance(_average, Unset):
            average = UNSET
        else:
            average = Quantity.from_dict(_average)

        _maximum = d.pop("maximum", UNSET)
        maximum: Quantity | Unset
        if isinstance(_maximum, Unset):
            maximum = UNSET
        else:
            maximum = Quantity.from_dict(_maximum)

        _minimum = d.pop("minimum", UNSET)
        minimum: Quantity | Unset
        if isinstance(_minimum, Unset):
            minimum = UNSET
        else:
            minimum = Quantity.from_dict(_minimum)

        _sum_ = d.pop("sum", UNSET)
        sum_: Quantity | Unset
        if isinstance(_sum_, Unset):
            sum_ = UNSET
        else:
            sum_ = Quantity.from_dict(_sum_)

        workout_statistic = cls(
            end=end,
            start=start,
            type_=type_,
            average=average,
            maximum=maximum,
            minimum=minimum,
            sum_=sum_,
        )

        workout_statistic.additional_properties = d
        return workout_statistic

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
