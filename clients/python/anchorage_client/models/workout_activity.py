from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workout_activity_location_type import WorkoutActivityLocationType
from ..models.workout_activity_swimming_location_type import WorkoutActivitySwimmingLocationType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.metadata import Metadata
    from ..models.quantity import Quantity
    from ..models.workout_event import WorkoutEvent
    from ..models.workout_statistic import WorkoutStatistic


T = TypeVar("T", bound="WorkoutActivity")


@_attrs_define
class WorkoutActivity:
    """One part of a workout (`HKWorkoutActivity`), inside it; its events overlap it and lie inside the workout, and may
    run before and past it (OBJ-23). Answers write every field but `lapLength`, `workoutEvents`, `statistics` and
    `metadata`, which they write when present.

        Attributes:
            end (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
                exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
                fractional digits Example: 2026-03-10T00:00:00.25Z.
            start (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
                exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
                fractional digits Example: 2026-03-10T00:00:00.25Z.
            uuid (UUID):
            workout_activity_type (int): An HKWorkoutActivityType raw value
            duration (float | Unset): Seconds, at most end − start; absent or 0: end − start less the paused intervals of
                its events
            lap_length (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit': 'count/min',
                'value': 72}.
            location_type (WorkoutActivityLocationType | Unset): HKWorkoutSessionLocationType: 1 unknown, 2 indoor, 3
                outdoor Default: WorkoutActivityLocationType.VALUE_1.
            metadata (Metadata | Unset): Metadata: up to 256 keys of 1 to 256 bytes, each to a tagged value. Keys beginning
                with `HK` must be HealthKit's; `HKMetadataKeySyncIdentifier` (a string) and `HKMetadataKeySyncVersion` (an
                integer or a double) come together. Example: {'HKMetadataKeyHeartRateMotionContext': {'integer': 1},
                'HKMetadataKeyWasUserEntered': {'bool': True}}.
            statistics (list[WorkoutStatistic] | Unset):
            swimming_location_type (WorkoutActivitySwimmingLocationType | Unset): HKWorkoutSwimmingLocationType: 0 unknown,
                1 pool, 2 open water Default: WorkoutActivitySwimmingLocationType.VALUE_0.
            workout_events (list[WorkoutEvent] | Unset):
    """

    end: str
    start: str
    uuid: UUID
    workout_activity_type: int
    duration: float | Unset = UNSET
    lap_length: Quantity | Unset = UNSET
    location_type: WorkoutActivityLocationType | Unset = WorkoutActivityLocationType.VALUE_1
    metadata: Metadata | Unset = UNSET
    statistics: list[WorkoutStatistic] | Unset = UNSET
    swimming_location_type: WorkoutActivitySwimmingLocationType | Unset = WorkoutActivitySwimmingLocationType.VALUE_0
    workout_events: list[WorkoutEvent] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        start = self.start

        uuid = str(self.uuid)

        workout_activity_type = self.workout_activity_type

        duration = self.duration

        lap_length: dict[str, Any] | Unset = UNSET
        if not isinstance(self.lap_length, Unset):
            lap_length = self.lap_length.to_dict()

        location_type: int | Unset = UNSET
        if not isinstance(self.location_type, Unset):
            location_type = self.location_type.value

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        statistics: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.statistics, Unset):
            statistics = []
            for statistics_item_data in self.statistics:
                statistics_item = statistics_item_data.to_dict()
                statistics.append(statistics_item)

        swimming_location_type: int | Unset = UNSET
        if not isinstance(self.swimming_location_type, Unset):
            swimming_location_type = self.swimming_location_type.value

        workout_events: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.workout_events, Unset):
            workout_events = []
            for workout_events_item_data in self.workout_events:
                workout_events_item = workout_events_item_data.to_dict()
                workout_events.append(workout_events_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "start": start,
                "uuid": uuid,
                "workoutActivityType": workout_activity_type,
            }
        )
        if duration is not UNSET:
            field_dict["duration"] = duration
        if lap_length is not UNSET:
            field_dict["lapLength"] = lap_length
        if location_type is not UNSET:
            field_dict["locationType"] = location_type
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if statistics is not UNSET:
            field_dict["statistics"] = statistics
        if swimming_location_type is not UNSET:
            field_dict["swimmingLocationType"] = swimming_location_type
        if workout_events is not UNSET:
            field_dict["workoutEvents"] = workout_events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.quantity import Quantity  # noqa: PLC0415
        from ..models.workout_event import WorkoutEvent  # noqa: PLC0415
        from ..models.workout_statistic import WorkoutStatistic  # noqa: PLC0415

        d = dict(src_dict)
        end = d.pop("end")

        start = d.pop("start")

        uuid = UUID(d.pop("uuid"))

        workout_activity_type = d.pop("workoutActivityType")

        duration = d.pop("duration", UNSET)

        _lap_length = d.pop("lapLength", UNSET)
        lap_length: Quantity | Unset
        if isinstance(_lap_length, Unset):
            lap_length = UNSET
        else:
            lap_length = Quantity.from_dict(_lap_length)

        _location_type = d.pop("locationType", UNSET)
        location_type: WorkoutActivityLocationType | Unset
        if isinstance(_location_type, Unset):
            location_type = UNSET
        else:
            location_type = WorkoutActivityLocationType(_location_type)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        _statistics = d.pop("statistics", UNSET)
        statistics: list[WorkoutStatistic] | Unset = UNSET
        if _statistics is not UNSET:
            statistics = []
            for statistics_item_data in _statistics:
                statistics_item = WorkoutStatistic.from_dict(statistics_item_data)

                statistics.append(statistics_item)

        _swimming_location_type = d.pop("swimmingLocationType", UNSET)
        swimming_location_type: WorkoutActivitySwimmingLocationType | Unset
        if isinstance(_swimming_location_type, Unset):
            swimming_location_type = UNSET
        else:
            swimming_location_type = WorkoutActivitySwimmingLocationType(_swimming_location_type)

        _workout_events = d.pop("workoutEvents", UNSET)
        workout_events: list[WorkoutEvent] | Unset = UNSET
        if _workout_events is not UNSET:
            workout_events = []
            for workout_events_item_data in _workout_events:
                workout_events_item = WorkoutEvent.from_dict(workout_events_item_data)

                workout_events.append(workout_events_item)

        workout_activity = cls(
            end=end,
            start=start,
            uuid=uuid,
            workout_activity_type=workout_activity_type,
            duration=duration,
            lap_length=lap_length,
            location_type=location_type,
            metadata=metadata,
            statistics=statistics,
            swimming_location_type=swimming_location_type,
            workout_events=workout_events,
        )

        workout_activity.additional_properties = d
        return workout_activity

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
