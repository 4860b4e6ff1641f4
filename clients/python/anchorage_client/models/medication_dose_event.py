from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.medication_dose_event_log_status import MedicationDoseEventLogStatus
from ..models.medication_dose_event_schedule_type import MedicationDoseEventScheduleType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.concept_identifier import ConceptIdentifier
    from ..models.device import Device
    from ..models.metadata import Metadata
    from ..models.source_revision import SourceRevision


T = TypeVar("T", bound="MedicationDoseEvent")


@_attrs_define
class MedicationDoseEvent:
    """A medication dose event (`HKMedicationDoseEvent`); `type` is
    `HKMedicationDoseEventTypeIdentifierMedicationDoseEvent`. Apps cannot save them, the owner can (AUTH-12);
    `scheduledDate` and `scheduledDoseQuantity` are given exactly for scheduled doses (MED-1).

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
            kind (Literal['medicationDoseEvent']):
            log_status (MedicationDoseEventLogStatus): HKMedicationDoseEvent.LogStatus: 1 not interacted, 2 notification not
                sent, 3 snoozed, 4 taken, 5 skipped, 6 not logged
            medication_concept (ConceptIdentifier): A health concept's identifier
            schedule_type (MedicationDoseEventScheduleType): HKMedicationDoseEvent.ScheduleType: 1 as needed, 2 scheduled
            unit (str): A unit in HealthKit's unit-string grammar (`count/min`, `kg`, `mg/dL`, `mmol<180.1558800000541>/L`,
                `mL/min·kg`) Example: count/min.
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
            dose_quantity (float | Unset):
            scheduled_date (str | Unset): An ISO 8601 date: written in UTC with as many fractional digits as the date needs
                to read back exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too,
                and up to 20 fractional digits Example: 2026-03-10T00:00:00.25Z.
            scheduled_dose_quantity (float | Unset):
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    kind: Literal["medicationDoseEvent"]
    log_status: MedicationDoseEventLogStatus
    medication_concept: ConceptIdentifier
    schedule_type: MedicationDoseEventScheduleType
    unit: str
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    dose_quantity: float | Unset = UNSET
    scheduled_date: str | Unset = UNSET
    scheduled_dose_quantity: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

        kind = self.kind

        log_status = self.log_status.value

        medication_concept = self.medication_concept.to_dict()

        schedule_type = self.schedule_type.value

        unit = self.unit

        device: dict[str, Any] | Unset = UNSET
        if not isinstance(self.device, Unset):
            device = self.device.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_revision: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_revision, Unset):
            source_revision = self.source_revision.to_dict()

        dose_quantity = self.dose_quantity

        scheduled_date = self.scheduled_date

        scheduled_dose_quantity = self.scheduled_dose_quantity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "kind": kind,
                "logStatus": log_status,
                "medicationConcept": medication_concept,
                "scheduleType": schedule_type,
                "unit": unit,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if dose_quantity is not UNSET:
            field_dict["doseQuantity"] = dose_quantity
        if scheduled_date is not UNSET:
            field_dict["scheduledDate"] = scheduled_date
        if scheduled_dose_quantity is not UNSET:
            field_dict["scheduledDoseQuantity"] = scheduled_dose_quantity

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.concept_identifier import ConceptIdentifier  # noqa: PLC0415
        from ..models.device import Device  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        kind = cast(Literal["medicationDoseEvent"], d.pop("kind"))
        if kind != "medicationDoseEvent":
            raise ValueError(f"kind must match const 'medicationDoseEvent', got '{kind}'")

        log_status = MedicationDoseEventLogStatus(d.pop("logStatus"))

        medication_concept = ConceptIdentifier.from_dict(d.pop("medicationConcept"))

        schedule_type = MedicationDoseEventScheduleType(d.pop("scheduleType"))

        unit = d.pop("unit")

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

        dose_quantity = d.pop("doseQuantity", UNSET)

        scheduled_date = d.pop("scheduledDate", UNSET)

        scheduled_dose_quantity = d.pop("scheduledDoseQuantity", UNSET)

        medication_dose_event = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            kind=kind,
            log_status=log_status,
            medication_concept=medication_concept,
            schedule_type=schedule_type,
            unit=unit,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            dose_quantity=dose_quantity,
            scheduled_date=scheduled_date,
            scheduled_dose_quantity=scheduled_dose_quantity,
        )

        medication_dose_event.additional_properties = d
        return medication_dose_event

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
