from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.peer_identity_version_vector import PeerIdentityVersionVector


T = TypeVar("T", bound="PeerIdentity")


@_attrs_define
class PeerIdentity:
    """What a replicating peer says of its store (docs/sync-protocol.md, "A round"). Unknown fields are ignored. A
    `protocolVersion` other than 1 is `400 unsupportedVersion`; the store itself, another key id, or a higher fleet
    epoch than the store's own `409 wrongPeer` or `staleEpoch`.

        Attributes:
            head (int): The store's last position (an unsigned 64-bit integer)
            incarnation (int): An unsigned 64-bit integer: changes when a backup is restored
            protocol_version (Literal[1]): The version this node speaks; another is `400 unsupportedVersion`
            store_id (UUID): The store's permanent id (a uuid in either case)
            version_vector (PeerIdentityVersionVector): For each origin (a store id, a uuid in either case), the highest
                counter the store holds of it
            checkpoint (int | None | Unset): Ignored in a request
            epoch (int | None | Unset): The highest fleet epoch the store holds; absent outside a fleet
            features (list[str] | None | Unset): Ignored in a request
            key_id (None | str | Unset): The key id a sealed store's entries are sealed under (32 hex digits, or a uuid);
                absent for one that does not seal
    """

    head: int
    incarnation: int
    protocol_version: Literal[1]
    store_id: UUID
    version_vector: PeerIdentityVersionVector
    checkpoint: int | None | Unset = UNSET
    epoch: int | None | Unset = UNSET
    features: list[str] | None | Unset = UNSET
    key_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        head = self.head

        incarnation = self.incarnation

        protocol_version = self.protocol_version

        store_id = str(self.store_id)

        version_vector = self.version_vector.to_dict()

        checkpoint: int | None | Unset
        if isinstance(self.checkpoint, Unset):
            checkpoint = UNSET
        else:
            checkpoint = self.checkpoint

        epoch: int | None | Unset
        if isinstance(self.epoch, Unset):
            epoch = UNSET
        else:
            epoch = self.epoch

        features: list[str] | None | Unset
        if isinstance(self.features, Unset):
            features = UNSET
        elif isinstance(self.features, list):
            features = self.features

        else:
            features = self.features

        key_id: None | str | Unset
        if isinstance(self.key_id, Unset):
            key_id = UNSET
        else:
            key_id = self.key_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
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
        if features is not UNSET:
            field_dict["features"] = features
        if key_id is not UNSET:
            field_dict["keyID"] = key_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.peer_identity_version_vector import PeerIdentityVersionVector  # noqa: PLC0415

        d = dict(src_dict)
        head = d.pop("head")

        incarnation = d.pop("incarnation")

        protocol_version = cast(Literal[1], d.pop("protocolVersion"))
        if protocol_version != 1:
            raise ValueError(f"protocolVersion must match const 1, got '{protocol_version}'")

        store_id = UUID(d.pop("storeID"))

        version_vector = PeerIdentityVersionVector.from_dict(d.pop("versionVector"))

        def _parse_checkpoint(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        checkpoint = _parse_checkpoint(d.pop("checkpoint", UNSET))

        def _parse_epoch(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        epoch = _parse_epoch(d.pop("epoch", UNSET))

        def _parse_features(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                features_type_0 = cast(list[str], data)

                return features_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        features = _parse_features(d.pop("features", UNSET))

        def _parse_key_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        key_id = _parse_key_id(d.pop("keyID", UNSET))

        peer_identity = cls(
            head=head,
            incarnation=incarnation,
            protocol_version=protocol_version,
            store_id=store_id,
            version_vector=version_vector,
            checkpoint=checkpoint,
            epoch=epoch,
            features=features,
            key_id=key_id,
        )

        peer_identity.additional_properties = d
        return peer_identity

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
