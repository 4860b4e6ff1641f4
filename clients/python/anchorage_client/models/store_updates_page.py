from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.store_update import StoreUpdate


T = TypeVar("T", bound="StoreUpdatesPage")


@_attrs_define
class StoreUpdatesPage:
    """
    Attributes:
        has_more (bool): Whether more updates follow the page's last
        new_cursor (str): Where the next page starts (the cursor asked for when the page is empty)
        updates (list[StoreUpdate]):
    """

    has_more: bool
    new_cursor: str
    updates: list[StoreUpdate]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        new_cursor = self.new_cursor

        updates = []
        for updates_item_data in self.updates:
            updates_item = updates_item_data.to_dict()
            updates.append(updates_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hasMore": has_more,
                "newCursor": new_cursor,
                "updates": updates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.store_update import StoreUpdate  # noqa: PLC0415

        d = dict(src_dict)
        has_more = d.pop("hasMore")

        new_cursor = d.pop("newCursor")

        updates = []
        _updates = d.pop("updates")
        for updates_item_data in _updates:
            updates_item = StoreUpdate.from_dict(updates_item_data)

            updates.append(updates_item)

        store_updates_page = cls(
            has_more=has_more,
            new_cursor=new_cursor,
            updates=updates,
        )

        store_updates_page.additional_properties = d
        return store_updates_page

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
