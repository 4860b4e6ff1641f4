from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.electrocardiogram_classification import ElectrocardiogramClassification
from ..models.electrocardiogram_symptoms_status import ElectrocardiogramSymptomsStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device
    from ..models.lead import Lead
    from ..models.metadata import Metadata
    from ..models.quantity import Quantity
    from ..models.source_revision import SourceRevision


T = TypeVar("T", bound="Electrocardiogram")


@_attrs_define
class Electrocardiogram:
    """An electrocardiogram (`HKElectrocardiogram`); `type` is `HKDataTypeIdentifierElectrocardiogram`. Listings and feeds
    give its `count`, `GET /v1/electrocardiograms/{uuid}/voltages` its voltages (ECG-1).

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
            classification (ElectrocardiogramClassification): HKElectrocardiogram.Classification: 0 not set, 1 sinus rhythm,
                2 atrial fibrillation, 3 inconclusive (low heart rate), 4 inconclusive (high heart rate), 5 inconclusive (poor
                reading), 6 inconclusive (other), 100 unrecognized
            kind (Literal['electrocardiogram']):
            symptoms_status (ElectrocardiogramSymptomsStatus): HKElectrocardiogram.SymptomsStatus: 0 not set, 1 none, 2
                present
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
            average_heart_rate (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit':
                'count/min', 'value': 72}.
            count (int | Unset): The number of voltage measurements (written; ignored when read)
            sampling_frequency (Quantity | Unset): A quantity; the unit must suit what it measures Example: {'unit':
                'count/min', 'value': 72}.
            voltages (list[Lead] | Unset): One list of volts per lead, each lead once, all lists of one length (an empty
                array for a recording without any); required to save, written only by exports
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    classification: ElectrocardiogramClassification
    kind: Literal["electrocardiogram"]
    symptoms_status: ElectrocardiogramSymptomsStatus
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    average_heart_rate: Quantity | Unset = UNSET
    count: int | Unset = UNSET
    sampling_frequency: Quantity | Unset = UNSET
    voltages: list[Lead] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

        classification = self.classification.value

        kind = self.kind

        symptoms_status = self.symptoms_status.value

        device: dict[str, Any] | Unset = UNSET
        if not isinstance(self.device, Unset):
            device = self.device.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_revision: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_revision, Unset):
            source_revision = self.source_revision.to_dict()

        average_heart_rate: dict[str, Any] | Unset = UNSET
        if not isinstance(self.average_heart_rate, Unset):
            average_heart_rate = self.average_heart_rate.to_dict()

        count = self.count

        sampling_frequency: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sampling_frequency, Unset):
            sampling_frequency = self.sampling_frequency.to_dict()

        voltages: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.voltages, Unset):
            voltages = []
            for voltages_item_data in self.voltages:
                voltages_item = voltages_item_data.to_dict()
                voltages.append(voltages_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "classification": classification,
                "kind": kind,
                "symptomsStatus": symptoms_status,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if average_heart_rate is not UNSET:
            field_dict["averageHeartRate"] = average_heart_rate
        if count is not UNSET:
            field_dict["count"] = count
        if sampling_frequency is not UNSET:
            field_dict["samplingFrequency"] = sampling_frequency
        if voltages is not UNSET:
            field_dict["voltages"] = voltages

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device import Device  # noqa: PLC0415
        from ..models.lead import Lead  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.quantity import Quantity  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        classification = ElectrocardiogramClassification(d.pop("classification"))

        kind = cast(Literal["electrocardiogram"], d.pop("kind"))
        if kind != "electrocardiogram":
            raise ValueError(f"kind must match const 'electrocardiogram', got '{kind}'")

        symptoms_status = ElectrocardiogramSymptomsStatus(d.pop("symptomsStatus"))

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

        _average_heart_rate = d.pop("averageHeartRate", UNSET)
        average_heart_rate: Quantity | Unset
        if isinstance(_average_heart_rate, Unset):
            average_heart_rate = UNSET
        else:
            average_heart_rate = Quantity.from_dict(_average_heart_rate)

        count = d.pop("count", UNSET)

        _sampling_frequency = d.pop("samplingFrequency", UNSET)
        sampling_frequency: Quantity | Unset
        if isinstance(_sampling_frequency, Unset):
            sampling_frequency = UNSET
        else:
            sampling_frequency = Quantity.from_dict(_sampling_frequency)

        _voltages = d.pop("voltages", UNSET)
        voltages: list[Lead] | Unset = UNSET
        if _voltages is not UNSET:
            voltages = []
            for voltages_item_data in _voltages:
                voltages_item = Lead.from_dict(voltages_item_data)

                voltages.append(voltages_item)

        electrocardiogram = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            classification=classification,
            kind=kind,
            symptoms_status=symptoms_status,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            average_heart_rate=average_heart_rate,
            count=count,
            sampling_frequency=sampling_frequency,
            voltages=voltages,
        )

        electrocardiogram.additional_properties = d
        return electrocardiogram

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
