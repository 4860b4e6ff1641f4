from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.peer_status import PeerStatus
    from ..models.peers_response_200_pushes_received import PeersResponse200PushesReceived


T = TypeVar("T", bound="PeersResponse200")


@_attrs_define
class PeersResponse200:
    """
    Attributes:
        peers (list[PeerStatus]):
        pushes_received (PeersResponse200PushesReceived): The batches peers pushed here; `redundantBatches` held only
            entries this store had
    """

    peers: list[PeerStatus]
    pushes_received: PeersResponse200PushesReceived
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        peers = []
        for peers_item_data in self.peers:
            peers_item = peers_item_data.to_dict()
            peers.append(peers_item)

        pushes_received = self.pushes_received.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "peers": peers,
                "pushesReceived": pushes_received,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.peer_status import PeerStatus  # noqa: PLC0415
        from ..models.peers_response_200_pushes_received import PeersResponse200PushesReceived  # noqa: PLC0415

        d = dict(src_dict)
        peers = []
        _peers = d.pop("peers")
        for peers_item_data in _peers:
            peers_item = PeerStatus.from_dict(peers_item_data)

            peers.append(peers_item)

        pushes_received = PeersResponse200PushesReceived.from_dict(d.pop("pushesReceived"))

        peers_response_200 = cls(
            peers=peers,
            pushes_received=pushes_received,
        )

        peers_response_200.additional_properties = d
        return peers_response_200

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
