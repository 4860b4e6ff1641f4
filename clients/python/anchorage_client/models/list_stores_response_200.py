from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.store_placement import StorePlacement
    from ..models.store_record import StoreRecord


T = TypeVar("T", bound="ListStoresResponse200")


@_attrs_define
class ListStoresResponse200:
    """
    Attributes:
        stores (list[StorePlacement | StoreRecord]):
        next_ (str | Unset): The last id of this page: give it as `after`
    """

    stores: list[StorePlacement | StoreRecord]
    next_: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.store_record import StoreRecord  # noqa: PLC0415

        stores = []
        for stores_item_data in self.stores:
            stores_item: dict[str, Any]
            if isinstance(stores_item_data, StoreRecord):
                stores_item = stores_item_data.to_dict()
            else:
                stores_item = stores_item_data.to_dict()

            stores.append(stores_item)

        next_ = self.next_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stores": stores,
            }
        )
        if next_ is not UNSET:
            field_dict["next"] = next_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.store_placement import StorePlacement  # noqa: PLC0415
        from ..models.store_record import StoreRecord  # noqa: PLC0415

        d = dict(src_dict)
        stores = []
        _stores = d.pop("stores")
        for stores_item_data in _stores:

            def _parse_stores_item(data: object) -> StorePlacement | StoreRecord:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    stores_item_type_0 = StoreRecord.from_dict(data)

                    return stores_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                stores_item_type_1 = StorePlacement.from_dict(data)

                return stores_item_type_1

            stores_item = _parse_stores_item(stores_item_data)

            stores.append(stores_item)

        next_ = d.pop("next", UNSET)

        list_stores_response_200 = cls(
            stores=stores,
            next_=next_,
        )

        list_stores_response_200.additional_properties = d
        return list_stores_response_200

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
