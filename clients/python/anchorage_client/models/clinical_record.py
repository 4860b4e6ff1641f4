from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device
    from ..models.fhir_resource import FHIRResource
    from ..models.metadata import Metadata
    from ..models.source_revision import SourceRevision


T = TypeVar("T", bound="ClinicalRecord")


@_attrs_define
class ClinicalRecord:
    """A clinical record (`HKClinicalRecord`); `type` is a clinical type identifier (CLIN-1)

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
        display_name (str): At most 1,000 bytes
        kind (Literal['clinicalRecord']):
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
        fhir_resource (FHIRResource | Unset): A clinical record's FHIR resource, its JSON kept byte for byte
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    display_name: str
    kind: Literal["clinicalRecord"]
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    fhir_resource: FHIRResource | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

        display_name = self.display_name

        kind = self.kind

        device: dict[str, Any] | Unset = UNSET
        if not isinstance(self.device, Unset):
            device = self.device.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_revision: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_revision, Unset):
            source_revision = self.source_revision.to_dict()

        fhir_resource: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fhir_resource, Unset):
            fhir_resource = self.fhir_resource.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "displayName": display_name,
                "kind": kind,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if fhir_resource is not UNSET:
            field_dict["fhirResource"] = fhir_resource

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device import Device  # noqa: PLC0415
        from ..models.fhir_resource import FHIRResource  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        display_name = d.pop("displayName")

        kind = cast(Literal["clinicalRecord"], d.pop("kind"))
        if kind != "clinicalRecord":
            raise ValueError(f"kind must match const 'clinicalRecord', got '{kind}'")

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

        _fhir_resource = d.pop("fhirResource", UNSET)
        fhir_resource: FHIRResource | Unset
        if isinstance(_fhir_resource, Unset):
            fhir_resource = UNSET
        else:
            fhir_resource = FHIRResource.from_dict(_fhir_resource)

        clinical_record = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            display_name=display_name,
            kind=kind,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            fhir_resource=fhir_resource,
        )

        clinical_record.additional_properties = d
        return clinical_record

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
