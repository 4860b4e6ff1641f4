from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audiogram import Audiogram
    from ..models.category_sample import CategorySample
    from ..models.clinical_record import ClinicalRecord
    from ..models.correlation import Correlation
    from ..models.electrocardiogram import Electrocardiogram
    from ..models.heartbeat_series import HeartbeatSeries
    from ..models.medication_dose_event import MedicationDoseEvent
    from ..models.quantity_sample import QuantitySample
    from ..models.scored_assessment import ScoredAssessment
    from ..models.state_of_mind import StateOfMind
    from ..models.vision_prescription import VisionPrescription
    from ..models.workout import Workout
    from ..models.workout_route import WorkoutRoute


T = TypeVar("T", bound="StoreSaveSamplesBodyType1")


@_attrs_define
class StoreSaveSamplesBodyType1:
    """
    Attributes:
        samples (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram | HeartbeatSeries |
            MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind | VisionPrescription | Workout |
            WorkoutRoute]):
    """

    samples: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audiogram import Audiogram  # noqa: PLC0415
        from ..models.category_sample import CategorySample  # noqa: PLC0415
        from ..models.clinical_record import ClinicalRecord  # noqa: PLC0415
        from ..models.correlation import Correlation  # noqa: PLC0415
        from ..models.electrocardiogram import Electrocardiogram  # noqa: PLC0415
        from ..models.heartbeat_series import HeartbeatSeries  # noqa: PLC0415
        from ..models.quantity_sample import QuantitySample  # noqa: PLC0415
        from ..models.scored_assessment import ScoredAssessment  # noqa: PLC0415
        from ..models.state_of_mind import StateOfMind  # noqa: PLC0415
        from ..models.vision_prescription import VisionPrescription  # noqa: PLC0415
        from ..models.workout import Workout  # noqa: PLC0415
        from ..models.workout_route import WorkoutRoute  # noqa: PLC0415

        samples = []
        for samples_item_data in self.samples:
            samples_item: dict[str, Any]
            if isinstance(samples_item_data, QuantitySample):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, CategorySample):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, Correlation):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, Workout):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, WorkoutRoute):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, HeartbeatSeries):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, Electrocardiogram):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, Audiogram):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, StateOfMind):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, ScoredAssessment):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, VisionPrescription):
                samples_item = samples_item_data.to_dict()
            elif isinstance(samples_item_data, ClinicalRecord):
                samples_item = samples_item_data.to_dict()
            else:
                samples_item = samples_item_data.to_dict()

            samples.append(samples_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "samples": samples,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audiogram import Audiogram  # noqa: PLC0415
        from ..models.category_sample import CategorySample  # noqa: PLC0415
        from ..models.clinical_record import ClinicalRecord  # noqa: PLC0415
        from ..models.correlation import Correlation  # noqa: PLC0415
        from ..models.electrocardiogram import Electrocardiogram  # noqa: PLC0415
        from ..models.heartbeat_series import HeartbeatSeries  # noqa: PLC0415
        from ..models.medication_dose_event import MedicationDoseEvent  # noqa: PLC0415
        from ..models.quantity_sample import QuantitySample  # noqa: PLC0415
        from ..models.scored_assessment import ScoredAssessment  # noqa: PLC0415
        from ..models.state_of_mind import StateOfMind  # noqa: PLC0415
        from ..models.vision_prescription import VisionPrescription  # noqa: PLC0415
        from ..models.workout import Workout  # noqa: PLC0415
        from ..models.workout_route import WorkoutRoute  # noqa: PLC0415

        d = dict(src_dict)
        samples = []
        _samples = d.pop("samples")
        for samples_item_data in _samples:

            def _parse_samples_item(
                data: object,
            ) -> (
                Audiogram
                | CategorySample
                | ClinicalRecord
                | Correlation
                | Electrocardiogram
                | HeartbeatSeries
                | MedicationDoseEvent
                | QuantitySample
                | ScoredAssessment
                | StateOfMind
                | VisionPrescription
                | Workout
                | WorkoutRoute
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_0 = QuantitySample.from_dict(data)

                    return componentsschemas_health_object_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_1 = CategorySample.from_dict(data)

                    return componentsschemas_health_object_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_2 = Correlation.from_dict(data)

                    return componentsschemas_health_object_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_3 = Workout.from_dict(data)

                    return componentsschemas_health_object_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_4 = WorkoutRoute.from_dict(data)

                    return componentsschemas_health_object_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_5 = HeartbeatSeries.from_dict(data)

                    return componentsschemas_health_object_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_6 = Electrocardiogram.from_dict(data)

                    return componentsschemas_health_object_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_7 = Audiogram.from_dict(data)

                    return componentsschemas_health_object_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_8 = StateOfMind.from_dict(data)

                    return componentsschemas_health_object_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_9 = ScoredAssessment.from_dict(data)

                    return componentsschemas_health_object_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_10 = VisionPrescription.from_dict(data)

                    return componentsschemas_health_object_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_health_object_type_11 = ClinicalRecord.from_dict(data)

                    return componentsschemas_health_object_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_health_object_type_12 = MedicationDoseEvent.from_dict(data)

                return componentsschemas_health_object_type_12

            samples_item = _parse_samples_item(samples_item_data)

            samples.append(samples_item)

        store_save_samples_body_type_1 = cls(
            samples=samples,
        )

        store_save_samples_body_type_1.additional_properties = d
        return store_save_samples_body_type_1

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
