from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.store_peer_direction import StorePeerDirection
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.peer_status import PeerStatus


T = TypeVar("T", bound="StorePeer")


@_attrs_define
class StorePeer:
    """A peer a store of a multi-store node replicates with, never its token; `status` once a round with it ran

    Attributes:
        created (datetime.datetime):
        direction (StorePeerDirection):
        id (str):
        url (str):
        status (PeerStatus | Unset): What the node's rounds with a peer did. `storeID` once the peer answered;
            `lastContact` and `lastSuccess` once they happened; `lastError` while the last round failed.
    """

    created: datetime.datetime
    direction: StorePeerDirection
    id: str
    url: str
    status: PeerStatus | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        direction = self.direction.value

        id = self.id

        url = self.url

        status: dict[str, Any] | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "direction": direction,
                "id": id,
                "url": url,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.peer_status import PeerStatus  # noqa: PLC0415

        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        direction = StorePeerDirection(d.pop("direction"))

        id = d.pop("id")

        url = d.pop("url")

        _status = d.pop("status", UNSET)
        status: PeerStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = PeerStatus.from_dict(_status)

        store_peer = cls(
            created=created,
            direction=direction,
            id=id,
            url=url,
            status=status,
        )

        store_peer.additional_properties = d
        return store_peer

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
