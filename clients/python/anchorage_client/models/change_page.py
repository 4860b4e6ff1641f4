from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.activity_summary import ActivitySummary
    from ..models.audiogram import Audiogram
    from ..models.category_sample import CategorySample
    from ..models.change_page_deleted_item import ChangePageDeletedItem
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


T = TypeVar("T", bound="ChangePage")


@_attrs_define
class ChangePage:
    """
    Attributes:
        activity_summaries (list[ActivitySummary]):
        added (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram | HeartbeatSeries |
            MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind | VisionPrescription | Workout |
            WorkoutRoute]):
        deleted (list[ChangePageDeletedItem]):
        has_more (bool):
        new_anchor (str): Where the next page starts: give it as `since`. Opaque; keep it and give it back: 50
            characters of base64url (a format version, the store's id and incarnation, a position, a checksum); a fleet
            copy's anchor adds `.` and the version vector its consumer has seen (base64url, 32 characters an origin, at most
            4,096 origins), valid on every copy of the store. An iOS 8 integer anchor (a whole number) is taken too, and a
            page that started from one past the store's head gives it back. Example: AQjLkGLHa0KQs_ndT6cueCGFd7fAlBv-
            NgAAAAAAAAAAxKXRuA.
    """

    activity_summaries: list[ActivitySummary]
    added: list[
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
    deleted: list[ChangePageDeletedItem]
    has_more: bool
    new_anchor: str
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

        activity_summaries = []
        for activity_summaries_item_data in self.activity_summaries:
            activity_summaries_item = activity_summaries_item_data.to_dict()
            activity_summaries.append(activity_summaries_item)

        added = []
        for added_item_data in self.added:
            added_item: dict[str, Any]
            if isinstance(added_item_data, QuantitySample):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, CategorySample):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, Correlation):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, Workout):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, WorkoutRoute):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, HeartbeatSeries):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, Electrocardiogram):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, Audiogram):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, StateOfMind):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, ScoredAssessment):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, VisionPrescription):
                added_item = added_item_data.to_dict()
            elif isinstance(added_item_data, ClinicalRecord):
                added_item = added_item_data.to_dict()
            else:
                added_item = added_item_data.to_dict()

            added.append(added_item)

        deleted = []
        for deleted_item_data in self.deleted:
            deleted_item = deleted_item_data.to_dict()
            deleted.append(deleted_item)

        has_more = self.has_more

        new_anchor = self.new_anchor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "activitySummaries": activity_summaries,
                "added": added,
                "deleted": deleted,
                "hasMore": has_more,
                "newAnchor": new_anchor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_summary import ActivitySummary  # noqa: PLC0415
        from ..models.audiogram import Audiogram  # noqa: PLC0415
        from ..models.category_sample import CategorySample  # noqa: PLC0415
        from ..models.change_page_deleted_item import ChangePageDeletedItem  # noqa: PLC0415
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
        activity_summaries = []
        _activity_summaries = d.pop("activitySummaries")
        for activity_summaries_item_data in _activity_summaries:
            activity_summaries_item = ActivitySummary.from_dict(activity_summaries_item_data)

            activity_summaries.append(activity_summaries_item)

        added = []
        _added = d.pop("added")
        for added_item_data in _added:

            def _parse_added_item(
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

            added_item = _parse_added_item(added_item_data)

            added.append(added_item)

        deleted = []
        _deleted = d.pop("deleted")
        for deleted_item_data in _deleted:
            deleted_item = ChangePageDeletedItem.from_dict(deleted_item_data)

            deleted.append(deleted_item)

        has_more = d.pop("hasMore")

        new_anchor = d.pop("newAnchor")

        change_page = cls(
            activity_summaries=activity_summaries,
            added=added,
            deleted=deleted,
            has_more=has_more,
            new_anchor=new_anchor,
        )

        change_page.additional_properties = d
        return change_page

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
