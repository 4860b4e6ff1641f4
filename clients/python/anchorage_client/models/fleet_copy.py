from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fleet_copy_role import FleetCopyRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="FleetCopy")


@_attrs_define
class FleetCopy:
    """A fleet node's copy of a store; `heldEpoch` once its log holds a fleet epoch

    Attributes:
        digest (str): The store's state digest (SHA-256): equal on every copy once they have converged
        epoch (int): The placement's epoch
        head (int): The copy's last position (an unsigned 64-bit integer)
        ready (bool): A primary: its epoch is begun and caught up
        role (FleetCopyRole):
        store (str):
        held_epoch (int | Unset): The highest fleet epoch the copy's log holds
    """

    digest: str
    epoch: int
    head: int
    ready: bool
    role: FleetCopyRole
    store: str
    held_epoch: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        digest = self.digest

        epoch = self.epoch

        head = self.head

        ready = self.ready

        role = self.role.value

        store = self.store

        held_epoch = self.held_epoch

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "digest": digest,
                "epoch": epoch,
                "head": head,
                "ready": ready,
                "role": role,
                "store": store,
            }
        )
        if held_epoch is not UNSET:
            field_dict["heldEpoch"] = held_epoch

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        digest = d.pop("digest")

        epoch = d.pop("epoch")

        head = d.pop("head")

        ready = d.pop("ready")

        role = FleetCopyRole(d.pop("role"))

        store = d.pop("store")

        held_epoch = d.pop("heldEpoch", UNSET)

        fleet_copy = cls(
            digest=digest,
            epoch=epoch,
            head=head,
            ready=ready,
            role=role,
            store=store,
            held_epoch=held_epoch,
        )

        fleet_copy.additional_properties = d
        return fleet_copy

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
