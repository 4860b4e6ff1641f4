from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.vision_prescription_form import VisionPrescriptionForm
from ..models.vision_prescription_prescription_type import VisionPrescriptionPrescriptionType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device
    from ..models.lens import Lens
    from ..models.metadata import Metadata
    from ..models.source_revision import SourceRevision


T = TypeVar("T", bound="VisionPrescription")


@_attrs_define
class VisionPrescription:
    """A vision prescription (`HKVisionPrescription`, `HKGlassesPrescription`, `HKContactsPrescription`); `type` is
    `HKVisionPrescriptionTypeIdentifier`. It ends on its expiration date, or on its issue date (`startDate`) without
    one. An `image` prescription has no lenses or brand, a `glasses` one is of type 1 without a brand, a `contacts` one
    of type 2 with a brand (VISION-1).

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
            kind (Literal['visionPrescription']):
            prescription_type (VisionPrescriptionPrescriptionType): HKVisionPrescriptionType: 1 glasses, 2 contacts
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
            brand (str | Unset): A contact lens' brand
            expiration_date (str | Unset): An ISO 8601 date: written in UTC with as many fractional digits as the date needs
                to read back exactly (`2026-03-10T00:00:00Z`, `2026-03-10T00:00:00.25Z`); read with an offset (`+01:00`) too,
                and up to 20 fractional digits Example: 2026-03-10T00:00:00.25Z.
            form (VisionPrescriptionForm | Unset): The kind of prescription stored (always written) Default:
                VisionPrescriptionForm.IMAGE.
            left_eye (Lens | Unset): One eye's lens values, powers in diopters, the axis in degrees, distances in
                millimetres
            right_eye (Lens | Unset): One eye's lens values, powers in diopters, the axis in degrees, distances in
                millimetres
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    kind: Literal["visionPrescription"]
    prescription_type: VisionPrescriptionPrescriptionType
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    brand: str | Unset = UNSET
    expiration_date: str | Unset = UNSET
    form: VisionPrescriptionForm | Unset = VisionPrescriptionForm.IMAGE
    left_eye: Lens | Unset = UNSET
    right_eye: Lens | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

        kind = self.kind

        prescription_type = self.prescription_type.value

        device: dict[str, Any] | Unset = UNSET
        if not isinstance(self.device, Unset):
            device = self.device.to_dict()

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        source_revision: dict[str, Any] | Unset = UNSET
        if not isinstance(self.source_revision, Unset):
            source_revision = self.source_revision.to_dict()

        brand = self.brand

        expiration_date = self.expiration_date

        form: str | Unset = UNSET
        if not isinstance(self.form, Unset):
            form = self.form.value

        left_eye: dict[str, Any] | Unset = UNSET
        if not isinstance(self.left_eye, Unset):
            left_eye = self.left_eye.to_dict()

        right_eye: dict[str, Any] | Unset = UNSET
        if not isinstance(self.right_eye, Unset):
            right_eye = self.right_eye.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "kind": kind,
                "prescriptionType": prescription_type,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if brand is not UNSET:
            field_dict["brand"] = brand
        if expiration_date is not UNSET:
            field_dict["expirationDate"] = expiration_date
        if form is not UNSET:
            field_dict["form"] = form
        if left_eye is not UNSET:
            field_dict["leftEye"] = left_eye
        if right_eye is not UNSET:
            field_dict["rightEye"] = right_eye

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device import Device  # noqa: PLC0415
        from ..models.lens import Lens  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        kind = cast(Literal["visionPrescription"], d.pop("kind"))
        if kind != "visionPrescription":
            raise ValueError(f"kind must match const 'visionPrescription', got '{kind}'")

        prescription_type = VisionPrescriptionPrescriptionType(d.pop("prescriptionType"))

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

        brand = d.pop("brand", UNSET)

        expiration_date = d.pop("expirationDate", UNSET)

        _form = d.pop("form", UNSET)
        form: VisionPrescriptionForm | Unset
        if isinstance(_form, Unset):
            form = UNSET
        else:
            form = VisionPrescriptionForm(_form)

        _left_eye = d.pop("leftEye", UNSET)
        left_eye: Lens | Unset
        if isinstance(_left_eye, Unset):
            left_eye = UNSET
        else:
            left_eye = Lens.from_dict(_left_eye)

        _right_eye = d.pop("rightEye", UNSET)
        right_eye: Lens | Unset
        if isinstance(_right_eye, Unset):
            right_eye = UNSET
        else:
            right_eye = Lens.from_dict(_right_eye)

        vision_prescription = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            kind=kind,
            prescription_type=prescription_type,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            brand=brand,
            expiration_date=expiration_date,
            form=form,
            left_eye=left_eye,
            right_eye=right_eye,
        )

        vision_prescription.additional_properties = d
        return vision_prescription

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
