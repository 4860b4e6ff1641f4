from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workout_event_type import WorkoutEventType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata


T = TypeVar("T", bound="WorkoutEvent")


@_attrs_define
class WorkoutEvent:
    """A workout event; only laps and segments have a length

    Attributes:
        end (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
        start (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
        type_ (WorkoutEventType): HKWorkoutEventType: 1 pause, 2 resume, 3 lap, 4 marker, 5 motion paused, 6 motion
            resumed, 7 segment, 8 pause or resume request
        metadata (Metadata | Unset): Metadata: up to 256 keys of 1 to 256 bytes, each to a tagged value. Keys beginning
            with `HK` must be HealthKit's; `HKMetadataKeySyncIdentifier` (a string) and `HKMetadataKeySyncVersion` (an
            integer or a double) come together. Example: {'HKMetadataKeyHeartRateMotionContext': {'integer': 1},
            'HKMetadataKeyWasUserEntered': {'bool': True}}.
    """

    end: str
    start: str
    type_: WorkoutEventType
    metadata: Metadata | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        start = self.start

        type_ = self.type_.value

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "start": start,
                "type": type_,
            }
        )
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata  # noqa: PLC0415

        d = dict(src_dict)
        end = d.pop("end")

        start = d.pop("start")

        type_ = WorkoutEventType(d.pop("type"))

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        workout_event = cls(
            end=end,
            start=start,
            type_=type_,
            metadata=metadata,
        )

        workout_event.additional_properties = d
        return workout_event

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
