from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.device import Device
    from ..models.heartbeat import Heartbeat
    from ..models.metadata import Metadata
    from ..models.source_revision import SourceRevision


T = TypeVar("T", bound="HeartbeatSeries")


@_attrs_define
class HeartbeatSeries:
    """A heartbeat series (`HKHeartbeatSeriesSample`); `type` is `HKDataTypeIdentifierHeartbeatSeries`. Listings and feeds
    give its `count`, `GET /v1/heartbeat-series/{uuid}/heartbeats` its beats (SERIES-2).

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
            kind (Literal['heartbeatSeries']):
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
            count (int | Unset): The number of beats (written; ignored when read)
            heartbeats (list[Heartbeat] | Unset): The beats, each later than the one before, none after `endDate`; required
                to save, written only by exports
    """

    end_date: str
    start_date: str
    type_: str
    uuid: UUID
    kind: Literal["heartbeatSeries"]
    device: Device | Unset = UNSET
    metadata: Metadata | Unset = UNSET
    source_revision: SourceRevision | Unset = UNSET
    count: int | Unset = UNSET
    heartbeats: list[Heartbeat] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        start_date = self.start_date

        type_ = self.type_

        uuid = str(self.uuid)

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

        count = self.count

        heartbeats: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.heartbeats, Unset):
            heartbeats = []
            for heartbeats_item_data in self.heartbeats:
                heartbeats_item = heartbeats_item_data.to_dict()
                heartbeats.append(heartbeats_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "startDate": start_date,
                "type": type_,
                "uuid": uuid,
                "kind": kind,
            }
        )
        if device is not UNSET:
            field_dict["device"] = device
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if source_revision is not UNSET:
            field_dict["sourceRevision"] = source_revision
        if count is not UNSET:
            field_dict["count"] = count
        if heartbeats is not UNSET:
            field_dict["heartbeats"] = heartbeats

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device import Device  # noqa: PLC0415
        from ..models.heartbeat import Heartbeat  # noqa: PLC0415
        from ..models.metadata import Metadata  # noqa: PLC0415
        from ..models.source_revision import SourceRevision  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        start_date = d.pop("startDate")

        type_ = d.pop("type")

        uuid = UUID(d.pop("uuid"))

        kind = cast(Literal["heartbeatSeries"], d.pop("kind"))
        if kind != "heartbeatSeries":
            raise ValueError(f"kind must match const 'heartbeatSeries', got '{kind}'")

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

        count = d.pop("count", UNSET)

        _heartbeats = d.pop("heartbeats", UNSET)
        heartbeats: list[Heartbeat] | Unset = UNSET
        if _heartbeats is not UNSET:
            heartbeats = []
            for heartbeats_item_data in _heartbeats:
                heartbeats_item = Heartbeat.from_dict(heartbeats_item_data)

                heartbeats.append(heartbeats_item)

        heartbeat_series = cls(
            end_date=end_date,
            start_date=start_date,
            type_=type_,
            uuid=uuid,
            kind=kind,
            device=device,
            metadata=metadata,
            source_revision=source_revision,
            count=count,
            heartbeats=heartbeats,
        )

        heartbeat_series.additional_properties = d
        return heartbeat_series

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
