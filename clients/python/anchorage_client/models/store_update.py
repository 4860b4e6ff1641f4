from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.store_update_kind import StoreUpdateKind

T = TypeVar("T", bound="StoreUpdate")


@_attrs_define
class StoreUpdate:
    """A store whose log moved from `since` to `anchor` (`changed`), or a store deleted (`deleted`; a fleet's feed has only
    `changed`). Read its changes with `GET /v1/stores/{store}/changes?since=<since>` (from the beginning when `since` is
    null).

        Example:
            {'anchor': 'AQjLkGLHa0KQs_ndT6cueCGFd7fAlBv-NgAAAAAAAAAAxKXRuA', 'cursor':
                '3f9a1c0e5b7d4e2f8a6c1b0d9e8f7a6b-42', 'kind': 'changed', 'since': None, 'store': 'alice'}

        Attributes:
            anchor (None | str): The store's anchor after them; null for a deletion
            cursor (str): Give it as `since` to resume after this update
            kind (StoreUpdateKind):
            since (None | str): The store's anchor before these changes (the previous update's `anchor`); null, the
                beginning
            store (str):
    """

    anchor: None | str
    cursor: str
    kind: StoreUpdateKind
    since: None | str
    store: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        anchor: None | str
        anchor = self.anchor

        cursor = self.cursor

        kind = self.kind.value

        since: None | str
        since = self.since

        store = self.store

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "anchor": anchor,
                "cursor": cursor,
                "kind": kind,
                "since": since,
                "store": store,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_anchor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        anchor = _parse_anchor(d.pop("anchor"))

        cursor = d.pop("cursor")

        kind = StoreUpdateKind(d.pop("kind"))

        def _parse_since(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        since = _parse_since(d.pop("since"))

        store = d.pop("store")

        store_update = cls(
            anchor=anchor,
            cursor=cursor,
            kind=kind,
            since=since,
            store=store,
        )

        store_update.additional_properties = d
        return store_update

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
