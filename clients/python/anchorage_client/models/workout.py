from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device
    from ..models.metadata import Metadata
    from ..models.quantity import Quantity
    from ..models.source_revision import SourceRevision
    from ..models.workout_activity import WorkoutActivity
    from ..models.workout_event import WorkoutEvent
    from ..models.workout_statistic import WorkoutStatistic


T = TypeVar("T", bound="Workout")


@_attrs_define
class Workout:
    """A workout (`HKWorkout`); `type` is `HKWorkoutTypeIdentifier` (OBJ-21..23)

    Attributes:
        end_date (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
        start_date (str): An ISO 8601 date: written in UTC with as many fractional digits as the date needs to read back
            exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too, and up to 20
            fractional digits Example: 2026-03-10T00:00:00.25Z.
        type_ (str): The HealthKit type identifier, in full (`HKQuantityTypeIdentifierStepCount`); a short name is
            refused Example: HKQuantityTypeIdentifierHeartRate.
        uuid (UUID): The object's uuid (upper-case in answers; either case read)
        kind (Literal['workout']):
        workout_activity_type (int): An HKWorkoutActivityType raw value: 1…80, 82…84, 3000 (other); 37 running, 13
            cycling
        device (Device | Unset): The device that measured the object; every property optional, each at most 4,096 bytes
            Example: {'hardwareVersion': 'Watch7,1', 'manufacturer': 'Apple Inc.', 'model': 'Watch', 'name': 'Apple Watch',
            'softwareVersion': '11.1'}.
        metadata (Metadata | Unset): Metadata: up to 256 keys of 1 to 256 bytes, each to a tagged value. Keys beginning
            with `HK` must be HealthKit's; `HKMetadataKeySyncIdentifier` (a string) and `HKMetadataKeySyncVersion` (an
            integer or a double) come together. Example: {'HKMetadataKeyHeartRateMotionContext': {'integer': 1},
            'HKMetadataKeyWasUserEntered': {'bool': True}}.
        source_revision (SourceRevision | Unset): The app or device that saved the object, and its version. Without it,
            an owner's object is saved with the node's local source; an app's objects always carry the app's. Texts at most
            4,096 bytes (a bundle identifier 255). Example: {'operatingSystemVersion': '17.1.0', 'productType':
            'iPhone15,2', 'source': {'bundleIdentifier': 'com.apple.health', 'name': 'Health'}, 'version': '17'}.
        duration (float | Unset): Seconds of activity, at most end − start; always written. Absent: end − start less the
            paused intervals of `workoutEvents`
        statistics (list[WorkoutStatistic] | Unset): What `HKWorkout.statistics(for:)` answers, at most one per quantity
            type; written only when there are some
        total_distance (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit':
            'count/min', 'value': 72}.
        total_energy_burned (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit':
            'count/min', 'value': 72}.
        total_flights_climbed (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit':
            'count/min', 'value': 72}.
        total_swimming_stroke_count (Quantity | Unset): A quantity; the unit must suit what it measures Example:
            {'unit': 'count/min', 'value': 72}.
        workout_activities (list[WorkoutActivity] | Unset): The workout's parts in order of start, each inside it and
            listed once; written only when there are some
        workout_events (list[WorkoutEvent] | Unset): In date order, inside the workout; pauses and resumes alternate, a
            pause first
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    kind: Literal["workout"]
    workout_activity_type: int
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    duration: float | Unset = UNSET
    statistics: list[WorkoutStatistic] | Unset = UNSET
    total_distance: Quantity | Unset = UNSET
    total_energy_burned: Quantity | Unset = UNSET
    total_flights_climbed: Quantity | Unset = UNSET
    total_swimming_stroke_count: Quantity | Unset = UNSET
    workout_activities: list[WorkoutActivity] | Unset = UNSET
    workout_events: list[WorkoutEvent] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

        kind = self.kind

        workout_activity_type = self.workout_activity_type

        device: dict[str, Any] | Unset = UNSET
        if not isinstance(self.device, Unset):
            device = self.device.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_revision: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_revision, Unset):
            source_revision = self.source_revision.to_dict()

        duration = self.duration

        statistics: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.statistics, Unset):
            statistics = []
            for statistics_item_data in self.statistics:
                statistics_item = statistics_item_data.to_dict()
                statistics.append(statistics_item)

        total_distance: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_distance, Unset):
            total_distance = self.total_distance.to_dict()

        total_energy_burned: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_energy_burned, Unset):
            total_energy_burned = self.total_energy_burned.to_dict()

        total_flights_climbed: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_flights_climbed, Unset):
            total_flights_climbed = self.total_flights_climbed.to_dict()

        total_swimming_stroke_count: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_swimming_stroke_count, Unset):
            total_swimming_stroke_count = self.total_swimming_stroke_count.to_dict()

        workout_activities: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.workout_activities, Unset):
            workout_activities = []
            for workout_activities_item_data in self.workout_activities:
                workout_activities_item = workout_activities_item_data.to_dict()
                workout_activities.append(workout_activities_item)

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
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "kind": kind,
                "workoutActivityType": workout_activity_type,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if duration is not UNSET:
            field_dict["duration"] = duration
        if statistics is not UNSET:
            field_dict["statistics"] = statistics
        if total_distance is not UNSET:
            field_dict["totalDistance"] = total_distance
        if total_energy_burned is not UNSET:
            field_dict["totalEnergyBurned"] = total_energy_burned
        if total_flights_climbed is not UNSET:
            field_dict["totalFlightsClimbed"] = total_flights_climbed
        if total_swimming_stroke_count is not UNSET:
            field_dict["totalSwimmingStrokeCount"] = total_swimming_stroke_count
        if workout_activities is not UNSET:
            field_dict["workoutActivities"] = workout_activities
        if workout_events is not UNSET:
            field_dict["workoutEvents"] = workout_events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device import Device  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.quantity import Quantity  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415
        from ..models.workout_activity import WorkoutActivity  # noqa: PLC0415
        from ..models.workout_event import WorkoutEvent  # noqa: PLC0415
        from ..models.workout_statistic import WorkoutStatistic  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        kind = cast(Literal["workout"], d.pop("kind"))
        if kind != "workout":
            raise ValueError(f"kind must match const 'workout', got '{kind}'")

        workout_activity_type = d.pop("workoutActivityType")

        _device = d.pop("device", UNSET)
        device: Device | Unset
        if isinstance(_device, Unset):
            device = UNSET
        else:
            device = Device.from_dict(_device)

        _metadata = d.pop("metadata", UNSET)
        metadata: Metadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = Metadata.from_dict(_metadata)

        _source_revision = d.pop("sourceRevision", UNSET)
        source_revision: SourceRevision | Unset
        if isinstance(_source_revision, Unset):
            source_revision = UNSET
        else:
            source_revision = SourceRevision.from_dict(_source_revision)

        duration = d.pop("duration", UNSET)

        _statistics = d.pop("statistics", UNSET)
        statistics: list[WorkoutStatistic] | Unset = UNSET
        if _statistics is not UNSET:
            statistics = []
            for statistics_item_data in _statistics:
                statistics_item = WorkoutStatistic.from_dict(statistics_item_data)

                statistics.append(statistics_item)

        _total_distance = d.pop("totalDistance", UNSET)
        total_distance: Quantity | Unset
        if isinstance(_total_distance, Unset):
            total_distance = UNSET
        else:
            total_distance = Quantity.from_dict(_total_distance)

        _total_energy_burned = d.pop("totalEnergyBurned", UNSET)
        total_energy_burned: Quantity | Unset
        if isinstance(_total_energy_burned, Unset):
            total_energy_burned = UNSET
        else:
            total_energy_burned = Quantity.from_dict(_total_energy_burned)

        _total_flights_climbed = d.pop("totalFlightsClimbed", UNSET)
        total_flights_climbed: Quantity | Unset
        if isinstance(_total_flights_climbed, Unset):
            total_flights_climbed = UNSET
        else:
            total_flights_climbed = Quantity.from_dict(_total_flights_climbed)

        _total_swimming_stroke_count = d.pop("totalSwimmingStrokeCount", UNSET)
        total_swimming_stroke_count: Quantity | Unset
        if isinstance(_total_swimming_stroke_count, Unset):
            total_swimming_stroke_count = UNSET
        else:
            total_swimming_stroke_count = Quantity.from_dict(_total_swimming_stroke_count)

        _workout_activities = d.pop("workoutActivities", UNSET)
        workout_activities: list[WorkoutActivity] | Unset = UNSET
        if _workout_activities is not UNSET:
            workout_activities = []
            for workout_activities_item_data in _workout_activities:
                workout_activities_item = WorkoutActivity.from_dict(workout_activities_item_data)

                workout_activities.append(workout_activities_item)

        _workout_events = d.pop("workoutEvents", UNSET)
        workout_events: list[WorkoutEvent] | Unset = UNSET
        if _workout_events is not UNSET:
            workout_events = []
            for workout_events_item_data in _workout_events:
                workout_events_item = WorkoutEvent.from_dict(workout_events_item_data)

                workout_events.append(workout_events_item)

        workout = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            kind=kind,
            workout_activity_type=workout_activity_type,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            duration=duration,
            statistics=statistics,
            total_distance=total_distance,
            total_energy_burned=total_energy_burned,
            total_flights_climbed=total_flights_climbed,
            total_swimming_stroke_count=total_swimming_stroke_count,
            workout_activities=workout_activities,
            workout_events=workout_events,
        )

        workout.additional_properties = d
        return workout

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
