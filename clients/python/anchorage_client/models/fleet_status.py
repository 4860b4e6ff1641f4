from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fleet_status_copies_item import FleetStatusCopiesItem
    from ..models.fleet_status_nodes_item import FleetStatusNodesItem


T = TypeVar("T", bound="FleetStatus")


@_attrs_define
class FleetStatus:
    """
    Attributes:
        controller (bool):
        copies (list[FleetStatusCopiesItem]):
        holds_lease (bool):
        node (str):
        nodes (list[FleetStatusNodesItem]):
        placement_changes (int):
        promotions (int):
        lease_seconds_left (float | Unset):
    """

    controller: bool
    copies: list[FleetStatusCopiesItem]
    holds_lease: bool
    node: str
    nodes: list[FleetStatusNodesItem]
    placement_changes: int
    promotions: int
    lease_seconds_left: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        controller = self.controller

        copies = []
        for copies_item_data in self.copies:
            copies_item = copies_item_data.to_dict()
            copies.append(copies_item)

        holds_lease = self.holds_lease

        node = self.node

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        placement_changes = self.placement_changes

        promotions = self.promotions

        lease_seconds_left = self.lease_seconds_left

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "controller": controller,
                "copies": copies,
                "holdsLease": holds_lease,
                "node": node,
                "nodes": nodes,
                "placementChanges": placement_changes,
                "promotions": promotions,
            }
        )
        if lease_seconds_left is not UNSET:
            field_dict["leaseSecondsLeft"] = lease_seconds_left

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fleet_status_copies_item import FleetStatusCopiesItem  # noqa: PLC0415
        from ..models.fleet_status_nodes_item import FleetStatusNodesItem  # noqa: PLC0415

        d = dict(src_dict)
        controller = d.pop("controller")

        copies = []
        _copies = d.pop("copies")
        for copies_item_data in _copies:
            copies_item = FleetStatusCopiesItem.from_dict(copies_item_data)

            copies.append(copies_item)

        holds_lease = d.pop("holdsLease")

        node = d.pop("node")

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = FleetStatusNodesItem.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        placement_changes = d.pop("placementChanges")

        promotions = d.pop("promotions")

        lease_seconds_left = d.pop("leaseSecondsLeft", UNSET)

        fleet_status = cls(
            controller=controller,
            copies=copies,
            holds_lease=holds_lease,
            node=node,
            nodes=nodes,
            placement_changes=placement_changes,
            promotions=promotions,
            lease_seconds_left=lease_seconds_left,
        )

        fleet_status.additional_properties = d
        return fleet_status

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
