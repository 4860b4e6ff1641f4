from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="FleetStatusCopiesItem")


@_attrs_define
class FleetStatusCopiesItem:
    """
    Attributes:
        epoch (int):
        ready (bool):
        role (str):
        store (str):
        head (int | Unset):
        held_epoch (int | Unset):
        unconfirmed (int | Unset):
    """

    epoch: int
    ready: bool
    role: str
    store: str
    head: int | Unset = UNSET
    held_epoch: int | Unset = UNSET
    unconfirmed: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        epoch = self.epoch

        ready = self.ready

        role = self.role

        store = self.store

        head = self.head

        held_epoch = self.held_epoch

        unconfirmed = self.unconfirmed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "epoch": epoch,
                "ready": ready,
                "role": role,
                "store": store,
            }
        )
        if head is not UNSET:
            field_dict["head"] = head
        if held_epoch is not UNSET:
            field_dict["heldEpoch"] = held_epoch
        if unconfirmed is not UNSET:
            field_dict["unconfirmed"] = unconfirmed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        epoch = d.pop("epoch")

        ready = d.pop("ready")

        role = d.pop("role")

        store = d.pop("store")

        head = d.pop("head", UNSET)

        held_epoch = d.pop("heldEpoch", UNSET)

        unconfirmed = d.pop("unconfirmed", UNSET)

        fleet_status_copies_item = cls(
            epoch=epoch,
            ready=ready,
            role=role,
            store=store,
            head=head,
            held_epoch=held_epoch,
            unconfirmed=unconfirmed,
        )

        fleet_status_copies_item.additional_properties = d
        return fleet_status_copies_item

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
