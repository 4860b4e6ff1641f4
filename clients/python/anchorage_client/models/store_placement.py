from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StorePlacement")


@_attrs_define
class StorePlacement:
    """A fleet's placement of a store (docs/fleet.md)

    Attributes:
        epoch (int):
        id (str):
        joining (list[str]): The nodes whose copies are being added
        primary (str): The node serving the store
        replicas (list[str]): The nodes holding counted copies
        retiring (list[str]): The nodes whose copies go once the joining ones caught up
    """

    epoch: int
    id: str
    joining: list[str]
    primary: str
    replicas: list[str]
    retiring: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        epoch = self.epoch

        id = self.id

        joining = self.joining

        primary = self.primary

        replicas = self.replicas

        retiring = self.retiring

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "epoch": epoch,
                "id": id,
                "joining": joining,
                "primary": primary,
                "replicas": replicas,
                "retiring": retiring,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        epoch = d.pop("epoch")

        id = d.pop("id")

        joining = cast(list[str], d.pop("joining"))

        primary = d.pop("primary")

        replicas = cast(list[str], d.pop("replicas"))

        retiring = cast(list[str], d.pop("retiring"))

        store_placement = cls(
            epoch=epoch,
            id=id,
            joining=joining,
            primary=primary,
            replicas=replicas,
            retiring=retiring,
        )

        store_placement.additional_properties = d
        return store_placement

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
