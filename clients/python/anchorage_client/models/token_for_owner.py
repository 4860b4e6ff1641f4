from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenForOwner")


@_attrs_define
class TokenForOwner:
    """`{"owner": true}`: the store's owner

    Attributes:
        owner (bool):
        peer (bool | None | Unset): Absent, false or null (true is refused: the owner or a peer is its own form)
    """

    owner: bool
    peer: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        owner = self.owner

        peer: bool | None | Unset
        if isinstance(self.peer, Unset):
            peer = UNSET
        else:
            peer = self.peer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "owner": owner,
            }
        )
        if peer is not UNSET:
            field_dict["peer"] = peer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        owner = d.pop("owner")

        def _parse_peer(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        peer = _parse_peer(d.pop("peer", UNSET))

        token_for_owner = cls(
            owner=owner,
            peer=peer,
        )

        token_for_owner.additional_properties = d
        return token_for_owner

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
