from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.version_vector import VersionVector


T = TypeVar("T", bound="SyncIdentity")


@_attrs_define
class SyncIdentity:
    """The answering store's identity (docs/sync-protocol.md, "A round"): the asker's `checkpoint` when it has applied some
    of the asker's current incarnation, `epoch` for a fleet copy, `keyID` for a sealed store.

        Attributes:
            features (list[str]): What the store serves beyond version 1: `waitingPull` Example: ['waitingPull'].
            head (int): An unsigned 64-bit integer
            incarnation (int): An unsigned 64-bit integer
            protocol_version (Literal[1]):
            store_id (UUID):
            version_vector (VersionVector): For each origin (a store id, a lower-case uuid), the highest counter this store
                holds of it
            checkpoint (int | Unset): How far this store has applied the asker's log (the asker's position): where a push
                resumes
            epoch (int | Unset): The highest fleet epoch this copy holds
            key_id (str | Unset):
    """

    features: list[str]
    head: int
    incarnation: int
    protocol_version: Literal[1]
    store_id: UUID
    version_vector: VersionVector
    checkpoint: int | Unset = UNSET
    epoch: int | Unset = UNSET
    key_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        features = self.features

        head = self.head

        incarnation = self.incarnation

        protocol_version = self.protocol_version

        store_id = str(self.store_id)

        version_vector = self.version_vector.to_dict()

        checkpoint = self.checkpoint

        epoch = self.epoch

        key_id = self.key_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "features": features,
                "head": head,
                "incarnation": incarnation,
                "protocolVersion": protocol_version,
                "storeID": store_id,
                "versionVector": version_vector,
            }
        )
        if checkpoint is not UNSET:
            field_dict["checkpoint"] = checkpoint
        if epoch is not UNSET:
            field_dict["epoch"] = epoch
        if key_id is not UNSET:
            field_dict["keyID"] = key_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.version_vector import VersionVector  # noqa: PLC0415

        d = dict(src_dict)
        features = cast(list[str], d.pop("features"))

        head = d.pop("head")

        incarnation = d.pop("incarnation")

        protocol_version = cast(Literal[1], d.pop("protocolVersion"))
        if protocol_version != 1:
            raise ValueError(f"protocolVersion must match const 1, got '{protocol_version}'")

        store_id = UUID(d.pop("storeID"))

        version_vector = VersionVector.from_dict(d.pop("versionVector"))

        checkpoint = d.pop("checkpoint", UNSET)

        epoch = d.pop("epoch", UNSET)

        key_id = d.pop("keyID", UNSET)

        sync_identity = cls(
            features=features,
            head=head,
            incarnation=incarnation,
            protocol_version=protocol_version,
            store_id=store_id,
            version_vector=version_vector,
            checkpoint=checkpoint,
            epoch=epoch,
            key_id=key_id,
        )

        sync_identity.additional_properties = d
        return sync_identity

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
